package io.durableagents.workflows.agent.rewoo;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What became of one ReWOO step, after jeevesagent's {@code ReWOOStepResult}, with a skipped state it
 * lacks.
 *
 * @param stepId the step's call id, unique across re-plans: {@code p2-E1} (plan 2's E1) in a task,
 *     {@code 4-E1} (E1 of the plan made at simulation step 4) in a simulation
 * @param tool the tool it called
 * @param output the tool's output, or null when it failed or was skipped (or, for a world action, until
 *     its outcome is seen in the next observation)
 * @param error why it failed, or why it was skipped (a step it depends on failed); null on success
 * @param skipped true when the step did not run because a step it depends on failed
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReWooStepResult(String stepId, String tool, String output, String error, boolean skipped) {
  /** True when the step ran and its tool returned an output. */
  public boolean succeeded() {
    return error == null && !skipped;
  }
}
