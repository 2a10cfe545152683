package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No setting makes a workflow task too large for a Temporal server: with {@code maxConcurrentAgents}
 * equal to the agent count (what a user does to go faster, and what made the simulation's task a 5.4
 * MB message that the server refused for ever), the simulation starts its agent steps in waves, every
 * task stays within the budget, and the run equals the run with the default window.
 */
class LargeSimulationTest {
  private static final String MODEL = "rules";
  /** The task budget's bytes (TaskBudget.MAX_BYTES_PER_TASK) plus the commands' own framing. */
  private static final long TASK_BYTES_LIMIT = 1024L * 1024 + 64 * 1024;
  private static TestWorkflowEnvironment env;

  @BeforeAll
  static void start() {
    env = TestWorkers.start(Builtins.plugin()
        .registerModel(MODEL, Builtins.rulesModel()).build());
  }

  @AfterAll
  static void stop() {
    env.close();
  }

  private SimulationResult run(String id, SimulationInput in) {
    return env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
        .run(in);
  }

  /**
   * 1,200 agents, all at once: more starts than one task may send (500), more children than may be
   * pending at once (1,000), and inputs past the task's bytes in groups of 100 (each run's inputs come to
   * more than one task may carry). The run's cost grows faster than its agents: 2,000 agents passed no
   * limit that these do not. (Neither comes near 500 starts a task or 1,000 pending in practice: the
   * agent steps' starts go out about 45 a task; the byte budget is the limit that binds.)
   */
  @ParameterizedTest(name = "{0} agents")
  @ValueSource(ints = {1200})
  void everyAgentAtOnceStaysWithinTheTaskBudgetAndGivesTheDefaultRun(int agents) {
    assertTrue(agents > 1000, "more children than may be pending at once");
    int cops = agents / 5;
    EpsteinParameters world = new EpsteinParameters(60, 60, agents - cops, cops, 5, 0.5, 0.1, 2.3, 30);
    AgentOptions options = AgentOptions.newBuilder().setModel(MODEL).setStrategy(Strategy.COT).build();
    String id = "large-" + agents;
    // the default window (groups of 100 to keep the test short; the shapes give the same run)
    SimulationResult windowed = run(id + "-default",
        new SimulationInput("epstein", 1, 7, world, options, Map.of(), null).withAgentsPerWorkflow(100));
    SimulationInput all = new SimulationInput("epstein", 1, 7, world, options, Map.of(), agents);
    for (int perWorkflow : new int[] {100, 1}) {
      String runId = id + "-all-" + perWorkflow;
      SimulationResult atOnce = run(runId, all.withAgentsPerWorkflow(perWorkflow));
      assertEquals(windowed.perStep(), atOnce.perStep(), runId);
      assertEquals(windowed.finalCounts(), atOnce.finalCounts(), runId);
      assertEquals(windowed.llmCalls(), atOnce.llmCalls(), runId);
      assertEquals(agents, atOnce.agentSteps(), runId);
      Starts starts = assertWithinBudget(runId);
      System.out.println(runId + ": " + starts);
      assertTrue(starts.totalBytes() > TASK_BYTES_LIMIT,
          runId + ": the inputs fit one task, the byte budget was not needed: " + starts);
    }
  }

  @org.junit.jupiter.api.Test
  void aLargeStateContinuesAsNewDeflatedAndTheRunIsTheSame() {
    int agents = 500; // a state of about 340 KB of JSON
    EpsteinParameters world = new EpsteinParameters(32, 32, agents - 100, 100, 5, 0.5, 0.1, 2.3, 30);
    AgentOptions options = AgentOptions.newBuilder().setModel(MODEL).setStrategy(Strategy.COT).build();
    SimulationInput in = new SimulationInput("epstein", 2, 11, world, options, Map.of(), agents)
        .withAgentsPerWorkflow(100).withContinueAsNewWhenSuggested(false);
    SimulationResult once = run("large-state-one-run", in);
    SimulationResult continued = run("large-state-continued", in.withContinueAsNewEvery(1));
    assertEquals(once.perStep(), continued.perStep());
    assertEquals(once.finalCounts(), continued.finalCounts());
    assertEquals(once.llmCalls(), continued.llmCalls());
    assertEquals(2, continued.runs());
    // the first run's continue-as-new carried its state deflated (its JSON is over 256 KB)
    WorkflowExecutionHistory last = env.getWorkflowClient().fetchHistory("large-state-continued");
    String firstRun = last.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId();
    HistoryEvent end = env.getWorkflowClient().fetchHistory("large-state-continued", firstRun).getLastEvent();
    assertEquals(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW, end.getEventType());
    String carried = end.getWorkflowExecutionContinuedAsNewEventAttributes().getInput().getPayloads(0)
        .getData().toStringUtf8();
    assertTrue(carried.contains("\"deflatedJson\""), "the state was not deflated");
    assertTrue(carried.length() < 200_000, carried.length() + " bytes carried");
  }

  /** What a run's workflow tasks started: the largest task's input bytes and starts, all the bytes. */
  private record Starts(long largestTaskBytes, int mostStarts, int mostPending, long totalBytes) {}

  private Starts assertWithinBudget(String id) {
    // every workflow task of the simulation: its starts' input bytes within the budget
    long taskBytes = 0;
    long largest = 0;
    int starts = 0;
    int mostStarts = 0;
    int pending = 0;
    int mostPending = 0;
    long totalBytes = 0;
    for (HistoryEvent e : env.getWorkflowClient().fetchHistory(id).getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
        taskBytes = 0;
        starts = 0;
      } else if (e.getEventType()
          == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
        long bytes = e.getStartChildWorkflowExecutionInitiatedEventAttributes().getInput().getSerializedSize();
        taskBytes += bytes;
        totalBytes += bytes;
        largest = Math.max(largest, taskBytes);
        mostStarts = Math.max(mostStarts, ++starts);
        mostPending = Math.max(mostPending, ++pending);
      } else if (e.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED) {
        pending--;
      }
    }
    assertTrue(largest <= TASK_BYTES_LIMIT, id + ": a workflow task sent " + largest + " bytes of input");
    assertTrue(mostStarts <= 500, "a workflow task started " + mostStarts + " children");
    assertTrue(mostPending <= 1000, mostPending + " children pending at once");
    return new Starts(largest, mostStarts, mostPending, totalBytes);
  }
}
