package io.durableagents.workflows.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.api.Observation;
import io.durableagents.workflows.agent.AgentStepInput;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A simulation step never has more children pending than could bring a real server's limit of events
 * held for a running workflow task (100; past it the server fails the task, FORCE_CLOSE_COMMAND by
 * history-service): at every workflow task the history shows started, the children whose start it had
 * not seen (two events each: started, completed) and those started and still running (one) stay within
 * {@link EventsInFlight#MOST}, whatever {@code maxConcurrentAgents}, in both shapes; and every agent's
 * step still runs. Before the bound, a window of 200 agent steps had up to 400 events in flight.
 */
class EventsInFlightTest {
  private static final String QUEUE = "events-in-flight";

  @WorkflowInterface
  public interface StepProbe {
    @WorkflowMethod
    int step(SimulationInput input, List<AgentStepInput> agents);
  }

  /** Runs step 1 of simulation {@code <its workflow id>} as the simulation does. */
  public static class StepProbeImpl implements StepProbe {
    @Override
    public int step(SimulationInput input, List<AgentStepInput> agents) {
      Map<String, AgentStepInput> inputs = new LinkedHashMap<>();
      agents.forEach(a -> inputs.put(a.agentId(), a));
      return new AgentStepDispatcher().run(input, Workflow.getInfo().getWorkflowId(), 1, inputs).size();
    }
  }

  // the agent and group step workflows: AgentStepDispatcherTest's stand-ins (each answers after 1 s)

  private TestWorkflowEnvironment env;

  @BeforeEach
  void setUp() {
    env = TestWorkflowEnvironment.newInstance();
    Worker worker = env.newWorker(QUEUE);
    worker.registerWorkflowImplementationTypes(StepProbeImpl.class, AgentStepDispatcherTest.OneAgentStep.class,
        AgentStepDispatcherTest.GroupStep.class);
    env.start();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  /**
   * The most events that could have arrived for the workflow while one of its tasks ran, as its history
   * tells: at each {@code WorkflowTaskStarted}, two per child initiated and not yet started, one per
   * child started and not yet closed, two per activity scheduled and not yet closed.
   */
  static int mostEventsInFlight(List<HistoryEvent> history) {
    Map<Long, Integer> pending = new HashMap<>();
    int most = 0;
    for (HistoryEvent e : history) {
      switch (e.getEventType()) {
        case EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED, EVENT_TYPE_ACTIVITY_TASK_SCHEDULED ->
            pending.put(e.getEventId(), 2);
        case EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED ->
            pending.put(e.getChildWorkflowExecutionStartedEventAttributes().getInitiatedEventId(), 1);
        case EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED ->
            pending.remove(e.getChildWorkflowExecutionCompletedEventAttributes().getInitiatedEventId());
        case EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED ->
            pending.remove(e.getChildWorkflowExecutionFailedEventAttributes().getInitiatedEventId());
        case EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED ->
            pending.remove(e.getStartChildWorkflowExecutionFailedEventAttributes().getInitiatedEventId());
        case EVENT_TYPE_ACTIVITY_TASK_COMPLETED ->
            pending.remove(e.getActivityTaskCompletedEventAttributes().getScheduledEventId());
        case EVENT_TYPE_ACTIVITY_TASK_FAILED ->
            pending.remove(e.getActivityTaskFailedEventAttributes().getScheduledEventId());
        case EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT ->
            pending.remove(e.getActivityTaskTimedOutEventAttributes().getScheduledEventId());
        case EVENT_TYPE_WORKFLOW_TASK_STARTED ->
            most = Math.max(most, pending.values().stream().mapToInt(Integer::intValue).sum());
        default -> { }
      }
    }
    return most;
  }

  private static List<AgentStepInput> agents(int n) {
    List<AgentStepInput> agents = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      agents.add(new AgentStepInput("sim", "epstein", "citizen-" + i, "citizen",
          new Observation(1, Map.of("seen", "a"), Map.of()), null, List.of("move_one_step"),
          List.of("move_one_step"), null));
    }
    return agents;
  }

  @ParameterizedTest(name = "{0} agents per workflow")
  @ValueSource(ints = {1, 2})
  void everyWorkflowTaskHasAtMostWhatTheServerHoldsInFlight(int agentsPerWorkflow) {
    int agents = 200 * agentsPerWorkflow;
    SimulationInput input = SimulationInput.of("epstein", 1, 1).withMaxConcurrentAgents(agents)
        .withAgentsPerWorkflow(agentsPerWorkflow);
    String id = "in-flight-" + agentsPerWorkflow;

    int stepped = env.getWorkflowClient().newWorkflowStub(StepProbe.class,
            WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId(id).build())
        .step(input, agents(agents));

    assertEquals(agents, stepped);
    List<HistoryEvent> history = env.getWorkflowClient().fetchHistory(id).getEvents();
    assertEquals(200, history.stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED).count());
    int most = mostEventsInFlight(history);
    assertTrue(most <= EventsInFlight.MOST, most + " events could have arrived while a workflow task ran, over "
        + EventsInFlight.MOST + " (a real server fails a task past " + EventsInFlight.SERVER_LIMIT + ")");
    assertTrue(most > EventsInFlight.MOST - 10, "the window was cut further than it had to be: " + most);
  }
}
