package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * The variables recorded at the end of one step (e.g. active, quiet and jailed citizens), with the
 * LLM calls and tokens used so far.
 *
 * @param step the step
 * @param counts the variables, in a stable order: counts, sums, or measures such as a Gini coefficient
 * @param llmCalls LLM calls made up to the end of this step (null in histories from before it existed)
 * @param tokens tokens used up to the end of this step (idem)
 * @param failedAgentSteps agent steps that failed for good up to the end of this step (null when none,
 *     and in histories from before it existed)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StepCounts(
    int step, Map<String, Number> counts, Long llmCalls, Long tokens, Long failedAgentSteps) {
  /** Counts with no failed agent steps. */
  public StepCounts(int step, Map<String, Number> counts, Long llmCalls, Long tokens) {
    this(step, counts, llmCalls, tokens, null);
  }
}
