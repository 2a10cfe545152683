package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.durableagents.workflows.llm.TokenUsage;
import java.util.Map;

/**
 * Where a running simulation is, as its {@code progress} query returns it.
 *
 * @param scenario the scenario
 * @param step the last step completed (0 before the first)
 * @param totalSteps the steps it will run
 * @param agents how many agents it has
 * @param agentSteps agent steps completed so far
 * @param llmCalls LLM calls so far
 * @param toolCalls external tool calls so far
 * @param usage tokens so far
 * @param counts the variables at the last completed step
 * @param done whether it has finished
 * @param planCounts plans made, plan steps reused, re-plans and forced finishes so far
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SimulationProgress(
    String scenario,
    int step,
    int totalSteps,
    int agents,
    long agentSteps,
    long llmCalls,
    long toolCalls,
    TokenUsage usage,
    Map<String, Integer> counts,
    boolean done,
    PlanCounts planCounts) {

  public SimulationProgress {
    planCounts = planCounts == null ? PlanCounts.ZERO : planCounts;
  }
}
