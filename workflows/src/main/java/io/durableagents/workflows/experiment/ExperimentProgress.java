package io.durableagents.workflows.experiment;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * Where an experiment is.
 *
 * @param name what it is about (may be null)
 * @param scenario the scenario its runs simulate
 * @param steps the steps each run goes to
 * @param runs how many runs it has
 * @param byStatus how many runs are in each status (every status, 0 included)
 * @param llmCalls LLM calls of the runs that ended with a result
 * @param tokens tokens of those runs
 * @param budget its budget (null: none)
 * @param maxConcurrentRuns how many runs go at once
 * @param paused whether it is paused (no run starts; its running runs are paused)
 * @param stopping whether it was stopped (no run starts; its running runs end after their step)
 * @param whatIfOf for what-ifs, the simulation its runs fork (null otherwise)
 * @param whatIfStep the step they fork it at
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExperimentProgress(
    String name,
    String scenario,
    int steps,
    int runs,
    Map<RunStatus, Integer> byStatus,
    long llmCalls,
    long tokens,
    ExperimentBudget budget,
    int maxConcurrentRuns,
    boolean paused,
    boolean stopping,
    String whatIfOf,
    Integer whatIfStep) {

  /** The runs that have ended (or will never start). */
  public int ended() {
    int n = 0;
    for (Map.Entry<RunStatus, Integer> e : byStatus.entrySet()) {
      n += e.getKey().ended() ? e.getValue() : 0;
    }
    return n;
  }
}
