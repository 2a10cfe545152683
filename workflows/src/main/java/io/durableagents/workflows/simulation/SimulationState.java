package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.workflows.agent.Plan;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.memory.AgentMemory;
import java.util.List;
import java.util.Map;

/**
 * Everything a simulation has at a step boundary, carried into the next run by continue-as-new: the
 * continued run resumes exactly where this one stopped, and its result equals that of a run that
 * never continued as new.
 *
 * @param step the last completed step
 * @param world the world's {@link ScenarioWorld#snapshot()} as a JSON tree
 * @param randomState the state of the simulation's {@link SeededRandom}
 * @param plans every agent's plan (a ReWOO plan with its TTL, next step and results), by agent id
 * @param memories every agent's memory, by agent id
 * @param lastResults the outcomes each agent will see in its next observation, by agent id
 * @param perStep the variables of every completed step (the run's result)
 * @param agentSteps agent steps run
 * @param llmCalls LLM calls made
 * @param toolCalls external tool calls made
 * @param usage tokens used
 * @param planCounts plans made, reused, re-made and forced
 * @param paused whether the run is paused (it stays paused in the next run)
 * @param stopRequested whether a stop was asked for
 * @param runs how many runs this simulation has had before the next one (1 after the first
 *     continue-as-new)
 * @param pendingMessages messages other agents sent, by recipient, for its next observation
 * @param warnings the warnings so far (see {@link SimulationResult#warnings()})
 * @param interventions the parameter changes asked for so far, applied and scheduled
 * @param agentStepBytes the bytes agent steps carried so far (null in states written before it was kept)
 * @param llmCosts the LLM calls and tokens so far by role and strategy, and why agent steps failed (null in
 *     states written before they were kept)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SimulationState(
    int step,
    JsonNode world,
    long randomState,
    Map<String, Plan> plans,
    Map<String, AgentMemory> memories,
    Map<String, List<String>> lastResults,
    List<StepCounts> perStep,
    long agentSteps,
    long llmCalls,
    long toolCalls,
    TokenUsage usage,
    PlanCounts planCounts,
    boolean paused,
    boolean stopRequested,
    int runs,
    Map<String, List<String>> pendingMessages,
    List<String> warnings,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Intervention> interventions,
    AgentStepBytes agentStepBytes,
    LlmCosts llmCosts) {

  /** A state without costs by role. */
  public SimulationState(int step, JsonNode world, long randomState, Map<String, Plan> plans,
      Map<String, AgentMemory> memories, Map<String, List<String>> lastResults,
      List<StepCounts> perStep, long agentSteps, long llmCalls, long toolCalls, TokenUsage usage,
      PlanCounts planCounts, boolean paused, boolean stopRequested, int runs,
      Map<String, List<String>> pendingMessages, List<String> warnings, List<Intervention> interventions,
      AgentStepBytes agentStepBytes) {
    this(step, world, randomState, plans, memories, lastResults, perStep, agentSteps, llmCalls,
        toolCalls, usage, planCounts, paused, stopRequested, runs, pendingMessages, warnings, interventions,
        agentStepBytes, null);
  }

  /** A state without the bytes of its agent steps. */
  public SimulationState(int step, JsonNode world, long randomState, Map<String, Plan> plans,
      Map<String, AgentMemory> memories, Map<String, List<String>> lastResults,
      List<StepCounts> perStep, long agentSteps, long llmCalls, long toolCalls, TokenUsage usage,
      PlanCounts planCounts, boolean paused, boolean stopRequested, int runs,
      Map<String, List<String>> pendingMessages, List<String> warnings, List<Intervention> interventions) {
    this(step, world, randomState, plans, memories, lastResults, perStep, agentSteps, llmCalls,
        toolCalls, usage, planCounts, paused, stopRequested, runs, pendingMessages, warnings, interventions,
        null);
  }

  /** A state without interventions. */
  public SimulationState(int step, JsonNode world, long randomState, Map<String, Plan> plans,
      Map<String, AgentMemory> memories, Map<String, List<String>> lastResults,
      List<StepCounts> perStep, long agentSteps, long llmCalls, long toolCalls, TokenUsage usage,
      PlanCounts planCounts, boolean paused, boolean stopRequested, int runs,
      Map<String, List<String>> pendingMessages, List<String> warnings) {
    this(step, world, randomState, plans, memories, lastResults, perStep, agentSteps, llmCalls,
        toolCalls, usage, planCounts, paused, stopRequested, runs, pendingMessages, warnings, null);
  }

  /** This state with {@code more} interventions after its own. */
  public SimulationState withInterventions(List<Intervention> all) {
    return new SimulationState(step, world, randomState, plans, memories, lastResults, perStep, agentSteps,
        llmCalls, toolCalls, usage, planCounts, paused, stopRequested, runs, pendingMessages, warnings, all,
        agentStepBytes, llmCosts);
  }

  /** This state as a new run starts from it: neither paused nor stopping. */
  public SimulationState atBoundary() {
    return new SimulationState(step, world, randomState, plans, memories, lastResults, perStep, agentSteps,
        llmCalls, toolCalls, usage, planCounts, false, false, runs, pendingMessages, warnings, interventions,
        agentStepBytes, llmCosts);
  }

  /** This state with its random generator started again from {@code seed}. */
  public SimulationState reseeded(long seed) {
    return new SimulationState(step, world, seed, plans, memories, lastResults, perStep, agentSteps,
        llmCalls, toolCalls, usage, planCounts, paused, stopRequested, runs, pendingMessages, warnings,
        interventions, agentStepBytes, llmCosts);
  }

  /** A state with no warnings. */
  public SimulationState(int step, JsonNode world, long randomState, Map<String, Plan> plans,
      Map<String, AgentMemory> memories, Map<String, List<String>> lastResults,
      List<StepCounts> perStep, long agentSteps, long llmCalls, long toolCalls, TokenUsage usage,
      PlanCounts planCounts, boolean paused, boolean stopRequested, int runs,
      Map<String, List<String>> pendingMessages) {
    this(step, world, randomState, plans, memories, lastResults, perStep, agentSteps, llmCalls,
        toolCalls, usage, planCounts, paused, stopRequested, runs, pendingMessages, null);
  }

  public SimulationState {
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
    interventions = interventions == null ? List.of() : List.copyOf(interventions);
    plans = plans == null ? Map.of() : plans;
    memories = memories == null ? Map.of() : memories;
    lastResults = lastResults == null ? Map.of() : lastResults;
    pendingMessages = pendingMessages == null ? Map.of() : pendingMessages;
    perStep = perStep == null ? List.of() : perStep;
    usage = usage == null ? TokenUsage.ZERO : usage;
    planCounts = planCounts == null ? PlanCounts.ZERO : planCounts;
  }
}
