package io.durableagents.workflows.experiment;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One run of an experiment as it stands: never dropped, whatever happened to it.
 *
 * @param index its number in the experiment, from 1
 * @param runId the workflow id of its simulation (of its last attempt; null before it started)
 * @param values the grid's values of this run, by dimension
 * @param seed the seed it runs with (null: the base's)
 * @param status where it is
 * @param attempts how many times its simulation started (more than 1 after retries)
 * @param reason why it failed, or was not started (null otherwise)
 * @param result its rows and totals, once it ended with a result (completed or stopped)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExperimentRunOutcome(
    int index,
    String runId,
    Map<String, String> values,
    Long seed,
    RunStatus status,
    int attempts,
    String reason,
    ExperimentRunResult result) {

  public ExperimentRunOutcome {
    values = values == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** A run not started yet. */
  public static ExperimentRunOutcome waiting(ExperimentRun run) {
    return new ExperimentRunOutcome(run.index(), null, run.values(), run.seed(), RunStatus.WAITING, 0, null, null);
  }

  /** This outcome without its result's per-step rows. */
  public ExperimentRunOutcome withoutRows() {
    return result == null ? this : with(runId, status, attempts, reason, result.withoutRows());
  }

  ExperimentRunOutcome with(String runId, RunStatus status, int attempts, String reason,
      ExperimentRunResult result) {
    return new ExperimentRunOutcome(index, runId, values, seed, status, attempts, reason, result);
  }
}
