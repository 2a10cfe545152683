package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.workflows.Json;
import io.durableagents.workflows.SearchAttributes;
import io.durableagents.workflows.agent.AgentGroupInputParts;
import io.durableagents.workflows.agent.AgentGroupStepInput;
import io.durableagents.workflows.agent.AgentGroupStepWorkflow;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.AgentStepWorkflow;
import io.durableagents.workflows.agent.Observation;
import io.durableagents.workflows.agent.Plan;
import io.durableagents.workflows.agent.SelectedTools;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.agent.WorldAction;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.llm.LlmCallOptions;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.memory.AgentMemory;
import io.durableagents.workflows.memory.MemoryEntry;
import io.durableagents.workflows.memory.MemoryKeeper;
import io.durableagents.workflows.memory.MemoryKind;
import io.durableagents.workflows.scenario.BuiltinScenarios;
import io.durableagents.workflows.scenario.InvalidParameterException;
import io.durableagents.workflows.scenario.Scenario;
import io.durableagents.workflows.scenario.ScenarioParameters;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.Async;
import io.temporal.common.converter.RawValue;
import io.temporal.workflow.ChildWorkflowOptions;
import io.temporal.workflow.ChildWorkflowStub;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs a simulation step by step. Agents see the world as it was at the start of the step (their
 * steps run in parallel, at most {@code maxConcurrentAgents} at once); their actions are then applied
 * one agent at a time in a seeded random activation order, so a conflict (two agents into one cell)
 * goes to the agent activated first, and the other is told in its next observation.
 *
 * <p>After every {@code continueAsNewEvery} steps in one run, or earlier when Temporal suggests it or
 * when one more step would take the run's history past 10% of Temporal's limits ({@link
 * #HISTORY_EVENTS_BUDGET}, {@link #HISTORY_BYTES_BUDGET}), the simulation continues as new with its whole state ({@link SimulationState}) in the next run's input,
 * so its history stays bounded however long it runs. Pause, resume and stop are signals taken at step
 * boundaries.
 */
public class SimulationWorkflowImpl implements SimulationWorkflow {
  /**
   * The most events one run's history should hold: 10% of Temporal's 50,000-event limit, so that a
   * run stays quick to replay and far from the limit whatever the number of agents.
   */
  public static final long HISTORY_EVENTS_BUDGET = 5_000;

  /** The most bytes one run's history should hold: 10% of Temporal's 50 MB limit. */
  public static final long HISTORY_BYTES_BUDGET = 5L * 1024 * 1024;

  /** The key under which an agent's observation carries the outcomes of its last actions. */
  public static final String LAST_ACTION_RESULTS = "last_action_results";

  /** The key under which an agent's observation carries the messages other agents sent it. */
  public static final String MESSAGES = "messages";

  private final ScenarioRegistry scenarios;
  private SimulationInput input;
  private Scenario<?> scenario;
  private int step;
  private int agentCount;
  private long agentSteps;
  private long llmCalls;
  private long failedAgentSteps;
  private long toolCalls;
  private TokenUsage usage = TokenUsage.ZERO;
  private PlanCounts planCounts = PlanCounts.ZERO;
  /** Calls and tokens by role and strategy; null for a run continued from a state that did not keep them. */
  private LlmCosts llmCosts = LlmCosts.NONE;
  // The agent (or group) step workflows of the step in progress, for the runningAgentSteps query.
  private final Map<String, Promise<?>> runningChildren = new LinkedHashMap<>();
  private ScenarioWorld world;
  private SeededRandom random;
  private final Map<String, Plan> plans = new HashMap<>();
  private final Map<String, AgentMemory> memories = new HashMap<>();
  private final Map<String, List<String>> lastResults = new HashMap<>();
  private final Map<String, List<String>> pendingMessages = new HashMap<>();
  private Map<String, Number> counts = Map.of();
  private final Set<String> warnings = new LinkedHashSet<>();
  private final List<StepCounts> perStep = new ArrayList<>();
  private boolean done;
  private boolean paused;
  private boolean stopRequested;
  private int previousRuns;
  private String simulationId;
  /** The whole state at the last step boundary: what a checkpoint holds and a fork starts from. */
  private Checkpoint boundary;
  private boolean checkpointRequested;
  private int checkpointsAttempted;
  private CheckpointSaved lastCheckpoint;
  private String lastCheckpointError;
  /** Every intervention asked for, applied and scheduled, in the order asked. */
  private final List<Intervention> interventions = new ArrayList<>();
  /** Whether a step is running (between its start and its boundary). */
  private boolean stepRunning;
  /** The bytes agent steps carried so far; null for a run continued from a state that did not keep them. */
  private AgentStepBytes agentStepBytes = AgentStepBytes.ZERO;
  /** The input bytes of the agent steps started in the running simulation step, by agent id. */
  private final Map<String, Long> startedInputBytes = new HashMap<>();

  /** A simulation that knows the built-in scenarios only. */
  public SimulationWorkflowImpl() {
    this(BuiltinScenarios.registry());
  }

  /** A simulation that knows {@code scenarios} (the plugin passes the worker's registry). */
  public SimulationWorkflowImpl(ScenarioRegistry scenarios) {
    this.scenarios = scenarios;
  }

  @Override
  public SimulationResult run(SimulationInput input) {
    this.input = input;
    try {
      input.validate();
    } catch (IllegalArgumentException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          e.getMessage(), SimulationFailureTypes.INVALID_INPUT);
    }
    try {
      scenario = scenarios.get(input.scenario());
    } catch (IllegalArgumentException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          e.getMessage(), SimulationFailureTypes.UNKNOWN_SCENARIO);
    }
    String simulationId = Workflow.getInfo().getWorkflowId();
    this.simulationId = simulationId;
    if (input.state() == null) {
      random = new SeededRandom(input.seed());
      try {
        world = createWorld(input, random);
      } catch (InvalidParameterException e) {
        throw ApplicationFailure.newNonRetryableFailure(
            e.getMessage(), SimulationFailureTypes.INVALID_PARAMETER);
      }
      checkSelectedTools(world);
      if (input.searchAttributes()) {
        Workflow.upsertTypedSearchAttributes(
            SearchAttributes.SCENARIO.valueSet(input.scenario()),
            SearchAttributes.STRATEGY.valueSet(strategyName(input.agentOptions())));
      }
    } else {
      restore(input.state());
    }
    agentCount = world.agentIds().size();
    counts = world.counts();
    MemoryKeeper memoryKeeper = new MemoryKeeper(input.memory(), request -> {
      LlmActivities llm = Workflow.newActivityStub(
          LlmActivities.class, LlmCallOptions.forModel(request.model()));
      return Async.function(llm::chat, request);
    });

    int stepsThisRun = 0;
    markBoundary();
    while (step < input.steps()) {
      Workflow.await(() -> !paused || stopRequested || checkpointRequested);
      if (checkpointRequested) {
        saveCheckpoint();
        if (paused && !stopRequested) {
          continue;
        }
      }
      if (stopRequested) {
        break;
      }
      applyInterventions(step + 1);
      stepRunning = true;
      runStep(simulationId, step + 1, memoryKeeper);
      stepRunning = false;
      stepsThisRun++;
      markBoundary();
      if (checkpointRequested || (input.checkpointEvery() > 0 && step % input.checkpointEvery() == 0)) {
        saveCheckpoint();
      }
      if (stopRequested || step >= input.steps()) {
        break;
      }
      if (stepsThisRun >= input.continueAsNewEvery()
          || (input.continueAsNewWhenSuggested()
              && (Workflow.getInfo().isContinueAsNewSuggested() || nextStepPassesHistoryBudget(stepsThisRun)))) {
        io.durableagents.workflows.CommittedLog.info(SimulationWorkflowImpl.class,
            "continuing as new after step {} ({} steps and {} history events in this run)", step,
            stepsThisRun, Workflow.getInfo().getHistoryLength());
        SimulationState carried = state();
        long stateBytes = PackedState.sizeOf(carried);
        if (stateBytes > TaskBudget.MAX_PAYLOAD_BYTES) {
          // a server refuses the continue-as-new (2 MB per payload): say so now, not after endless retries
          throw ApplicationFailure.newNonRetryableFailure("the simulation's state after step " + step + " is "
              + stateBytes + " bytes even deflated, over the " + TaskBudget.MAX_PAYLOAD_BYTES + " bytes one "
              + "Temporal payload may carry (a server refuses 2 MB), so the run cannot continue as new: run "
              + "fewer agents, or agents with less memory or shorter plans", SimulationFailureTypes.STATE_TOO_LARGE);
        }
        Workflow.continueAsNew(input.withState(carried));
      }
    }
    if (checkpointRequested) {
      saveCheckpoint();
    }
    done = true;
    return new SimulationResult(simulationId, input.scenario(), input.seed(), step,
        List.copyOf(perStep), counts, agentSteps, llmCalls, toolCalls, usage, planCounts,
        step < input.steps(), previousRuns + 1, List.copyOf(warnings), failedAgentSteps,
        List.copyOf(interventions), agentStepBytes, llmCosts);
  }

  /**
   * A new world for {@code input}: its scenario's, created from its parameters once they are read
   * and checked.
   *
   * @throws InvalidParameterException naming a parameter whose value is not allowed
   */
  protected ScenarioWorld createWorld(SimulationInput input, SeededRandom random) {
    return create(scenario, input.parameters(), random);
  }

  private static <P extends Record> ScenarioWorld create(
      Scenario<P> scenario, JsonNode parameters, SeededRandom random) {
    return scenario.create(ScenarioParameters.read(scenario, parameters), random);
  }

  /** The world a continued run resumes from, read back from its snapshot. */
  protected ScenarioWorld restoreWorld(SimulationInput input, JsonNode snapshot) {
    return scenario.restore(snapshot);
  }

  /** Runs simulation step {@code current}: observations, agent steps, actions, memory, counts. */
  private void runStep(String simulationId, int current, MemoryKeeper memoryKeeper) {
    List<String> actors = new ArrayList<>();
    for (String id : world.agentIds()) {
      if (world.canAct(id)) {
        actors.add(id);
      }
    }
    Map<String, AgentStepInput> inputs = new LinkedHashMap<>();
    for (String id : actors) {
      String role = world.roleOf(id);
      Observation seen = withLastResults(world.observe(id, current), lastResults.remove(id),
          pendingMessages.remove(id));
      inputs.put(id, new AgentStepInput(simulationId, input.scenario(), id, role, seen,
          plans.get(id), world.toolsOf(role), world.worldActions(), input.optionsFor(role),
          memories.get(id)));
    }
    Map<String, AgentStepResult> results = runAgentSteps(simulationId, current, inputs);

    Map<String, List<MemoryEntry>> remembered = new LinkedHashMap<>();
    for (String id : random.shuffled(actors)) {
      AgentStepResult r = results.get(id);
      List<String> outcomes = new ArrayList<>();
      for (ToolOutcome o : r.toolOutcomes()) {
        outcomes.add(o.tool() + ": " + o.output());
      }
      for (WorldAction action : r.actions()) {
        outcomes.add(world.apply(action, random));
      }
      if (r.failedForGood()) {
        outcomes.add("your step failed; you took no action");
      }
      lastResults.put(id, outcomes);
      if (r.plan() != null) {
        plans.put(id, r.plan());
      }
      remembered.computeIfAbsent(id, k -> new ArrayList<>()).add(new MemoryEntry(current,
          outcomes.isEmpty() ? "you took no action" : "you did: " + String.join("; ", outcomes)));
    }
    for (Map.Entry<String, List<String>> m : world.drainMessages().entrySet()) {
      for (String text : m.getValue()) {
        remembered.computeIfAbsent(m.getKey(), k -> new ArrayList<>())
            .add(new MemoryEntry(current, text));
        pendingMessages.computeIfAbsent(m.getKey(), k -> new ArrayList<>()).add(text);
      }
    }
    remember(memoryKeeper, remembered, current);
    world.endStep(current, random);
    counts = world.counts();
    perStep.add(new StepCounts(current, counts, llmCalls, usage.total(),
        failedAgentSteps == 0 ? null : failedAgentSteps));
    if (input.searchAttributes()) {
      Workflow.upsertTypedSearchAttributes(SearchAttributes.SIM_STEP.valueSet((long) current));
    }
    // written once the task is committed: a task run again after a worker was killed does not repeat it
    io.durableagents.workflows.CommittedLog.info(SimulationWorkflowImpl.class,
        "step {}/{} done: {}, {} LLM calls so far", current, input.steps(), counts, llmCalls);
    step = current;
  }

  /**
   * Adds this step's entries to the agents' memories, in agent order, at most {@code
   * maxConcurrentAgents} memory calls at once.
   */
  private void remember(MemoryKeeper keeper, Map<String, List<MemoryEntry>> remembered, int current) {
    if (input.memory().kind() == MemoryKind.NONE) {
      return;
    }
    Map<String, Promise<MemoryKeeper.Update>> running = new LinkedHashMap<>();
    List<Promise<MemoryKeeper.Update>> window = new ArrayList<>();
    boolean budgeted = budgeted();
    int windowCap = windowCap(budgeted);
    TaskBudget budget = new TaskBudget();
    for (String id : world.agentIds()) {
      List<MemoryEntry> added = remembered.get(id);
      if (added == null) {
        continue;
      }
      if (window.size() >= windowCap) {
        awaitAny(window, budget, budgeted);
        window.removeIf(Promise::isCompleted);
      }
      long size = 0;
      if (budgeted) {
        // the memory call's request carries the agent's memory and the new entries
        size = TaskBudget.sizeOf(memories.get(id)) + TaskBudget.sizeOf(added);
        budget.beforeStart(size, window);
      }
      String model = input.optionsFor(world.roleOf(id)).model();
      Promise<MemoryKeeper.Update> p = keeper.remember(model, memories.get(id), added, current);
      budget.started(size, null);
      running.put(id, p);
      window.add(p);
    }
    for (Map.Entry<String, Promise<MemoryKeeper.Update>> e : running.entrySet()) {
      MemoryKeeper.Update u = e.getValue().get();
      memories.put(e.getKey(), u.memory());
      llmCalls += u.llmCalls();
      usage = usage.plus(u.usage());
      if (llmCosts != null) {
        llmCosts = llmCosts.plusMemory(world.roleOf(e.getKey()), u.llmCalls(), u.usage());
      }
    }
  }

  /** The whole state at this step boundary, for the next run. */
  private SimulationState state() {
    return new SimulationState(step, Json.MAPPER.valueToTree(world.snapshot()), random.state(),
        new TreeMap<>(plans), new TreeMap<>(memories), new TreeMap<>(lastResults),
        List.copyOf(perStep), agentSteps, llmCalls, toolCalls, usage, planCounts, paused,
        stopRequested, previousRuns + 1, new TreeMap<>(pendingMessages), List.copyOf(warnings),
        List.copyOf(interventions), agentStepBytes, llmCosts);
  }

  /** Keeps the state of this step boundary, for {@link #boundary()} and checkpoints. */
  private void markBoundary() {
    // a run started from it starts neither paused nor stopping
    SimulationState fresh = state().atBoundary();
    boundary = new Checkpoint(simulationId, step, input.withState(fresh));
  }

  /** Writes the boundary's checkpoint through the worker's store; a failure becomes a warning. */
  private void saveCheckpoint() {
    checkpointRequested = false;
    CheckpointActivities store =
        Workflow.newActivityStub(CheckpointActivities.class, CheckpointActivities.options(step));
    try {
      lastCheckpoint = store.save(boundary);
      lastCheckpointError = null;
    } catch (io.temporal.failure.ActivityFailure e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      lastCheckpointError = "the checkpoint after step " + step + " was not written: " + cause.getMessage();
      warnings.add(lastCheckpointError);
    }
    checkpointsAttempted++;
  }

  private void restore(SimulationState s) {
    step = s.step();
    world = restoreWorld(input, s.world());
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
    interventions.addAll(s.interventions());
    agentStepBytes = s.agentStepBytes();
    // a state written before costs were kept by role: the totals go on, the breakdown is not made up
    llmCosts = s.llmCosts();
  }

  /** Applies the interventions scheduled for {@code next} (or before it), at the boundary before it. */
  private void applyInterventions(int next) {
    for (int i = 0; i < interventions.size(); i++) {
      Intervention v = interventions.get(i);
      if (v.applied() || v.atStep() > next) {
        continue;
      }
      com.fasterxml.jackson.databind.node.ObjectNode current = currentParameters();
      com.fasterxml.jackson.databind.node.ObjectNode previous = Json.MAPPER.createObjectNode();
      com.fasterxml.jackson.databind.node.ObjectNode merged = current.deepCopy();
      v.parameters().fieldNames().forEachRemaining(name -> {
        previous.set(name, current.get(name));
        merged.set(name, v.parameters().get(name));
      });
      world = adjust(scenario, world, merged);
      input = input.withParameters(merged);
      interventions.set(i, v.appliedOver(previous));
      Workflow.getLogger(SimulationWorkflowImpl.class).info("intervention {} from step {}: {}", v.number(), next,
          interventions.get(i).describe());
    }
  }

  private static <P extends Record> ScenarioWorld adjust(Scenario<P> scenario, ScenarioWorld world, JsonNode values) {
    return scenario.adjust(world, ScenarioParameters.read(scenario, values));
  }

  /** The parameters in force: the input's over the scenario's defaults. */
  private com.fasterxml.jackson.databind.node.ObjectNode currentParameters() {
    return ScenarioParameters.toJson(ScenarioParameters.read(scenario, input.parameters()));
  }

  /**
   * Runs the agents' steps of step {@code current}, at most {@code maxConcurrentAgents} at once: a
   * child workflow per agent step, or per group of {@code agentsPerWorkflow} agents of one role.
   */
  private Map<String, AgentStepResult> runAgentSteps(
      String simulationId, int current, Map<String, AgentStepInput> inputs) {
    int perWorkflow = Math.min(input.agentsPerWorkflow(), input.maxConcurrentAgents());
    startedInputBytes.clear();
    Map<String, AgentStepResult> results = perWorkflow <= 1
        ? runEachAgentStep(simulationId, current, inputs)
        : runGroupSteps(simulationId, current, inputs, perWorkflow);
    countBytes(results);
    for (String id : inputs.keySet()) {
      AgentStepResult r = results.get(id);
      agentSteps++;
      llmCalls += r.llmCalls();
      toolCalls += r.toolCalls();
      usage = usage.plus(r.usage());
      planCounts = planCounts.plus(r);
      if (llmCosts != null) {
        AgentStepInput in = inputs.get(id);
        llmCosts = llmCosts.plus(in.role(), strategyName(in.options()), r);
      }
      for (String w : r.warnings()) {
        if (warnings.size() < SimulationResult.MAX_WARNINGS) {
          warnings.add(w);
        }
      }
    }
    failedAgentSteps += AgentStepFailures.settle(results, inputs.keySet(),
        input.agentOptions().agentFailureMode(), input.agentOptions().strategy(), current);
    return results;
  }

  /**
   * Adds the bytes of this step's agent steps to {@link #agentStepBytes}: their inputs as measured when
   * they started (runs recorded before inputs were measured count nothing), their results as JSON.
   */
  private void countBytes(Map<String, AgentStepResult> results) {
    if (agentStepBytes == null || startedInputBytes.isEmpty()) {
      return;
    }
    long in = 0;
    long out = 0;
    for (Map.Entry<String, Long> e : startedInputBytes.entrySet()) {
      in += e.getValue();
      AgentStepResult r = results.get(e.getKey());
      out += r == null ? 0 : TaskBudget.sizeOf(r);
    }
    agentStepBytes = agentStepBytes.plus(new AgentStepBytes(startedInputBytes.size(), in, out));
  }

  /**
   * Counts the bytes a group step's input carries (what its agents share written once), spread over its
   * agents, in place of their inputs' own sizes.
   */
  private void countGroupInput(List<AgentStepInput> group, long bytes) {
    for (int i = 0; i < group.size(); i++) {
      startedInputBytes.put(group.get(i).agentId(), bytes / group.size() + (i < bytes % group.size() ? 1 : 0));
    }
  }

  /** A child workflow per agent step: {@code <simulation>/agent-<id>/step-<n>}. */
  private Map<String, AgentStepResult> runEachAgentStep(
      String simulationId, int current, Map<String, AgentStepInput> inputs) {
    runningChildren.clear();
    Map<String, Promise<AgentStepResult>> running = new LinkedHashMap<>();
    List<Promise<AgentStepResult>> window = new ArrayList<>();
    boolean budgeted = budgeted();
    int windowCap = windowCap(budgeted);
    TaskBudget budget = new TaskBudget();
    for (Map.Entry<String, AgentStepInput> e : inputs.entrySet()) {
      if (window.size() >= windowCap) {
        awaitAny(window, budget, budgeted);
        window.removeIf(Promise::isCompleted);
      }
      String agentId = e.getKey();
      long size = 0;
      RawValue payload = null;
      if (budgeted) {
        // written once: measured here, sent as it is
        payload = JsonPayload.of(e.getValue());
        size = checkedSize(JsonPayload.size(payload), "agent " + agentId + "'s step input");
        startedInputBytes.put(agentId, size);
        budget.beforeStart(size, window);
      }
      ChildWorkflowOptions options = childOptions(
          simulationId + "/agent-" + agentId + "/step-" + current,
          agentId + " (" + e.getValue().role() + "), step " + current,
          e.getValue().options(), current);
      Promise<AgentStepResult> p;
      if (payload != null) {
        ChildWorkflowStub child = Workflow.newUntypedChildWorkflowStub(AgentStepWorkflow.TYPE, options);
        p = child.executeAsync(AgentStepResult.class, payload);
        budget.started(size, child.getExecution());
      } else {
        AgentStepWorkflow child = Workflow.newChildWorkflowStub(AgentStepWorkflow.class, options);
        p = Async.function(child::step, e.getValue());
        budget.started(size, null);
      }
      runningChildren.put(options.getWorkflowId(), p);
      running.put(agentId, p);
      window.add(p);
    }
    Map<String, AgentStepResult> results = new HashMap<>();
    for (Map.Entry<String, Promise<AgentStepResult>> e : running.entrySet()) {
      try {
        results.put(e.getKey(), e.getValue().get());
      } catch (ChildWorkflowFailure failed) {
        if (failed.getCause() instanceof CanceledFailure || !AgentStepFailures.recoverable()) {
          throw failed;
        }
        results.put(e.getKey(), AgentStepFailures.failed(inputs.get(e.getKey()), failed));
      }
    }
    return results;
  }

  /**
   * A child workflow per group of at most {@code perWorkflow} agents of one role: {@code
   * <simulation>/step-<n>/group-<g>}, at most {@code maxConcurrentAgents} agents running at once.
   */
  private Map<String, AgentStepResult> runGroupSteps(
      String simulationId, int current, Map<String, AgentStepInput> inputs, int perWorkflow) {
    runningChildren.clear();
    Map<String, List<AgentStepInput>> byRole = new LinkedHashMap<>();
    for (AgentStepInput in : inputs.values()) {
      byRole.computeIfAbsent(in.role(), r -> new ArrayList<>()).add(in);
    }
    boolean budgeted = budgeted();
    List<List<AgentStepInput>> groups = new ArrayList<>();
    List<Long> groupSizes = new ArrayList<>();
    // each group's input, written from its agents' parts (each agent written to JSON once), or null
    List<byte[]> groupJson = new ArrayList<>();
    for (List<AgentStepInput> ofRole : byRole.values()) {
      if (!budgeted) {
        for (int i = 0; i < ofRole.size(); i += perWorkflow) {
          groups.add(ofRole.subList(i, Math.min(ofRole.size(), i + perWorkflow)));
          groupSizes.add(0L);
          groupJson.add(null);
        }
        continue;
      }
      // groups of at most perWorkflow agents, and at most a payload's bytes of input
      AgentGroupInputParts parts = AgentGroupInputParts.of(ofRole);
      int from = 0;
      long bytes = 0;
      for (int i = 0; i < ofRole.size(); i++) {
        String what = "agent " + ofRole.get(i).agentId() + "'s step input";
        long size = parts != null ? checkedSize(parts.inputSize(i), what) : checkedSize(ofRole.get(i), what);
        startedInputBytes.put(ofRole.get(i).agentId(), size);
        if (i > from && (i - from >= perWorkflow || bytes + size > TaskBudget.MAX_PAYLOAD_BYTES)) {
          groups.add(ofRole.subList(from, i));
          groupSizes.add(bytes);
          groupJson.add(parts == null ? null : parts.group(from, i));
          from = i;
          bytes = 0;
        }
        bytes += size;
      }
      if (from < ofRole.size()) {
        groups.add(ofRole.subList(from, ofRole.size()));
        groupSizes.add(bytes);
        groupJson.add(parts == null ? null : parts.group(from, ofRole.size()));
      }
    }
    int windowCap = input.maxConcurrentAgents();
    TaskBudget budget = new TaskBudget();
    List<Promise<List<AgentStepResult>>> running = new ArrayList<>();
    List<Promise<List<AgentStepResult>>> window = new ArrayList<>();
    int inWindow = 0;
    for (int g = 0; g < groups.size(); g++) {
      List<AgentStepInput> group = groups.get(g);
      while (!window.isEmpty() && (inWindow + group.size() > windowCap
          || (budgeted && window.size() >= TaskBudget.MAX_PENDING))) {
        awaitAny(window, budget, budgeted);
        for (int i = 0; i < window.size(); i++) {
          if (window.get(i).isCompleted()) {
            inWindow -= window.get(i).get().size();
          }
        }
        window.removeIf(Promise::isCompleted);
      }
      RawValue payload = null;
      if (budgeted) {
        budget.beforeStart(groupSizes.get(g), window);
        payload = groupJson.get(g) != null ? JsonPayload.ofJson(groupJson.get(g))
            : JsonPayload.of(new AgentGroupStepInput(group));
        groupJson.set(g, null);
        countGroupInput(group, JsonPayload.size(payload));
      }
      AgentStepInput first = group.get(0);
      String agents = group.size() == 1 ? first.agentId()
          : first.agentId() + " .. " + group.get(group.size() - 1).agentId();
      ChildWorkflowOptions options = childOptions(
          simulationId + "/step-" + current + "/group-" + (g + 1),
          agents + " (" + group.size() + " " + first.role() + "s), step " + current,
          first.options(), current);
      Promise<List<AgentStepResult>> p;
      if (payload != null) {
        ChildWorkflowStub child = Workflow.newUntypedChildWorkflowStub(AgentGroupStepWorkflow.TYPE, options);
        p = child.executeAsync(listOfResults(), GROUP_RESULTS, payload);
        budget.started(groupSizes.get(g), child.getExecution());
      } else {
        AgentGroupStepWorkflow child = Workflow.newChildWorkflowStub(AgentGroupStepWorkflow.class, options);
        p = Async.function(child::steps, new AgentGroupStepInput(group));
        budget.started(groupSizes.get(g), null);
      }
      runningChildren.put(options.getWorkflowId(), p);
      running.add(p);
      window.add(p);
      inWindow += group.size();
    }
    Map<String, AgentStepResult> results = new HashMap<>();
    for (int g = 0; g < groups.size(); g++) {
      List<AgentStepResult> done = running.get(g).get();
      for (int i = 0; i < done.size(); i++) {
        results.put(groups.get(g).get(i).agentId(), done.get(i));
      }
    }
    return results;
  }

  /** The generic type of a group step's result, {@code List<AgentStepResult>}, for an untyped stub. */
  private static final java.lang.reflect.Type GROUP_RESULTS = groupResults();

  private static java.lang.reflect.Type groupResults() {
    try {
      return AgentGroupStepWorkflow.class.getMethod("steps", AgentGroupStepInput.class).getGenericReturnType();
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Class<List<AgentStepResult>> listOfResults() {
    return (Class) List.class;
  }

  /**
   * Whether this run starts its agent steps and memory calls within a {@link TaskBudget}. Runs
   * recorded before the budget existed replay without it (they started every window in one task).
   */
  private static boolean budgeted() {
    return Workflow.getVersion("task-budget", Workflow.DEFAULT_VERSION, 1) >= 1;
  }

  /** How many agent steps (or memory calls) may run at once. */
  private int windowCap(boolean budgeted) {
    return budgeted
        ? Math.min(input.maxConcurrentAgents(), TaskBudget.MAX_PENDING)
        : input.maxConcurrentAgents();
  }

  /**
   * Waits until one of {@code window} completes, failed or not (a failed agent step is collected
   * later). When none had completed before, the wait took a new workflow task, which starts a new
   * budget. Runs recorded before the budget wait as they did: a failed step ends the wait by throwing,
   * which ends an older run (see {@link AgentStepFailures}).
   */
  private static void awaitAny(
      List<? extends Promise<?>> window, TaskBudget budget, boolean budgeted) {
    if (!budgeted) {
      try {
        Promise.anyOf(window.toArray(new Promise<?>[0])).get();
      } catch (ChildWorkflowFailure failed) {
        // Collected (and recorded as failed) below; an older history ended here.
        if (failed.getCause() instanceof CanceledFailure || !AgentStepFailures.recoverable()) {
          throw failed;
        }
      }
      return;
    }
    boolean anyDone = TaskBudget.anyCompleted(window);
    Workflow.await(() -> TaskBudget.anyCompleted(window));
    if (!anyDone) {
      budget.newTask();
    }
  }

  /**
   * The bytes of {@code value}, an input that crosses into history; an input no Temporal server would
   * accept ends the run with a failure that names it.
   */
  private static long checkedSize(Object value, String what) {
    return checkedSize(TaskBudget.sizeOf(value), what);
  }

  /** {@code size}, the bytes of an input; over what a server accepts, the run ends naming it. */
  private static long checkedSize(long size, String what) {
    if (size > TaskBudget.MAX_PAYLOAD_BYTES) {
      throw ApplicationFailure.newNonRetryableFailure(
          what + " is " + size + " bytes, over the " + TaskBudget.MAX_PAYLOAD_BYTES
              + " bytes one input may carry (Temporal refuses payloads over 2 MB): make the"
              + " observation, memory or selected tools smaller",
          SimulationFailureTypes.INPUT_TOO_LARGE);
    }
    return size;
  }

  private ChildWorkflowOptions childOptions(
      String workflowId, String summary, AgentOptions agentOptions, int current) {
    ChildWorkflowOptions.Builder options =
        ChildWorkflowOptions.newBuilder().setWorkflowId(workflowId).setStaticSummary(summary);
    if (input.searchAttributes()) {
      options.setTypedSearchAttributes(io.temporal.common.SearchAttributes.newBuilder()
          .set(SearchAttributes.SCENARIO, input.scenario())
          .set(SearchAttributes.STRATEGY, strategyName(agentOptions))
          .set(SearchAttributes.SIM_STEP, (long) current)
          .build());
    }
    return options.build();
  }

  private static String strategyName(AgentOptions options) {
    return options.strategy().name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The observation with the outcomes of the agent's last actions and the messages sent to it. */
  private static Observation withLastResults(
      Observation o, List<String> lastResults, List<String> messages) {
    boolean results = lastResults != null && !lastResults.isEmpty();
    boolean received = messages != null && !messages.isEmpty();
    if (!results && !received) {
      return o;
    }
    Map<String, Object> self = new LinkedHashMap<>(o.selfState());
    if (results) {
      self.put(LAST_ACTION_RESULTS, lastResults);
    }
    if (received) {
      self.put(MESSAGES, messages);
    }
    return new Observation(o.step(), self, o.localState());
  }

  /** A selected tool that no agent of a role has fails the run now, not at its first step. */
  private void checkSelectedTools(ScenarioWorld world) {
    Map<String, Boolean> seen = new HashMap<>();
    for (String id : world.agentIds()) {
      String role = world.roleOf(id);
      if (seen.putIfAbsent(role, true) == null) {
        AgentOptions options = input.optionsFor(role);
        SelectedTools.resolve(world.toolsOf(role), options.selectedTools());
      }
    }
  }

  /**
   * Whether one more step, as large as this run's average step, would take the history past {@link
   * #HISTORY_EVENTS_BUDGET} events or {@link #HISTORY_BYTES_BUDGET} bytes. With hundreds of agents a
   * step adds thousands of events, so the step interval alone cannot keep histories small.
   */
  private static boolean nextStepPassesHistoryBudget(int stepsThisRun) {
    long events = Workflow.getInfo().getHistoryLength();
    long bytes = Workflow.getInfo().getHistorySize();
    return events + events / stepsThisRun > HISTORY_EVENTS_BUDGET
        || bytes + bytes / stepsThisRun > HISTORY_BYTES_BUDGET;
  }

  @Override
  public List<AgentPlanStatus> plans() {
    List<AgentPlanStatus> result = new ArrayList<>();
    if (world == null) {
      return result;
    }
    for (String id : world.agentIds()) {
      String role = world.roleOf(id);
      result.add(AgentPlanStatus.of(id, role, strategyName(input.optionsFor(role)), plans.get(id),
          step + 1));
    }
    return result;
  }

  @Override
  public List<StepCounts> stepsAfter(int step) {
    List<StepCounts> later = new ArrayList<>();
    for (StepCounts s : perStep) {
      if (s.step() > step) {
        later.add(s);
      }
    }
    return later;
  }

  @Override
  public JsonNode world() {
    return world == null ? null : Json.MAPPER.valueToTree(world.snapshot());
  }

  @Override
  public AgentState agent(String agentId) {
    if (world == null || !world.agentIds().contains(agentId)) {
      throw new IllegalArgumentException("no agent '" + agentId + "' in this simulation"
          + (world == null ? " (it has not started yet)" : "; agents: " + world.agentIds()));
    }
    String role = world.roleOf(agentId);
    List<String> last = lastResults.get(agentId);
    return new AgentState(agentId, role, world.canAct(agentId),
        withLastResults(world.observe(agentId, step + 1), last, pendingMessages.get(agentId)),
        AgentPlanStatus.of(agentId, role, strategyName(input.optionsFor(role)), plans.get(agentId),
            step + 1),
        memories.get(agentId), last == null ? List.of() : last);
  }

  @Override
  public Checkpoint boundary() {
    return boundary;
  }

  @Override
  public CheckpointSaved checkpoint() {
    int before = checkpointsAttempted;
    checkpointRequested = true;
    Workflow.await(() -> checkpointsAttempted > before);
    if (lastCheckpointError != null) {
      throw ApplicationFailure.newFailure(lastCheckpointError, SimulationFailureTypes.CHECKPOINT_FAILED);
    }
    return lastCheckpoint;
  }

  @Override
  public void checkpointValidator() {
    if (done) {
      throw new IllegalStateException("the simulation is over: its result holds every step; a fork can start "
          + "from any of them");
    }
  }

  @Override
  public Intervention intervene(InterventionRequest request) {
    // an update that came with the start runs before the run has read its input: wait for it
    Workflow.await(() -> world != null || done);
    Intervention v;
    try {
      v = checkedIntervention(request);
    } catch (IllegalArgumentException e) {
      throw ApplicationFailure.newNonRetryableFailure(e.getMessage(), SimulationFailureTypes.INVALID_INTERVENTION);
    }
    interventions.add(v);
    return v;
  }

  @Override
  public void interveneValidator(InterventionRequest request) {
    if (world == null && !done) {
      // not started yet: checked by the handler once the run has its input
      return;
    }
    checkedIntervention(request);
  }

  @Override
  public List<Intervention> interventions() {
    return List.copyOf(interventions);
  }

  /**
   * The intervention {@code request} asks for, checked against the scenario and the run's progress.
   *
   * @throws IllegalArgumentException naming the parameter, the value or the step that cannot be
   */
  private Intervention checkedIntervention(InterventionRequest request) {
    if (done) {
      throw new IllegalArgumentException("the simulation is over");
    }
    // a running step keeps the values it started with: the first step that can take new ones
    int first = step + (stepRunning ? 2 : 1);
    int at = request.atStep() == null ? first : request.atStep();
    if (at < first) {
      throw new IllegalArgumentException("step " + at + " is " + (at <= step ? "past: the run has completed step "
          + step : "running") + "; the first step that can change is " + first);
    }
    if (at > input.steps()) {
      throw new IllegalArgumentException("step " + at + " is after the run's last step, " + input.steps());
    }
    return new Intervention(interventions.size() + 1, at, checkedParameters(scenario, request.parameters()),
        null, false, request.note());
  }

  /**
   * The new values, read and checked as the scenario reads its parameters.
   *
   * @throws IllegalArgumentException for no values, an unknown or fixed parameter, or a value not allowed
   */
  public static JsonNode checkedParameters(Scenario<?> scenario, Map<String, String> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no parameter to change");
    }
    List<io.durableagents.workflows.scenario.ParameterSpec> specs = ScenarioParameters.specs(scenario);
    List<String> adjustable = new ArrayList<>();
    specs.stream().filter(io.durableagents.workflows.scenario.ParameterSpec::adjustable)
        .forEach(p -> adjustable.add(p.name()));
    Map<String, String> canonical = new java.util.TreeMap<>();
    for (Map.Entry<String, String> e : values.entrySet()) {
      String name = specs.stream().filter(p -> p.name().equals(e.getKey()) || p.aliases().contains(e.getKey()))
          .map(io.durableagents.workflows.scenario.ParameterSpec::name).findFirst().orElse(e.getKey());
      canonical.put(name, e.getValue());
    }
    for (String name : canonical.keySet()) {
      boolean known = specs.stream().anyMatch(p -> p.name().equals(name));
      if (!known) {
        throw new IllegalArgumentException("scenario " + scenario.name() + " has no parameter '" + name
            + "'; those that can change during a run: " + (adjustable.isEmpty() ? "none" : String.join(", ", adjustable)));
      }
      if (!adjustable.contains(name)) {
        throw new IllegalArgumentException("parameter '" + name + "' of scenario " + scenario.name()
            + " is fixed when the world is made; those that can change during a run: "
            + (adjustable.isEmpty() ? "none" : String.join(", ", adjustable)));
      }
    }
    try {
      com.fasterxml.jackson.databind.node.ObjectNode given = ScenarioParameters.fromText(scenario, canonical);
      ScenarioParameters.read(scenario, given);
      return given;
    } catch (InvalidParameterException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
  }

  @Override
  public void pause() {
    paused = true;
  }

  @Override
  public void resume() {
    paused = false;
  }

  @Override
  public void stop() {
    stopRequested = true;
  }

  @Override
  public List<String> runningAgentSteps() {
    List<String> ids = new ArrayList<>();
    runningChildren.forEach((id, p) -> {
      if (!p.isCompleted()) {
        ids.add(id);
      }
    });
    return ids;
  }

  @Override
  public SimulationProgress progress() {
    return new SimulationProgress(
        input == null ? null : input.scenario(),
        step,
        input == null ? 0 : input.steps(),
        agentCount,
        agentSteps,
        llmCalls,
        toolCalls,
        usage,
        counts,
        done,
        planCounts,
        paused,
        stopRequested,
        previousRuns + 1);
  }
}
