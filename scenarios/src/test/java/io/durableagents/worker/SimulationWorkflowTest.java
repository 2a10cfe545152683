package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.AgentPlanStatus;
import io.durableagents.workflows.simulation.SimulationFailureTypes;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationProgress;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.StepCounts;
import io.durableagents.workflows.tools.ToolFailureTypes;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Epstein's civil violence end to end on the test environment, with the offline rules model. */
class SimulationWorkflowTest {
  private TestWorkflowEnvironment env;

  @BeforeEach
  void setUp() {
    env = TestWorkers.start(Builtins.plugin().build());
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private SimulationResult run(String id, SimulationInput input) {
    SimulationWorkflow sim = env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
    return sim.run(input);
  }

  static SimulationInput input(long seed, int steps) {
    return new SimulationInput("epstein", steps, seed, EpsteinParameters.DEFAULTS, null, null, null);
  }

  @Test
  void theReferenceExampleRunsAndTheSameSeedGivesTheSameRun() {
    SimulationResult a = run("sim-a", input(7, 6));
    SimulationResult b = run("sim-b", input(7, 6));
    SimulationResult c = run("sim-c", input(8, 6));

    assertEquals(6, a.steps());
    assertEquals(6, a.perStep().size());
    for (StepCounts s : a.perStep()) {
      assertEquals(20, s.counts().values().stream().mapToInt(Number::intValue).sum(), s.toString());
    }
    assertEquals(a.perStep(), b.perStep(), "same seed, same run");
    assertNotEquals(a.perStep(), c.perStep(), "another seed, another run");
    assertTrue(a.perStep().stream().anyMatch(s -> s.counts().get("active").intValue() > 0
        || s.counts().get("jailed").intValue() > 0), "someone rebels at legitimacy 0.5: " + a.perStep());
    // CoT: a reasoning and an execution call per agent step; jailed citizens do not act
    assertEquals(2 * a.agentSteps(), a.llmCalls());
    assertTrue(a.agentSteps() <= 25 * 6 && a.agentSteps() > 20 * 6, "agent steps " + a.agentSteps());
    assertTrue(a.usage().input() > 0 && a.usage().output() > 0);
  }

  @Test
  void agentStepsAreChildWorkflowsWithReadableIdsAndLlmCallsAreSummarised() {
    run("sim-ids", new SimulationInput("epstein", 1, 3, EpsteinParameters.DEFAULTS.withAgents(2, 1),
        null, null, null));
    List<HistoryEvent> parent = env.getWorkflowClient().fetchHistory("sim-ids").getEvents();
    List<String> children = parent.stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED)
        .map(e -> e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId()).toList();
    assertEquals(List.of("sim-ids/agent-citizen-0/step-1", "sim-ids/agent-citizen-1/step-1",
        "sim-ids/agent-cop-0/step-1"), children);

    List<HistoryEvent> step = env.getWorkflowClient().fetchHistory(children.get(0)).getEvents();
    List<HistoryEvent> scheduled = step.stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED).toList();
    assertEquals(2, scheduled.size());
    for (HistoryEvent e : scheduled) {
      assertEquals(TaskQueues.AGENTS, e.getActivityTaskScheduledEventAttributes().getTaskQueue().getName());
      String summary = env.getWorkflowClient().getOptions().getDataConverter().fromPayload(
          e.getUserMetadata().getSummary(), String.class, String.class);
      assertEquals("llm: rules", summary);
    }
  }

  @Test
  void searchAttributesAreSetWhenAsked() {
    env.registerSearchAttribute("Scenario", io.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD);
    env.registerSearchAttribute("Strategy", io.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD);
    env.registerSearchAttribute("SimStep", io.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_INT);
    run("sim-sa", input(4, 2).withSearchAttributes(true));
    var parent = env.getWorkflowClient().newUntypedWorkflowStub("sim-sa").describe().getTypedSearchAttributes();
    assertEquals("epstein", parent.get(io.durableagents.workflows.SearchAttributes.SCENARIO));
    assertEquals("cot", parent.get(io.durableagents.workflows.SearchAttributes.STRATEGY));
    assertEquals(2L, parent.get(io.durableagents.workflows.SearchAttributes.SIM_STEP));
    var child = env.getWorkflowClient().newUntypedWorkflowStub("sim-sa/agent-cop-0/step-2").describe()
        .getTypedSearchAttributes();
    assertEquals(2L, child.get(io.durableagents.workflows.SearchAttributes.SIM_STEP));
    assertEquals("epstein", child.get(io.durableagents.workflows.SearchAttributes.SCENARIO));
  }

  @Test
  void progressIsQueryable() {
    run("sim-progress", input(5, 3));
    SimulationProgress p = env.getWorkflowClient()
        .newWorkflowStub(SimulationWorkflow.class, "sim-progress").progress();
    assertEquals(3, p.step());
    assertEquals(3, p.totalSteps());
    assertEquals(25, p.agents());
    assertTrue(p.done());
    assertTrue(p.llmCalls() > 0);
  }

  @Test
  void badInputFailsAtOnceWithATypedError() {
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class,
        () -> run("sim-bad", new SimulationInput("epstein", 0, 1, null, null, null, null)));
    ApplicationFailure f = assertInstanceOf(ApplicationFailure.class, e.getCause());
    assertEquals(SimulationFailureTypes.INVALID_INPUT, f.getType());
    assertTrue(f.getOriginalMessage().contains("steps"));
  }

  @Test
  void aSelectedToolThatARoleLacksFailsTheRunBeforeAnyAgentStep() {
    SimulationInput in = new SimulationInput("epstein", 2, 1, EpsteinParameters.DEFAULTS,
        AgentOptions.newBuilder().setSelectedTools(List.of("arrest_citizen")).build(), null, null);
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, () -> run("sim-sel", in));
    ApplicationFailure f = assertInstanceOf(ApplicationFailure.class, e.getCause());
    assertEquals(ToolFailureTypes.UNKNOWN_SELECTED_TOOL, f.getType());
    long children = env.getWorkflowClient().fetchHistory("sim-sel").getEvents().stream()
        .filter(ev -> ev.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED).count();
    assertEquals(0, children);
    assertTrue(!(e.getCause() instanceof ChildWorkflowFailure));
  }

  @Test
  void theTtlPlansOfEveryAgentAreQueryableAndCutLlmCalls() {
    SimulationInput rewoo = new SimulationInput("epstein", 2, 4, EpsteinParameters.DEFAULTS.withAgents(6, 2),
        AgentOptions.newBuilder().setStrategy(Strategy.REWOO).setTtl(3).build(), null, null);
    SimulationResult r = run("sim-ttl", rewoo);
    List<AgentPlanStatus> plans =
        env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class, "sim-ttl").plans();
    assertEquals(8, plans.size());
    assertEquals("citizen-0", plans.get(0).agentId());
    assertTrue(plans.stream().allMatch(p -> p.strategy().equals("rewoo")));
    // plans made at step 1 or 2 with TTL 3 are still valid at step 3, with planned steps left
    AgentPlanStatus holder = plans.stream().filter(p -> p.remainingPlannedSteps() > 0).findFirst()
        .orElseThrow(() -> new AssertionError("nobody holds a plan: " + plans));
    assertTrue(holder.validForSteps() >= 1 && holder.validForSteps() <= 2, holder.toString());
    assertEquals(holder.plan().steps().get(holder.plan().nextStep()).tool(), holder.nextTool());
    // step 1 plans (1 LLM call per agent), step 2 is served from those plans unless one was invalidated
    assertEquals(8 + r.planCounts().replans(), r.llmCalls());
    assertEquals(16 - 8 - r.planCounts().replans(), r.planCounts().planStepsReused());
  }

  @Test
  void strategiesAreChosenPerRole() {
    SimulationInput mixed = new SimulationInput("epstein", 1, 4, EpsteinParameters.DEFAULTS.withAgents(3, 1),
        AgentOptions.defaults(),
        java.util.Map.of("cop", AgentOptions.newBuilder().setStrategy(Strategy.REACT).build()), null);
    SimulationResult r = run("sim-mixed", mixed);
    // citizens: CoT, 2 calls each; the cop: ReAct, one turn that picks its world actions
    assertEquals(3 * 2 + 1, r.llmCalls());
    List<HistoryEvent> cop = env.getWorkflowClient().fetchHistory("sim-mixed/agent-cop-0/step-1").getEvents();
    assertEquals(1, cop.stream().filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED).count());
  }
}
