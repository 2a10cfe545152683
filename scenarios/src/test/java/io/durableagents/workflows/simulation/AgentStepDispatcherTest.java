package io.durableagents.workflows.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.api.Observation;
import io.durableagents.workflows.agent.AgentGroupStepInput;
import io.durableagents.workflows.agent.AgentGroupStepWorkflow;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.AgentStepWorkflow;
import io.durableagents.workflows.llm.TokenUsage;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dispatch of a step's agents, on its own: the child workflows it starts (one per agent step, or
 * per group), how many run at once, where groups are cut, the failed step collected, the bytes counted.
 * The children are stand-ins that take a second each and answer with one LLM call.
 */
class AgentStepDispatcherTest {
  private static final String QUEUE = "dispatch";
  /** The agent whose stand-in step fails for good. */
  private static final String BROKEN = "citizen-broken";

  /** What one dispatch returned: the results by agent and the bytes counted. */
  public record Dispatched(Map<String, AgentStepResult> results, AgentStepBytes bytes) {}

  @WorkflowInterface
  public interface DispatchProbe {
    @WorkflowMethod
    Dispatched dispatch(SimulationInput input, List<AgentStepInput> agents);
  }

  /** Dispatches the agents of step 1 of simulation {@code <its workflow id>}. */
  public static class DispatchProbeImpl implements DispatchProbe {
    @Override
    public Dispatched dispatch(SimulationInput input, List<AgentStepInput> agents) {
      Map<String, AgentStepInput> inputs = new LinkedHashMap<>();
      agents.forEach(a -> inputs.put(a.agentId(), a));
      AgentStepDispatcher dispatcher = new AgentStepDispatcher();
      Map<String, AgentStepResult> results =
          dispatcher.run(input, Workflow.getInfo().getWorkflowId(), 1, inputs);
      if (!dispatcher.running().isEmpty()) {
        throw new IllegalStateException("still running: " + dispatcher.running());
      }
      return new Dispatched(results, dispatcher.bytesOf(results));
    }
  }

  static AgentStepResult answered(AgentStepInput in) {
    return new AgentStepResult(in.agentId(), 1, "done", List.of(), List.of(), null, new TokenUsage(10, 1), 1, 0,
        null, false, false, 0, List.of());
  }

  public static class OneAgentStep implements AgentStepWorkflow {
    @Override
    public AgentStepResult step(AgentStepInput input) {
      Workflow.sleep(Duration.ofSeconds(1));
      if (input.agentId().equals(BROKEN)) {
        throw ApplicationFailure.newNonRetryableFailure("no such model", "LlmModelNotFound");
      }
      return answered(input);
    }
  }

  public static class GroupStep implements AgentGroupStepWorkflow {
    @Override
    public List<AgentStepResult> steps(AgentGroupStepInput input) {
      Workflow.sleep(Duration.ofSeconds(1));
      return input.agents().stream().map(AgentStepDispatcherTest::answered).toList();
    }
  }

  private TestWorkflowEnvironment env;

  @BeforeEach
  void setUp() {
    env = TestWorkflowEnvironment.newInstance();
    Worker worker = env.newWorker(QUEUE);
    worker.registerWorkflowImplementationTypes(DispatchProbeImpl.class, OneAgentStep.class, GroupStep.class);
    env.start();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private static AgentStepInput agent(String id, String role, String observed) {
    return new AgentStepInput("sim", "epstein", id, role, new Observation(1, Map.of("seen", observed), Map.of()),
        null, List.of("move_one_step"), List.of("move_one_step"), null);
  }

  private Dispatched dispatch(String id, SimulationInput input, List<AgentStepInput> agents) {
    return env.getWorkflowClient().newWorkflowStub(DispatchProbe.class,
            WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId(id).build())
        .dispatch(input, agents);
  }

  private List<HistoryEvent> history(String id) {
    return env.getWorkflowClient().fetchHistory(id).getEvents();
  }

  /** The workflow ids of the children started, in order. */
  private List<String> children(String id) {
    return history(id).stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED)
        .map(e -> e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId()).toList();
  }

  /** The most children running at once, as the history tells. */
  private int mostAtOnce(String id) {
    int running = 0;
    int most = 0;
    for (HistoryEvent e : history(id)) {
      switch (e.getEventType()) {
        case EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED -> most = Math.max(most, ++running);
        case EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED, EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED -> running--;
        default -> { }
      }
    }
    return most;
  }

