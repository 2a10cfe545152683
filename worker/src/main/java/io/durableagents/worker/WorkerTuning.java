package io.durableagents.worker;

import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.llm.LlmCallOptions;
import io.temporal.activity.ActivityOptions;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import io.temporal.worker.WorkflowImplementationOptions;
import java.time.Duration;
import java.util.Map;

/**
 * How the plugin tunes the worker factory and the workers of our two task queues: sticky execution,
 * where LLM calls run (eagerly on the workflows' queue, or on their own), their rate and concurrency,
 * pollers, workflow task slots, the workflow cache and its threads, and virtual threads. Workers of other
 * task queues are left as they are.
 */
final class WorkerTuning {
  /** Activities one workflow task may take back eagerly with eager LLM calls: a group step's agents. */
  static final int EAGER_CALLS_PER_WORKFLOW_TASK = 100;

  /**
   * How long a workflow task of a simulation, an agent step or a group step may wait on this worker's sticky
   * queue before the server moves it to the task queue, with the workflow's whole history (the SDK's default
   * is 5 s). A worker that runs thousands of agents is busy by design: its group steps' tasks queue up behind
   * each other on its one sticky queue, and in a quiet 5,000-agent run on 2 cores 106 of them waited 5.1-9.3 s,
   * timed out, and were replayed from the start of their workflow on the same worker, which made it busier
   * still. A simulation's task on a worker starved of CPU did the same (5.5 s, in the suite on a loaded
   * machine; its replay is of the whole run since its last continue-as-new). 10 s is the agent steps' own
   * workflow task timeout (Temporal's default) and under the 11 s after which an LLM call that was running on
   * a killed worker is retried: a task left on a dead worker's sticky queue is picked up no later than the
   * rest of what that worker left.
   */
  static final Duration STICKY_TIMEOUT = Duration.ofSeconds(10);

  /** Whether this JVM can run virtual threads (21+); below it the SDK's options throw. */
  static final boolean VIRTUAL_THREADS_AVAILABLE = Runtime.version().feature() >= 21;

  private final boolean stickyExecution;
  private final boolean eagerLlmCalls;
  private final Double llmCallsPerSecond;
  private final int llmConcurrency;
  private final int workflowCacheSize;
  private final int workflowThreads;
  private final int pollers;
  private final int workflowTaskSlots;
  private final boolean virtualThreads;

  /**
   * The settings of a plugin's builder; {@code eagerLlmCalls} null is the default: eager unless a rate
   * limit keeps the calls on their own queue.
   *
   * @throws IllegalArgumentException when eager LLM calls are asked for together with a rate limit
   */
  WorkerTuning(boolean stickyExecution, Boolean eagerLlmCalls, Double llmCallsPerSecond, int llmConcurrency,
      int workflowCacheSize, int workflowThreads, int pollers, int workflowTaskSlots, boolean virtualThreads) {
    this.stickyExecution = stickyExecution;
    if (Boolean.TRUE.equals(eagerLlmCalls) && llmCallsPerSecond != null) {
      throw new IllegalArgumentException(WorkerSettings.EAGER_LLM_CALLS + "=true and "
          + WorkerSettings.LLM_RATE_LIMIT + " together: a rate across workers holds only on the LLM task queue, "
          + "which eager LLM calls leave; set one of them");
    }
    // Unset: eager unless a rate limit keeps the calls on their own queue.
    this.eagerLlmCalls = eagerLlmCalls != null ? eagerLlmCalls : llmCallsPerSecond == null;
    this.llmCallsPerSecond = llmCallsPerSecond;
    this.llmConcurrency = llmConcurrency;
    this.workflowCacheSize = workflowCacheSize;
    this.workflowThreads = workflowThreads;
    this.pollers = pollers;
    this.workflowTaskSlots = workflowTaskSlots;
    this.virtualThreads = virtualThreads && VIRTUAL_THREADS_AVAILABLE;
  }

  /** Whether LLM calls run on the workflows' own task queue ({@link TaskQueues#AGENTS}). */
  boolean eagerLlmCalls() {
    return eagerLlmCalls;
  }

  /** The platform workflow threads a worker may run: the threads setting, never below the cache size. */
  int workflowThreads() {
    return Math.max(workflowCacheSize, workflowThreads);
  }

  /** The workflow cache, its threads, and virtual workflow threads where the JVM has them. */
  void configureWorkerFactory(WorkerFactoryOptions.Builder builder) {
    // Every agent step of a simulation step is a workflow running at once: keep them all cached
    // (a workflow evicted from the cache replays its whole history at its next task). A group step
    // of ReAct or ReWOO agents holds a thread per agent (chain-of-thought agents share their group's
    // one): when the threads run out, the SDK evicts cached workflows to free some.
    builder.setWorkflowCacheSize(workflowCacheSize);
    builder.setMaxWorkflowThreadCount(Math.max(workflowThreads(),
        builder.build().getMaxWorkflowThreadCount()));
    if (virtualThreads) {
      builder.setUsingVirtualWorkflowThreads(true);
    }
  }

