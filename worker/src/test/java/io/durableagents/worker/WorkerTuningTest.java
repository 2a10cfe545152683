package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.llm.LlmActivities;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How the plugin tunes the workers of our task queues, and leaves others alone. */
class WorkerTuningTest {
  private static WorkerTuning tuning(boolean sticky, Boolean eager, Double rate) {
    return new WorkerTuning(sticky, eager, rate, 300, 600, 700, 4, 50, false);
  }

  private static WorkerOptions configured(WorkerTuning tuning, String queue) {
    WorkerOptions.Builder builder = WorkerOptions.newBuilder();
    tuning.configureWorker(queue, builder);
    return builder.build();
  }

  @Test
  void eagerLlmCallsAreTheDefaultUnlessARateKeepsThemOnTheirQueueAndBothTogetherAreRefused() {
    assertTrue(tuning(true, null, null).eagerLlmCalls());
    assertFalse(tuning(true, null, 2.0).eagerLlmCalls());
    assertFalse(tuning(true, false, null).eagerLlmCalls());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tuning(true, true, 2.0));
    assertEquals(WorkerSettings.EAGER_LLM_CALLS + "=true and " + WorkerSettings.LLM_RATE_LIMIT + " together: a rate "
        + "across workers holds only on the LLM task queue, which eager LLM calls leave; set one of them", e.getMessage());
  }

  @Test
  void withEagerCallsTheWorkflowsQueueRunsTheCallsWithTwiceThePollers() {
    WorkerOptions agents = configured(tuning(true, true, null), TaskQueues.AGENTS);
    assertEquals(300, agents.getMaxConcurrentActivityExecutionSize());
    assertEquals(WorkerTuning.EAGER_CALLS_PER_WORKFLOW_TASK, agents.getMaxEagerActivityReservationsPerWorkflowTask());
    assertEquals(8, agents.getMaxConcurrentActivityTaskPollers());
    assertEquals(4, agents.getMaxConcurrentWorkflowTaskPollers());
    assertEquals(50, agents.getMaxConcurrentWorkflowTaskExecutionSize());
    assertEquals(DurableAgentsPlugin.DEADLOCK_DETECTION_TIMEOUT_MS, agents.getDefaultDeadlockDetectionTimeout());
    assertEquals(WorkerTuning.STICKY_TIMEOUT, agents.getStickyQueueScheduleToStartTimeout(),
        "a busy worker's group steps wait on its sticky queue longer than the SDK's 5 s");
    assertEquals(WorkerTuning.STICKY_TIMEOUT,
        configured(tuning(true, true, null), TaskQueues.SIMULATIONS).getStickyQueueScheduleToStartTimeout(),
        "and so do the simulations' tasks on a starved worker");
    assertEquals(TaskQueues.AGENTS, WorkerTuning.workflowImplementationOptions(true, Duration.ofMinutes(3))
        .getActivityOptions().get(LlmActivities.CHAT_ACTIVITY_TYPE).getTaskQueue());
  }

  @Test
  void aRateHoldsOnTheLlmQueueOnlyAndStickyOffEndsStickyQueuesAtOnce() {
    WorkerTuning limited = tuning(false, null, 2.5);
    WorkerOptions llm = configured(limited, TaskQueues.LLM);
    assertEquals(2.5, llm.getMaxTaskQueueActivitiesPerSecond());
    assertEquals(2.5, llm.getMaxWorkerActivitiesPerSecond());
    assertEquals(300, llm.getMaxConcurrentActivityExecutionSize());
    assertEquals(4, llm.getMaxConcurrentActivityTaskPollers());
    assertEquals(Duration.ZERO, llm.getStickyQueueScheduleToStartTimeout());
    WorkerOptions agents = configured(limited, TaskQueues.AGENTS);
    assertEquals(0.0, agents.getMaxTaskQueueActivitiesPerSecond());
    assertEquals(4, agents.getMaxConcurrentActivityTaskPollers());
    assertNull(WorkerTuning.workflowImplementationOptions(false, Duration.ofMinutes(3)).getActivityOptions()
        .get(LlmActivities.CHAT_ACTIVITY_TYPE).getTaskQueue(), "the workflows' own choice of queue");
  }

  @Test
  void anLlmCallsStartToCloseNeverEndsWhatItsOwnClockAllows() {
    assertEquals(io.durableagents.workflows.llm.LlmCallOptions.START_TO_CLOSE,
        WorkerTuning.llmStartToClose(Duration.ofSeconds(60), false), "the workflows' own 3 min");
    assertEquals(Duration.ofSeconds(300 + 60), WorkerTuning.llmStartToClose(Duration.ofSeconds(300), false),
        "a slow model's time-out and a margin");
    assertEquals(WorkerTuning.LLM_START_TO_CLOSE_WITH_SLOTS, WorkerTuning.llmStartToClose(Duration.ofSeconds(60), true),
        "a call may wait for a slot");
    assertEquals(Duration.ofSeconds(360), WorkerTuning.workflowImplementationOptions(false, Duration.ofSeconds(360))
        .getActivityOptions().get(LlmActivities.CHAT_ACTIVITY_TYPE).getStartToCloseTimeout());
  }

  @Test
  void anotherTaskQueuesWorkerIsLeftAsItIs() {
    assertEquals(WorkerOptions.newBuilder().build().toString(),
        configured(tuning(false, true, null), "someone-elses-queue").toString());
  }

  @Test
  void theFactoryCachesTheWorkflowsWithThreadsNeverBelowTheCache() {
    WorkerFactoryOptions.Builder factory = WorkerFactoryOptions.newBuilder();
    tuning(true, null, null).configureWorkerFactory(factory);
    assertEquals(600, factory.build().getWorkflowCacheSize());
    assertEquals(700, factory.build().getMaxWorkflowThreadCount());
    assertEquals(600, new WorkerTuning(true, null, null, 1, 600, 10, 1, 1, false).workflowThreads());
  }
}
