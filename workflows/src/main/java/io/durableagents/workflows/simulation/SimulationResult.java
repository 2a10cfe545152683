package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.durableagents.workflows.llm.TokenUsage;
import java.util.List;
import java.util.Map;

/**
 * What a finished simulation returns.
 *
 * @param simulationId its workflow id
 * @param scenario the scenario
 * @param seed the seed it ran with
 * @param steps the steps it ran
 * @param perStep the variables at the end of every step
 * @param finalCounts the variables at the end
 * @param agentSteps agent steps run
 * @param llmCalls LLM calls made
 * @param toolCalls external tool calls made
 * @param usage tokens used
 * @param planCounts plans made, plan steps reused, re-plans and forced finishes
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SimulationResult(
    String simulationId,
    String scenario,
    long seed,
    int steps,
    List<StepCounts> perStep,
    Map<String, Integer> finalCounts,
    long agentSteps,
    long llmCalls,
    long toolCalls,
    TokenUsage usage,
    PlanCounts planCounts) {

  public SimulationResult {
    planCounts = planCounts == null ? PlanCounts.ZERO : planCounts;
  }
}
