package io.durableagents.workflows.simulation;

import io.durableagents.api.Json;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.Plan;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.memory.AgentMemory;
import io.durableagents.workflows.memory.MemoryKeeper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The simulation's state that outlives a run: the world and its random generator, every agent's plan,
 * memory, last outcomes and pending messages, the counts and per-step data so far, the warnings, and
 * whether a pause or stop was asked for. Written as a {@link SimulationState} for continue-as-new and
 * checkpoints ({@link #snapshot}), and read back from one ({@link #restore}); the totals grow as the
 * agents' steps and memory calls come back ({@link #count}, {@link #countMemory}).
 *
 * <p>Workflow code: the maps are written sorted, so that the same state gives the same bytes.
 */
final class DurableState {
  /** The last completed step. */
  int step;
  ScenarioWorld world;
  SeededRandom random;
  long agentSteps;
  long llmCalls;
  long failedAgentSteps;
  long toolCalls;
  TokenUsage usage = TokenUsage.ZERO;
  PlanCounts planCounts = PlanCounts.ZERO;
  /** Calls and tokens by role and strategy; null for a run continued from a state that did not keep them. */
  LlmCosts llmCosts = LlmCosts.NONE;
  /** The bytes agent steps carried so far; null for a run continued from a state that did not keep them. */
  AgentStepBytes agentStepBytes = AgentStepBytes.ZERO;
  final Map<String, Plan> plans = new HashMap<>();
  final Map<String, AgentMemory> memories = new HashMap<>();
  final Map<String, List<String>> lastResults = new HashMap<>();
  final Map<String, List<String>> pendingMessages = new HashMap<>();
  final Set<String> warnings = new LinkedHashSet<>();
  final List<StepCounts> perStep = new ArrayList<>();
  boolean paused;
  boolean stopRequested;
  /** How many runs this simulation had before this one. */
  int previousRuns;

  /** The whole state at this step boundary, for the next run, with {@code interventions}. */
  SimulationState snapshot(List<Intervention> interventions) {
    return new SimulationState(step, Json.MAPPER.valueToTree(world.snapshot()), random.state(),
        new TreeMap<>(plans), new TreeMap<>(memories), new TreeMap<>(lastResults),
        List.copyOf(perStep), agentSteps, llmCalls, toolCalls, usage, planCounts, paused,
        stopRequested, previousRuns + 1, new TreeMap<>(pendingMessages), List.copyOf(warnings),
        List.copyOf(interventions), agentStepBytes, llmCosts);
  }

  /**
   * Takes up {@code s}, the state a run continued from, over {@code restoredWorld} (its world read
   * back). A pause or stop that came before this run started stays in force.
   */
  void restore(SimulationState s, ScenarioWorld restoredWorld) {
    step = s.step();
    world = restoredWorld;
    random = new SeededRandom(s.randomState());
    plans.putAll(s.plans());
    memories.putAll(s.memories());
    lastResults.putAll(s.lastResults());
    pendingMessages.putAll(s.pendingMessages());
    perStep.addAll(s.perStep());
    failedAgentSteps = perStep.isEmpty() || perStep.get(perStep.size() - 1).failedAgentSteps() == null
        ? 0 : perStep.get(perStep.size() - 1).failedAgentSteps();
    agentSteps = s.agentSteps();
    llmCalls = s.llmCalls();
    toolCalls = s.toolCalls();
    usage = s.usage();
    planCounts = s.planCounts();
    // a signal that came before this run started stays in force
    paused = paused || s.paused();
    stopRequested = stopRequested || s.stopRequested();
    previousRuns = s.runs();
    warnings.addAll(s.warnings());
    agentStepBytes = s.agentStepBytes();
    // a state written before costs were kept by role: the totals go on, the breakdown is not made up
    llmCosts = s.llmCosts();
  }

  /**
   * Counts the agent steps of one simulation step, in agent order: their calls, tokens, plans and costs,
   * and their warnings up to {@link SimulationResult#MAX_WARNINGS}.
   */
  void count(Map<String, AgentStepInput> inputs, Map<String, AgentStepResult> results) {
    for (String id : inputs.keySet()) {
      AgentStepResult r = results.get(id);
      agentSteps++;
      llmCalls += r.llmCalls();
      toolCalls += r.toolCalls();
      usage = usage.plus(r.usage());
      planCounts = planCounts.plus(r);
      if (llmCosts != null) {
        AgentStepInput in = inputs.get(id);
        llmCosts = llmCosts.plus(in.role(), SimulationWorkflowImpl.strategyName(in.options()), r);
      }
      for (String w : r.warnings()) {
        if (warnings.size() < SimulationResult.MAX_WARNINGS) {
          warnings.add(w);
        }
      }
    }
  }

  /** Keeps agent {@code id}'s memory after an update, and counts the calls and tokens it took. */
  void countMemory(String id, MemoryKeeper.Update u) {
    memories.put(id, u.memory());
    llmCalls += u.llmCalls();
    usage = usage.plus(u.usage());
    if (llmCosts != null) {
      llmCosts = llmCosts.plusMemory(world.roleOf(id), u.llmCalls(), u.usage());
    }
  }
}
