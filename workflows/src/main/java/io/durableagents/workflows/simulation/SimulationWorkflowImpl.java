package io.durableagents.workflows.simulation;

import io.durableagents.workflows.SearchAttributes;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.AgentStepWorkflow;
import io.durableagents.workflows.agent.Observation;
import io.durableagents.workflows.agent.Plan;
import io.durableagents.workflows.agent.SelectedTools;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.agent.WorldAction;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.scenario.Scenarios;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.ChildWorkflowOptions;
import io.temporal.workflow.Promise;
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
 */
public class SimulationWorkflowImpl implements SimulationWorkflow {
  /** The key under which an agent's observation carries the outcomes of its last actions. */
  public static final String LAST_ACTION_RESULTS = "last_action_results";

  private SimulationInput input;
  private int step;
  private int agentCount;
  private long agentSteps;
  private long llmCalls;
  private long toolCalls;
  private TokenUsage usage = TokenUsage.ZERO;
  private PlanCounts planCounts = PlanCounts.ZERO;
  private ScenarioWorld world;
  private final Map<String, Plan> plans = new HashMap<>();
  private Map<String, Integer> counts = Map.of();
  private final List<StepCounts> perStep = new ArrayList<>();
  private boolean done;

  @Override
  public SimulationResult run(SimulationInput input) {
    this.input = input;
    try {
      input.validate();
    } catch (IllegalArgumentException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          e.getMessage(), SimulationFailureTypes.INVALID_INPUT);
    }
    SeededRandom random = new SeededRandom(input.seed());
    world = Scenarios.createWorld(input, random);
    agentCount = world.agentIds().size();
    checkSelectedTools(world);
    counts = world.counts();

    String simulationId = Workflow.getInfo().getWorkflowId();
    if (input.searchAttributes()) {
      Workflow.upsertTypedSearchAttributes(
          SearchAttributes.SCENARIO.valueSet(input.scenario()),
          SearchAttributes.STRATEGY.valueSet(strategyName(input.agentOptions())));
    }
    Map<String, List<String>> lastResults = new HashMap<>();

    for (step = 0; step < input.steps(); ) {
      int current = step + 1;
      List<String> actors = new ArrayList<>();
      for (String id : world.agentIds()) {
        if (world.canAct(id)) {
          actors.add(id);
        }
      }
      Map<String, AgentStepInput> inputs = new LinkedHashMap<>();
      for (String id : actors) {
        String role = world.roleOf(id);
        Observation seen = withLastResults(world.observe(id, current), lastResults.remove(id));
        inputs.put(id, new AgentStepInput(simulationId, input.scenario(), id, role, seen,
            plans.get(id), world.toolsOf(role), world.worldActions(), input.optionsFor(role)));
      }
      Map<String, AgentStepResult> results = runAgentSteps(simulationId, current, inputs);

      for (String id : random.shuffled(actors)) {
        AgentStepResult r = results.get(id);
        List<String> outcomes = new ArrayList<>();
        for (ToolOutcome o : r.toolOutcomes()) {
          outcomes.add(o.tool() + ": " + o.output());
        }
        for (WorldAction action : r.actions()) {
          outcomes.add(world.apply(action, random));
        }
        lastResults.put(id, outcomes);
        if (r.plan() != null) {
          plans.put(id, r.plan());
        }
      }
      world.endStep(current, random);
      counts = world.counts();
      perStep.add(new StepCounts(current, counts, llmCalls, usage.total()));
      if (input.searchAttributes()) {
        Workflow.upsertTypedSearchAttributes(SearchAttributes.SIM_STEP.valueSet((long) current));
      }
      Workflow.getLogger(SimulationWorkflowImpl.class)
          .info("step {}/{} done: {}, {} LLM calls so far", current, input.steps(), counts, llmCalls);
      step = current;
    }
    done = true;
    return new SimulationResult(simulationId, input.scenario(), input.seed(), step, perStep,
        counts, agentSteps, llmCalls, toolCalls, usage, planCounts);
  }

  private Map<String, AgentStepResult> runAgentSteps(
      String simulationId, int current, Map<String, AgentStepInput> inputs) {
    Map<String, Promise<AgentStepResult>> running = new LinkedHashMap<>();
    Map<String, AgentStepResult> results = new HashMap<>();
    List<Promise<AgentStepResult>> window = new ArrayList<>();
    for (Map.Entry<String, AgentStepInput> e : inputs.entrySet()) {
      if (window.size() >= input.maxConcurrentAgents()) {
        Promise.anyOf(window).get();
        window.removeIf(Promise::isCompleted);
      }
      String agentId = e.getKey();
      ChildWorkflowOptions.Builder options =
          ChildWorkflowOptions.newBuilder()
              .setWorkflowId(simulationId + "/agent-" + agentId + "/step-" + current)
              .setStaticSummary(agentId + " (" + e.getValue().role() + "), step " + current);
      if (input.searchAttributes()) {
        options.setTypedSearchAttributes(io.temporal.common.SearchAttributes.newBuilder()
            .set(SearchAttributes.SCENARIO, input.scenario())
            .set(SearchAttributes.STRATEGY, strategyName(e.getValue().options()))
            .set(SearchAttributes.SIM_STEP, (long) current)
            .build());
      }
      AgentStepWorkflow child = Workflow.newChildWorkflowStub(AgentStepWorkflow.class, options.build());
      Promise<AgentStepResult> p = Async.function(child::step, e.getValue());
      running.put(agentId, p);
      window.add(p);
    }
    for (Map.Entry<String, Promise<AgentStepResult>> e : running.entrySet()) {
      AgentStepResult r = e.getValue().get();
      results.put(e.getKey(), r);
      agentSteps++;
      llmCalls += r.llmCalls();
      toolCalls += r.toolCalls();
      usage = usage.plus(r.usage());
      planCounts = planCounts.plus(r);
    }
    return results;
  }

  private static String strategyName(AgentOptions options) {
    return options.strategy().name().toLowerCase(java.util.Locale.ROOT);
  }

  private static Observation withLastResults(Observation o, List<String> lastResults) {
    if (lastResults == null || lastResults.isEmpty()) {
      return o;
    }
    Map<String, Object> self = new LinkedHashMap<>(o.selfState());
    self.put(LAST_ACTION_RESULTS, lastResults);
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
        planCounts);
  }
}
