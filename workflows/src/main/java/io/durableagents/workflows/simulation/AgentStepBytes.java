package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The bytes agent steps carried into and out of history: their inputs as started (the JSON of each
 * {@code AgentStep} input, or of each agent's part of a group step's) and their results as returned.
 * Each input is written once into the simulation's history and once into the step's own, so these
 * bytes drive how fast a simulation's history fills and how much every step costs to start.
 *
 * @param agentSteps the agent steps measured
 * @param inputBytes their inputs' bytes, in all
 * @param resultBytes their results' bytes, in all
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AgentStepBytes(long agentSteps, long inputBytes, long resultBytes) {
  /** Nothing measured yet. */
  public static final AgentStepBytes ZERO = new AgentStepBytes(0, 0, 0);

  /** These and {@code more}. */
  public AgentStepBytes plus(AgentStepBytes more) {
    return more == null ? this
        : new AgentStepBytes(agentSteps + more.agentSteps, inputBytes + more.inputBytes,
            resultBytes + more.resultBytes);
  }

  /** The mean input bytes per agent step (0 when none was measured). */
  @JsonProperty("inputBytesPerAgentStep")
  public double inputPerAgentStep() {
    return agentSteps == 0 ? 0 : Math.round(10.0 * inputBytes / agentSteps) / 10.0;
  }

  /** The mean result bytes per agent step (0 when none was measured). */
  @JsonProperty("resultBytesPerAgentStep")
  public double resultPerAgentStep() {
    return agentSteps == 0 ? 0 : Math.round(10.0 * resultBytes / agentSteps) / 10.0;
  }
}
