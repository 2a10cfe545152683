package io.durableagents.workflows.experiment;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What a finished experiment returns: every run, in index order, with its status and rows.
 *
 * @param experimentId its workflow id
 * @param name what it is about (may be null)
 * @param scenario the scenario its runs simulated
 * @param steps the steps each run was to go to
 * @param runs every run, ended or never started, with why
 * @param llmCalls LLM calls of the runs that ended with a result
 * @param tokens tokens of those runs
 * @param stopped whether a stop ended it before every run was over
 * @param budget its budget (null: none)
 * @param whatIfOf for what-ifs, the simulation its runs forked (null otherwise)
 * @param whatIfStep the step they forked it at
 * @param rowsOmitted true when the runs' per-step rows were too many to carry here ({@link
 *     ExperimentInput#MAX_TABLE_ROWS}): each run's rows are then in its own simulation's result (the run id's
 *     {@code SimulationResult.perStep()}), and only its totals and final counts are here
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExperimentResult(
    String experimentId,
    String name,
    String scenario,
    int steps,
    List<ExperimentRunOutcome> runs,
    long llmCalls,
    long tokens,
    boolean stopped,
    ExperimentBudget budget,
    String whatIfOf,
    Integer whatIfStep,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean rowsOmitted) {

  /** A result with every run's rows. */
  public ExperimentResult(String experimentId, String name, String scenario, int steps,
      List<ExperimentRunOutcome> runs, long llmCalls, long tokens, boolean stopped, ExperimentBudget budget,
      String whatIfOf, Integer whatIfStep) {
    this(experimentId, name, scenario, steps, runs, llmCalls, tokens, stopped, budget, whatIfOf, whatIfStep, false);
  }

  public ExperimentResult {
    runs = runs == null ? List.of() : List.copyOf(runs);
  }

  /** How many runs ended in {@code status}. */
  public long count(RunStatus status) {
    return runs.stream().filter(r -> r.status() == status).count();
  }
}
