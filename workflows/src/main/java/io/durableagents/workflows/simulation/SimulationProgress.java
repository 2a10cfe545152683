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
 * @param paused whether it is paused (it waits before its next step until resumed)
 * @param stopRequested whether a stop was asked for (it ends after the step in progress)
 * @param runs which workflow run it is in (1, then 2 after the first continue-as-new, ...)
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
    Map<String, Number> counts,
    boolean done,
    PlanCounts planCounts,
    boolean paused,
    boolean stopRequested,
    int runs) {

  public SimulationProgress {
    planCounts = planCounts == null ? PlanCounts.ZERO : planCounts;
    runs = Math.max(1, runs);
  }
}