  @Test
  void aChildWorkflowPerAgentStepAtMostMaxConcurrentAgentsAtOnceAndAFailedStepCollected() {
    List<AgentStepInput> agents = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      agents.add(agent("citizen-" + i, "citizen", "a"));
    }
    agents.add(agent(BROKEN, "citizen", "a"));
    SimulationInput input = SimulationInput.of("epstein", 1, 1).withMaxConcurrentAgents(2);

    Dispatched d = dispatch("each", input, agents);

    assertEquals(List.of("each/agent-citizen-0/step-1", "each/agent-citizen-1/step-1",
        "each/agent-citizen-2/step-1", "each/agent-citizen-3/step-1", "each/agent-citizen-broken/step-1"),
        children("each"));
    assertEquals(2, mostAtOnce("each"));
    assertEquals(5, d.results().size());
    assertNull(d.results().get("citizen-0").failure());
    assertTrue(d.results().get(BROKEN).failedForGood());
    assertTrue(d.results().get(BROKEN).failure().contains("LlmModelNotFound"), d.results().get(BROKEN).failure());
    assertEquals(5, d.bytes().agentSteps());
    long results = d.results().values().stream().mapToLong(TaskBudget::sizeOf).sum();
    assertEquals(results, d.bytes().resultBytes());
    long inputs = agents.stream().mapToLong(TaskBudget::sizeOf).sum();
    assertEquals(inputs, d.bytes().inputBytes(), "each input measured as it was sent");
  }

  @Test
  void groupsOfOneRoleOfAtMostAgentsPerWorkflowWithinTheWindow() {
    List<AgentStepInput> agents = List.of(agent("citizen-0", "citizen", "a"), agent("cop-0", "cop", "a"),
        agent("citizen-1", "citizen", "a"), agent("citizen-2", "citizen", "a"), agent("cop-1", "cop", "a"));
    SimulationInput input = SimulationInput.of("epstein", 1, 1).withMaxConcurrentAgents(4)
        .withAgentsPerWorkflow(2);

    Dispatched d = dispatch("groups", input, agents);

    assertEquals(List.of("groups/step-1/group-1", "groups/step-1/group-2", "groups/step-1/group-3"),
        children("groups"));
    // citizens 0-1, citizen 2 (3 agents running), then the cops' group waits for room for 2 more
    assertEquals(2, mostAtOnce("groups"));
    assertEquals(List.of("citizen-0", "citizen-1", "citizen-2", "cop-0", "cop-1"),
        d.results().keySet().stream().sorted().toList());
    d.results().forEach((id, r) -> assertEquals(id, r.agentId()));
    assertEquals(5, d.bytes().agentSteps());
  }

  @Test
  void aGroupIsCutWhereItsInputWouldPassWhatOnePayloadMayCarry() {
    String large = "x".repeat((int) (TaskBudget.MAX_PAYLOAD_BYTES * 2 / 3));
    List<AgentStepInput> agents = List.of(agent("citizen-0", "citizen", large),
        agent("citizen-1", "citizen", large), agent("citizen-2", "citizen", "small"));
    SimulationInput input = SimulationInput.of("epstein", 1, 1).withAgentsPerWorkflow(3);

    dispatch("cut", input, agents);

    assertEquals(List.of("cut/step-1/group-1", "cut/step-1/group-2"), children("cut"),
        "two large inputs do not fit in one group's payload; the small one joins the second");
  }

  @Test
  void anInputNoServerWouldTakeEndsTheRunNamingTheAgent() {
    String huge = "x".repeat((int) TaskBudget.MAX_PAYLOAD_BYTES + 1);
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, () -> dispatch("huge",
        SimulationInput.of("epstein", 1, 1), List.of(agent("citizen-0", "citizen", huge))));
    ApplicationFailure cause = (ApplicationFailure) e.getCause();
    assertEquals(SimulationFailureTypes.INPUT_TOO_LARGE, cause.getType());
    assertTrue(cause.getOriginalMessage().startsWith("agent citizen-0's step input is "), cause.getOriginalMessage());
    assertTrue(children("huge").isEmpty());
  }
}
