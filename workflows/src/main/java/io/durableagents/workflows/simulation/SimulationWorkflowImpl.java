package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.InvalidParameterException;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import io.durableagents.workflows.CommittedLog;
import io.durableagents.workflows.SearchAttributes;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.SelectedTools;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.llm.LlmCallOptions;
import io.durableagents.workflows.memory.MemoryEntry;
import io.durableagents.workflows.memory.MemoryKeeper;
import io.durableagents.workflows.scenario.ScenarioParameters;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 *
 * <p>This class keeps the step loop and the query, signal and update handlers; its parts each do one
 * job: {@link AgentStepDispatcher} runs a step's agents as child workflows, {@link MemoryUpdates} adds
 * the step to their memories, {@link DurableState} is the state carried from run to run, {@link
 * Checkpoints} and {@link ContinueAsNew} write it out, and {@link Interventions} change parameters
 * during the run.
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
  public static final String LAST_ACTION_RESULTS = AgentStepInput.LAST_ACTION_RESULTS;

  /** The key under which an agent's observation carries the messages other agents sent it. */
  public static final String MESSAGES = "messages";

  private final ScenarioRegistry scenarios;
  private SimulationInput input;
  private Scenario<?> scenario;
  private int agentCount;
  private Map<String, Number> counts = Map.of();
  private final DurableState state = new DurableState();
  private final AgentStepDispatcher dispatcher = new AgentStepDispatcher();
  private final Checkpoints checkpoints = new Checkpoints();
  private final Interventions interventions = new Interventions();
  private boolean done;
  private String simulationId;
  /** Whether a step is running (between its start and its boundary). */
  private boolean stepRunning;

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
      state.random = new SeededRandom(input.seed());
      try {
        state.world = createWorld(input, state.random);
      } catch (InvalidParameterException e) {
        throw ApplicationFailure.newNonRetryableFailure(
            e.getMessage(), SimulationFailureTypes.INVALID_PARAMETER);
      }
      checkSelectedTools(state.world);
    } else {
      state.restore(input.state(), restoreWorld(input, input.state().world()));
      interventions.restore(input.state().interventions());
    }
    if (input.searchAttributes()) {
      SimulationSearchAttributes.set(input, state.world, input.state() == null);
    }
    agentCount = state.world.agentIds().size();
    counts = state.world.counts();
    MemoryKeeper memoryKeeper = new MemoryKeeper(input.memory(), request -> {
      LlmActivities llm = Workflow.newActivityStub(
          LlmActivities.class, LlmCallOptions.forModel(request.model()));
      return Async.function(llm::chat, request);
    });

    int stepsThisRun = 0;
    markBoundary();
    while (state.step < input.steps()) {
      Workflow.await(() -> !state.paused || state.stopRequested || checkpoints.requested());
      if (checkpoints.requested()) {
        checkpoints.save(state.step, state.warnings);
        if (state.paused && !state.stopRequested) {
          continue;
        }
      }
      if (state.stopRequested) {
        break;
      }
      applyInterventions(state.step + 1);
      stepRunning = true;
      runStep(simulationId, state.step + 1, memoryKeeper);
      stepRunning = false;
      stepsThisRun++;
      markBoundary();
      if (checkpoints.requested()
          || (input.checkpointEvery() > 0 && state.step % input.checkpointEvery() == 0)) {
        checkpoints.save(state.step, state.warnings);
      }
      if (state.stopRequested || state.step >= input.steps()) {
        break;
      }
      if (ContinueAsNew.due(input, stepsThisRun)) {
        ContinueAsNew.carry(input, state.snapshot(interventions.all()), state.step, stepsThisRun);
      }
    }
    if (checkpoints.requested()) {
      checkpoints.save(state.step, state.warnings);
    }
    done = true;
    return new SimulationResult(simulationId, input.scenario(), input.seed(), state.step,
        List.copyOf(state.perStep), counts, state.agentSteps, state.llmCalls, state.toolCalls, state.usage,
        state.planCounts, state.step < input.steps(), state.previousRuns + 1, List.copyOf(state.warnings),
        state.failedAgentSteps, interventions.all(), state.agentStepBytes, state.llmCosts);
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
    ScenarioWorld world = state.world;
    List<String> actors = new ArrayList<>();
    for (String id : world.agentIds()) {
      if (world.canAct(id)) {
        actors.add(id);
      }
    }
    Map<String, AgentStepInput> inputs = new LinkedHashMap<>();
    for (String id : actors) {
      String role = world.roleOf(id);
      Observation seen = withLastResults(world.observe(id, current), state.lastResults.remove(id),
          state.pendingMessages.remove(id));
      inputs.put(id, new AgentStepInput(simulationId, input.scenario(), id, role, seen,
          state.plans.get(id), world.toolsOf(role), world.worldActions(), input.optionsFor(role),
          state.memories.get(id)));
    }
    Map<String, AgentStepResult> results = runAgentSteps(simulationId, current, inputs);

    Map<String, List<MemoryEntry>> remembered = new LinkedHashMap<>();
    for (String id : state.random.shuffled(actors)) {
      AgentStepResult r = results.get(id);
      List<String> outcomes = new ArrayList<>();
      for (ToolOutcome o : r.toolOutcomes()) {
        outcomes.add(o.tool() + ": " + o.output());
      }
      for (WorldAction action : r.actions()) {
        outcomes.add(world.apply(action, state.random));
      }
      if (r.failedForGood()) {
        outcomes.add("your step failed; you took no action");
      }
      state.lastResults.put(id, outcomes);
      if (r.plan() != null) {
        state.plans.put(id, r.plan());
      }
      remembered.computeIfAbsent(id, k -> new ArrayList<>()).add(new MemoryEntry(current,
          outcomes.isEmpty() ? "you took no action" : "you did: " + String.join("; ", outcomes)));
    }
    for (Map.Entry<String, List<String>> m : world.drainMessages().entrySet()) {
      for (String text : m.getValue()) {
        remembered.computeIfAbsent(m.getKey(), k -> new ArrayList<>())
            .add(new MemoryEntry(current, text));
        state.pendingMessages.computeIfAbsent(m.getKey(), k -> new ArrayList<>()).add(text);
      }
    }
    MemoryUpdates.remember(memoryKeeper, input, state, remembered, current);
    world.endStep(current, state.random);
    counts = world.counts();
    state.perStep.add(new StepCounts(current, counts, state.llmCalls, state.usage.total(),
        state.failedAgentSteps == 0 ? null : state.failedAgentSteps));
    if (input.searchAttributes()) {
      Workflow.upsertTypedSearchAttributes(SearchAttributes.SIM_STEP.valueSet((long) current));
    }
    // written once the task is committed: a task run again after a worker was killed does not repeat it
    CommittedLog.info(SimulationWorkflowImpl.class,
        "step {}/{} done: {}, {} LLM calls so far", current, input.steps(), counts, state.llmCalls);
    state.step = current;
  }

  /**
   * Runs the agents' steps of step {@code current} ({@link AgentStepDispatcher}) and counts them: their
   * bytes, calls, tokens and warnings, and the steps that failed for good.
   */
  private Map<String, AgentStepResult> runAgentSteps(
      String simulationId, int current, Map<String, AgentStepInput> inputs) {
    Map<String, AgentStepResult> results = dispatcher.run(input, simulationId, current, inputs);
    if (state.agentStepBytes != null) {
      state.agentStepBytes = state.agentStepBytes.plus(dispatcher.bytesOf(results));
    }
    state.count(inputs, results);
    state.failedAgentSteps += FailedAgentSteps.settle(results, inputs.keySet(),
        input.agentOptions().agentFailureMode(), input.agentOptions().strategy(), current);
    return results;
  }

  /** Keeps the state of this step boundary, for {@link #boundary()} and checkpoints. */
  private void markBoundary() {
    checkpoints.mark(simulationId, state.step, input, state.snapshot(interventions.all()));
  }

  /** Applies the interventions scheduled for {@code next} (or before it), at the boundary before it. */
  private void applyInterventions(int next) {
    Interventions.Applied applied = interventions.applyDue(next, scenario, state.world, input);
    state.world = applied.world();
    input = applied.input();
  }

  /** The name of a strategy as search attributes and costs show it: {@code cot}, {@code react}. */
  static String strategyName(AgentOptions options) {
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

  @Override
  public List<AgentPlanStatus> plans() {
    List<AgentPlanStatus> result = new ArrayList<>();
    if (state.world == null) {
      return result;
    }
    for (String id : state.world.agentIds()) {
      String role = state.world.roleOf(id);
      result.add(AgentPlanStatus.of(id, role, strategyName(input.optionsFor(role)), state.plans.get(id),
          state.step + 1));
    }
    return result;
  }

  @Override
  public List<StepCounts> stepsAfter(int step) {
    List<StepCounts> later = new ArrayList<>();
    for (StepCounts s : state.perStep) {
      if (s.step() > step) {
        later.add(s);
      }
    }
    return later;
  }

  @Override
  public JsonNode world() {
    return state.world == null ? null : Json.MAPPER.valueToTree(state.world.snapshot());
  }

  @Override
  public AgentState agent(String agentId) {
    ScenarioWorld world = state.world;
    if (world == null || !world.agentIds().contains(agentId)) {
      throw new IllegalArgumentException("no agent '" + agentId + "' in this simulation"
          + (world == null ? " (it has not started yet)" : "; agents: " + world.agentIds()));
    }
    String role = world.roleOf(agentId);
    List<String> last = state.lastResults.get(agentId);
    return new AgentState(agentId, role, world.canAct(agentId),
        withLastResults(world.observe(agentId, state.step + 1), last, state.pendingMessages.get(agentId)),
        AgentPlanStatus.of(agentId, role, strategyName(input.optionsFor(role)), state.plans.get(agentId),
            state.step + 1),
        state.memories.get(agentId), last == null ? List.of() : last);
  }

  @Override
  public Checkpoint boundary() {
    return checkpoints.boundary();
  }

  @Override
  public CheckpointSaved checkpoint() {
    return checkpoints.awaitNext();
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
    Workflow.await(() -> state.world != null || done);
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
    if (state.world == null && !done) {
      // not started yet: checked by the handler once the run has its input
      return;
    }
    checkedIntervention(request);
  }

  @Override
  public List<Intervention> interventions() {
    return interventions.all();
  }

  /**
   * The intervention {@code request} asks for, checked against the scenario and the run's progress.
   *
   * @throws IllegalArgumentException naming the parameter, the value or the step that cannot be
   */
  private Intervention checkedIntervention(InterventionRequest request) {
    return interventions.check(request, scenario, input, state.step, stepRunning, done);
  }

  /**
   * The new values, read and checked as the scenario reads its parameters.
   *
   * @throws IllegalArgumentException for no values, an unknown or fixed parameter, or a value not allowed
   */
  public static JsonNode checkedParameters(Scenario<?> scenario, Map<String, String> values) {
    return Interventions.checkedParameters(scenario, values);
  }

  @Override
  public void pause() {
    state.paused = true;
  }

  @Override
  public void resume() {
    state.paused = false;
  }

  @Override
  public void stop() {
    state.stopRequested = true;
  }

  @Override
  public List<String> runningAgentSteps() {
    return dispatcher.running();
  }

  @Override
  public SimulationProgress progress() {
    return new SimulationProgress(
        input == null ? null : input.scenario(),
        state.step,
        input == null ? 0 : input.steps(),
        agentCount,
        state.agentSteps,
        state.llmCalls,
        state.toolCalls,
        state.usage,
        counts,
        done,
        state.planCounts,
        state.paused,
        state.stopRequested,
        state.previousRuns + 1);
  }
}