  /** The options of the worker of {@code taskQueue}, if it is one of ours; others are left as they are. */
  void configureWorker(String taskQueue, WorkerOptions.Builder builder) {
    if (!isOurs(taskQueue)) {
      return;
    }
    if (!stickyExecution) {
      // The embedded test server never times out a sticky queue: without this a workflow whose
      // worker died would wait for it forever.
      builder.setStickyQueueScheduleToStartTimeout(Duration.ZERO);
    } else if (TaskQueues.AGENTS.equals(taskQueue) || TaskQueues.SIMULATIONS.equals(taskQueue)) {
      builder.setStickyQueueScheduleToStartTimeout(STICKY_TIMEOUT);
    }
    if (TaskQueues.LLM.equals(taskQueue) && llmCallsPerSecond != null) {
      // The task queue's rate holds across workers on a real server; Temporal's test server (the
      // embedded default) ignores it. The worker's own rate holds everywhere, per worker process.
      builder.setMaxTaskQueueActivitiesPerSecond(llmCallsPerSecond);
      builder.setMaxWorkerActivitiesPerSecond(llmCallsPerSecond);
    }
    if (TaskQueues.LLM.equals(taskQueue) || eagerLlmCalls) {
      // A model call mostly waits on the network: many run at once (the SDK's default is 200). With
      // eager LLM calls the workflows' queue runs them, and eager dispatch needs a free slot there.
      builder.setMaxConcurrentActivityExecutionSize(llmConcurrency);
      // Heartbeats go out at least this often, well inside the calls' heartbeat timeout even on a
      // loaded worker (the SDK's default, 0.8 x the timeout, leaves a fifth of it).
      builder.setMaxHeartbeatThrottleInterval(io.durableagents.workflows.llm.LlmCallOptions.HEARTBEAT_THROTTLE);
    }
    if (eagerLlmCalls && TaskQueues.AGENTS.equals(taskQueue)) {
      // A group step schedules the first call of each of its agents in one workflow task: the SDK asks
      // for at most 3 of them eagerly unless told more.
      builder.setMaxEagerActivityReservationsPerWorkflowTask(EAGER_CALLS_PER_WORKFLOW_TASK);
    }
    if (!TaskQueues.LLM.equals(taskQueue)) {
      builder.setMaxConcurrentWorkflowTaskPollers(pollers);
      // A simulation step of thousands of agents builds their observations and writes their inputs
      // in one workflow task, and a fresh worker loads classes and warms Jackson in its first tasks:
      // on a busy machine either can pass the SDK's 1 s without yielding, which fails the task as a
      // "potential deadlock" (TMPRL1101) and retries it, for ever when the task is that large (a
      // 10,000-agent step, or the replay of its run on a worker that did not have it cached, took
      // over 5 s on 2 busy cores). The simulation's own workflow task timeout grows with its agents.
      builder.setDefaultDeadlockDetectionTimeout(DurableAgentsPlugin.DEADLOCK_DETECTION_TIMEOUT_MS);
      builder.setMaxConcurrentWorkflowTaskExecutionSize(workflowTaskSlots);
    }
    // With eager LLM calls the workflows' queue takes the calls the LLM queue's pollers took: as many
    // pollers again for them where the server does not hand them back eagerly (the in-memory one).
    builder.setMaxConcurrentActivityTaskPollers(
        eagerLlmCalls && TaskQueues.AGENTS.equals(taskQueue) ? 2 * pollers : pollers);
    if (virtualThreads) {
      builder.setUsingVirtualThreads(true);
    }
  }

  /**
   * The options our workflows are registered with: every {@code LlmChat} activity with {@code
   * llmStartToClose} as its start-to-close time-out ({@link #llmStartToClose}), and with eager LLM calls
   * scheduled on the workflows' own task queue ({@link TaskQueues#AGENTS}) instead of {@link TaskQueues#LLM}
   * (the SDK merges these per-activity-type options over those the workflow code gives its stub). Replay
   * compares only an activity's id and type, never its task queue or time-outs, so histories recorded
   * either way replay on a worker set either way.
   */
  static WorkflowImplementationOptions workflowImplementationOptions(boolean eagerLlmCalls, Duration llmStartToClose) {
    ActivityOptions.Builder llm = ActivityOptions.newBuilder().setStartToCloseTimeout(llmStartToClose);
    if (eagerLlmCalls) {
      llm.setTaskQueue(TaskQueues.AGENTS);
    }
    return WorkflowImplementationOptions.newBuilder()
        .setActivityOptions(Map.of(LlmActivities.CHAT_ACTIVITY_TYPE, llm.build()))
        .build();
  }

  /** The start-to-close time-out of an LLM call's attempt while slots are set: it may wait that long for one. */
  static final Duration LLM_START_TO_CLOSE_WITH_SLOTS = Duration.ofHours(24);

  /** What an attempt may take past its time-out before Temporal ends it: the rate limit's wait, a slow close. */
  static final Duration LLM_START_TO_CLOSE_MARGIN = Duration.ofMinutes(1);

  /**
   * The start-to-close time-out of an LLM call's attempt, which must never end a call its own clock
   * allows: the worker ends each attempt at the per-attempt time-out ({@code DURABLE_AGENTS_LLM_TIMEOUT})
   * or earlier, so it is that time-out and a margin ({@link #LLM_START_TO_CLOSE_MARGIN}), at least the
   * workflows' own {@link LlmCallOptions#START_TO_CLOSE}; with slots set ({@code DURABLE_AGENTS_LLM_SLOTS})
   * a call may first wait any time for a slot, so it is at least {@link #LLM_START_TO_CLOSE_WITH_SLOTS}. A worker
   * that dies is noticed by the heartbeat time-out ({@link LlmCallOptions#HEARTBEAT_TIMEOUT}) either way.
   */
  static Duration llmStartToClose(Duration llmTimeout, boolean slotsSet) {
    Duration needed = llmTimeout.plus(LLM_START_TO_CLOSE_MARGIN);
    Duration least = slotsSet ? LLM_START_TO_CLOSE_WITH_SLOTS : LlmCallOptions.START_TO_CLOSE;
    return needed.compareTo(least) > 0 ? needed : least;
  }

  private static boolean isOurs(String taskQueue) {
    return TaskQueues.ALL.contains(taskQueue);
  }
}
