package io.durableagents.workflows.experiment;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.StepCounts;
import io.durableagents.workflows.simulation.SimulationState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What an ended run of an experiment gave: its rows (the scenario's counts after every step, with the
 * LLM calls and tokens so far) and its totals.
 *
 * @param steps the steps it ran
 * @param stopped whether it was stopped before its last step
 * @param perStep the scenario's counts at the end of every step it ran, with the LLM calls and tokens it
 *     had spent by then (a what-if's: the steps after the recorded state it went on from)
 * @param finalCounts the counts at its end
 * @param agentSteps agent steps it ran
 * @param llmCalls LLM calls it made (a what-if's: after the recorded state, which cost it none)
 * @param tokens tokens it used, prompt and generated (idem)
 * @param failedAgentSteps agent steps that failed for good and were skipped
 * @param warnings what its models said its owner should know
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ExperimentRunResult(
    int steps,
    boolean stopped,
    List<StepCounts> perStep,
    Map<String, Number> finalCounts,
    long agentSteps,
    long llmCalls,
    long tokens,
    long failedAgentSteps,
    List<String> warnings) {

  public ExperimentRunResult {
    perStep = perStep == null ? List.of() : List.copyOf(perStep);
    finalCounts = finalCounts == null ? Map.of() : finalCounts;
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
  }

  /** The same totals without the per-step rows (they stay in the run's own result). */
  public ExperimentRunResult withoutRows() {
    return new ExperimentRunResult(steps, stopped, List.of(), finalCounts, agentSteps, llmCalls, tokens,
        failedAgentSteps, warnings);
  }

  /** The rows and totals of a simulation's result. */
  public static ExperimentRunResult of(SimulationResult result) {
    return of(result, null);
  }

  /**
   * The rows and totals of a simulation's result that went on from {@code from} (a what-if's recorded
   * state; null for a new simulation): only the steps after it, and only what was spent after it (the
   * rows' calls and tokens count from there), since the steps before it were the recorded run's and
   * cost this run nothing (so do its failed agent steps: only those after it are this run's).
   */
  public static ExperimentRunResult of(SimulationResult result, SimulationState from) {
    long tokens = result.usage() == null ? 0 : result.usage().total();
    if (from == null) {
      return new ExperimentRunResult(result.steps(), result.stopped(), result.perStep(), result.finalCounts(),
          result.agentSteps(), result.llmCalls(), tokens, result.failedAgentSteps(), result.warnings());
    }
    long callsBefore = from.llmCalls();
    long tokensBefore = from.usage() == null ? 0 : from.usage().total();
    // the rows count failed agent steps from the start too: those of the recorded steps were not this run's
    long failedBefore = 0;
    for (StepCounts row : from.perStep()) {
      if (row.step() <= from.step() && row.failedAgentSteps() != null) {
        failedBefore = Math.max(failedBefore, row.failedAgentSteps());
      }
    }
    List<StepCounts> after = new ArrayList<>();
    for (StepCounts row : result.perStep()) {
      if (row.step() > from.step()) {
        Long failed = row.failedAgentSteps() == null ? null : row.failedAgentSteps() - failedBefore;
        after.add(new StepCounts(row.step(), row.counts(),
            row.llmCalls() == null ? null : row.llmCalls() - callsBefore,
            row.tokens() == null ? null : row.tokens() - tokensBefore, failed == null || failed == 0 ? null : failed));
      }
    }
    return new ExperimentRunResult(result.steps(), result.stopped(), after, result.finalCounts(),
        result.agentSteps() - from.agentSteps(), result.llmCalls() - callsBefore, tokens - tokensBefore,
        result.failedAgentSteps() - failedBefore, result.warnings());
  }
}
