package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.TaskQueueKind;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A simulation started on its own task queue ({@link TaskQueues#SIMULATIONS}, as {@code simulate} starts
 * it) runs there, and its agent steps run on {@link TaskQueues#AGENTS}: its workflow tasks never wait in
 * a queue (or a worker's sticky queue, or its slots) behind theirs. Every worker of the plugin polls both.
 */
class SimulationTaskQueuesTest {
  @Test
  void aSimulationRunsOnItsOwnQueueAndItsAgentStepsOnTheAgentsQueue() {
    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
      DurableAgentsPlugin plugin = Builtins.plugin().configureFromEnvironment(Map.of()).build();
      WorkflowClient client = WorkflowClient.newInstance(env.getWorkflowServiceStubs(),
          WorkflowClientOptions.newBuilder().setPlugins(plugin).build());
      WorkerFactory factory = WorkerFactory.newInstance(client);
      factory.start();
      assertNotNull(factory.tryGetWorker(TaskQueues.SIMULATIONS));

      String id = "sim-own-queue";
      SimulationResult r = client.newWorkflowStub(SimulationWorkflow.class, WorkflowOptions.newBuilder()
              .setTaskQueue(TaskQueues.SIMULATIONS).setWorkflowId(id)
              .setWorkflowExecutionTimeout(Duration.ofMinutes(2)).build())
          .run(new SimulationInput("epstein", 2, 1, EpsteinParameters.DEFAULTS.withAgents(3, 1), null, null, null));
      assertEquals(2, r.steps());

      List<HistoryEvent> history = client.fetchHistory(id).getEvents();
      Set<String> simulationQueues = new TreeSet<>();
      Set<String> stepQueues = new TreeSet<>();
      for (HistoryEvent e : history) {
        if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) {
          var queue = e.getWorkflowTaskScheduledEventAttributes().getTaskQueue();
          if (queue.getKind() != TaskQueueKind.TASK_QUEUE_KIND_STICKY) {
            simulationQueues.add(queue.getName());
          }
        } else if (e.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED) {
          var child = e.getChildWorkflowExecutionStartedEventAttributes().getWorkflowExecution();
          stepQueues.add(client.fetchHistory(child.getWorkflowId(), child.getRunId()).getEvents().get(0)
              .getWorkflowExecutionStartedEventAttributes().getTaskQueue().getName());
        }
      }
      assertEquals(Set.of(TaskQueues.SIMULATIONS), simulationQueues);
      assertFalse(stepQueues.isEmpty());
      assertEquals(Set.of(TaskQueues.AGENTS), stepQueues, "the agent steps' task queues");
      factory.shutdownNow();
    }
  }
}
