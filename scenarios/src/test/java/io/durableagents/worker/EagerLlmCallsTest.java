package io.durableagents.worker;

import io.durableagents.scenarios.Builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.WorkerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code DURABLE_AGENTS_EAGER_LLM_CALLS}: by default ({@code auto}) every LLM call is scheduled on the
 * workflows' own task queue, where a real server with eager activity execution hands it back with the
 * workflow task's completion; with {@code false}, or a rate limit across workers, they stay on their own
 * queue.
 */
class EagerLlmCallsTest {
  @Test
  void llmCallsGoToTheWorkflowsQueueByDefaultAndTheRunIsTheSame() {
    SimulationResult own = run(Map.of(WorkerSettings.EAGER_LLM_CALLS, "false"), TaskQueues.LLM);
    SimulationResult eager = run(Map.of(), TaskQueues.AGENTS);
    assertEquals(own.perStep(), eager.perStep());
    assertEquals(own.llmCalls(), eager.llmCalls());
    assertEquals(own.usage(), eager.usage());
    // a rate across workers holds only on the LLM queue: with one, the calls stay there
    SimulationResult limited = run(Map.of(WorkerSettings.LLM_RATE_LIMIT, "1000"), TaskQueues.LLM);
    assertEquals(own.perStep(), limited.perStep());
    assertEquals(eager.perStep(), run(Map.of(WorkerSettings.EAGER_LLM_CALLS, "TRUE"), TaskQueues.AGENTS).perStep());
  }

  /** Runs a small simulation in groups and a workflow per agent step; every LLM call on {@code queue}. */
  private static SimulationResult run(Map<String, String> environment, String queue) {
    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
      DurableAgentsPlugin plugin = Builtins.plugin().configureFromEnvironment(environment).build();
      WorkflowClient client = WorkflowClient.newInstance(env.getWorkflowServiceStubs(),
          WorkflowClientOptions.newBuilder().setPlugins(plugin).build());
      WorkerFactory factory = WorkerFactory.newInstance(client);
      factory.start();
      SimulationResult result = null;
      for (int perWorkflow : new int[] {1, 3}) {
        String id = "eager-" + perWorkflow;
        result = client.newWorkflowStub(SimulationWorkflow.class,
                WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
            .run(new SimulationInput("epstein", 2, 1, EpsteinParameters.DEFAULTS.withAgents(3, 1), null, null, null)
                .withAgentsPerWorkflow(perWorkflow));
        Set<String> queues = new HashSet<>();
        int calls = 0;
        for (HistoryEvent e : client.fetchHistory(id).getEvents()) {
          if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
            for (HistoryEvent c : client.fetchHistory(
                e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId()).getEvents()) {
              if (c.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
                  && c.getActivityTaskScheduledEventAttributes().getActivityType().getName()
                      .equals(LlmActivities.CHAT_ACTIVITY_TYPE)) {
                queues.add(c.getActivityTaskScheduledEventAttributes().getTaskQueue().getName());
                calls++;
              }
            }
          }
        }
        assertEquals(result.llmCalls(), calls, "every call read from the agents' histories");
        assertEquals(Set.of(queue), queues);
      }
      factory.shutdownNow();
      return result;
    }
  }

  @Test
  void everyRecordedHistoryReplaysOnAWorkerWithEagerLlmCalls() throws Exception {
    List<WorkflowExecutionHistory> histories = new ArrayList<>();
    try (Stream<Path> files = Files.list(ReplayTest.HISTORIES)) {
      java.util.Properties ids = new java.util.Properties();
      try (var in = Files.newBufferedReader(ReplayTest.HISTORIES.resolve(ReplayTest.WORKFLOW_IDS))) {
        ids.load(in);
      }
      for (Path f : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        // with the workflow id it ran under: children's ids are made from it
        histories.add(WorkflowExecutionHistory.fromJson(Files.readString(f),
            ids.getProperty(f.getFileName().toString())));
      }
    }
    assertTrue(histories.size() > 20, "recorded histories: " + histories.size());
    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
      DurableAgentsPlugin plugin = Builtins.plugin().configureFromEnvironment(Map.of(WorkerSettings.EAGER_LLM_CALLS, "true")).build();
      WorkflowClient client = WorkflowClient.newInstance(env.getWorkflowServiceStubs(),
          WorkflowClientOptions.newBuilder().setPlugins(plugin).build());
      WorkerFactory factory = WorkerFactory.newInstance(client);
      factory.start();
      io.temporal.testing.ReplayResults results =
          WorkflowReplayer.replayWorkflowExecutions(histories, false, factory.getWorker(TaskQueues.AGENTS));
      assertTrue(results.allErrors().isEmpty(), () -> "replay failures: " + results.allErrors().stream()
          .map(e -> e.workflowId + ": " + e.exception).toList());
      factory.shutdownNow();
    }
  }

  @Test
  void aRateLimitAndEagerCallsTogetherAreRefusedNamingBoth() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Builtins.plugin().configureFromEnvironment(Map.of(WorkerSettings.EAGER_LLM_CALLS, "true",
            WorkerSettings.LLM_RATE_LIMIT, "5")).build());
    assertTrue(e.getMessage().contains("DURABLE_AGENTS_EAGER_LLM_CALLS=true and DURABLE_AGENTS_LLM_RATE_LIMIT"),
        e.getMessage());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> WorkerSettings.eagerLlmCalls(Map.of(WorkerSettings.EAGER_LLM_CALLS, "yes")));
    assertEquals("DURABLE_AGENTS_EAGER_LLM_CALLS must be auto, true or false, was 'yes'", bad.getMessage());
    assertEquals(null, WorkerSettings.eagerLlmCalls(Map.of()));
    assertEquals(null, WorkerSettings.eagerLlmCalls(Map.of(WorkerSettings.EAGER_LLM_CALLS, "auto")));
    assertFalse(WorkerSettings.eagerLlmCalls(Map.of(WorkerSettings.EAGER_LLM_CALLS, "false")));
  }
}
