package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
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
 * @param stopped true when a {@code stop} signal ended the run before its last step
 * @param runs how many workflow runs the simulation took (1 + its continue-as-news)
 * @param warnings what the models said the run's owner should know, each once (such as the offline
 *     {@code rules} model having no policy for a role, so those agents took no action); at most {@link
 *     #MAX_WARNINGS}
 * @param failedAgentSteps agent steps that failed for good and were skipped (a rejected plan, an LLM
 *     call that exhausted its retries): those agents took no action at that step (0, omitted, when none)
 * @param interventions the parameter changes made during the run, each with the step it applied from
 *     (omitted when none)
 * @param agentStepBytes the bytes the agent steps' inputs and results carried, in all and per agent step
 *     (omitted in results of runs recorded before it was measured)
 * @param llmCosts the LLM calls and tokens by role and strategy, failed agent steps' included, and why
 *     agent steps failed (omitted in results of runs recorded before they were kept)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SimulationResult(
    String simulationId,
    String scenario,
    long seed,
    int steps,
    List<StepCounts> perStep,
    Map<String, Number> finalCounts,
    long agentSteps,
    long llmCalls,
    long toolCalls,
    TokenUsage usage,
    PlanCounts planCounts,
    boolean stopped,
    int runs,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) long failedAgentSteps,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Intervention> interventions,
    @JsonInclude(JsonInclude.Include.NON_NULL) AgentStepBytes agentStepBytes,
    @JsonInclude(JsonInclude.Include.NON_NULL) LlmCosts llmCosts) {

  /** The most warnings a result keeps: the first ones, each once. */
  public static final int MAX_WARNINGS = 20;

  public SimulationResult {
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
    interventions = interventions == null ? List.of() : List.copyOf(interventions);
    planCounts = planCounts == null ? PlanCounts.ZERO : planCounts;
    runs = Math.max(1, runs);
  }

  /** A result without costs by role. */
  public SimulationResult(String simulationId, String scenario, long seed, int steps,
      List<StepCounts> perStep, Map<String, Number> finalCounts, long agentSteps, long llmCalls,
      long toolCalls, TokenUsage usage, PlanCounts planCounts, boolean stopped, int runs,
      List<String> warnings, long failedAgentSteps, List<Intervention> interventions,
      AgentStepBytes agentStepBytes) {
    this(simulationId, scenario, seed, steps, perStep, finalCounts, agentSteps, llmCalls, toolCalls,
        usage, planCounts, stopped, runs, warnings, failedAgentSteps, interventions, agentStepBytes, null);
  }

  /** A result without the bytes of its agent steps. */
  public SimulationResult(String simulationId, String scenario, long seed, int steps,
      List<StepCounts> perStep, Map<String, Number> finalCounts, long agentSteps, long llmCalls,
      long toolCalls, TokenUsage usage, PlanCounts planCounts, boolean stopped, int runs,
      List<String> warnings, long failedAgentSteps, List<Intervention> interventions) {
    this(simulationId, scenario, seed, steps, perStep, finalCounts, agentSteps, llmCalls, toolCalls,
        usage, planCounts, stopped, runs, warnings, failedAgentSteps, interventions, null);
  }

  /** A result without interventions. */
  public SimulationResult(String simulationId, String scenario, long seed, int steps,
      List<StepCounts> perStep, Map<String, Number> finalCounts, long agentSteps, long llmCalls,
      long toolCalls, TokenUsage usage, PlanCounts planCounts, boolean stopped, int runs,
      List<String> warnings, long failedAgentSteps) {
    this(simulationId, scenario, seed, steps, perStep, finalCounts, agentSteps, llmCalls, toolCalls,
        usage, planCounts, stopped, runs, warnings, failedAgentSteps, null);
  }

  /** A result with no failed agent steps. */
  public SimulationResult(String simulationId, String scenario, long seed, int steps,
      List<StepCounts> perStep, Map<String, Number> finalCounts, long agentSteps, long llmCalls,
      long toolCalls, TokenUsage usage, PlanCounts planCounts, boolean stopped, int runs,
      List<String> warnings) {
    this(simulationId, scenario, seed, steps, perStep, finalCounts, agentSteps, llmCalls, toolCalls,
        usage, planCounts, stopped, runs, warnings, 0);
  }

  /** A result with no warnings. */
  public SimulationResult(String simulationId, String scenario, long seed, int steps,
      List<StepCounts> perStep, Map<String, Number> finalCounts, long agentSteps, long llmCalls,
      long toolCalls, TokenUsage usage, PlanCounts planCounts, boolean stopped, int runs) {
    this(simulationId, scenario, seed, steps, perStep, finalCounts, agentSteps, llmCalls, toolCalls,
        usage, planCounts, stopped, runs, null);
  }

  /** A result of a run that was not stopped and never continued as new. */
  public SimulationResult(String simulationId, String scenario, long seed, int steps,
      List<StepCounts> perStep, Map<String, Number> finalCounts, long agentSteps, long llmCalls,
      long toolCalls, TokenUsage usage, PlanCounts planCounts) {
    this(simulationId, scenario, seed, steps, perStep, finalCounts, agentSteps, llmCalls, toolCalls,
        usage, planCounts, false, 1);
  }
}
