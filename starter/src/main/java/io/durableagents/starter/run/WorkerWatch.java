package io.durableagents.starter.run;

import com.google.protobuf.util.Timestamps;
import io.durableagents.workflows.TaskQueues;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.TaskQueueType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.taskqueue.v1.PollerInfo;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflowservice.v1.DescribeTaskQueueRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryRequest;
import io.temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryResponse;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Says, while a command waits for a run, that no worker takes it, and how to start one; and says once
 * when a worker appears. Without it a run started against a Temporal with no worker prints {@code
 * Started ...} and then nothing for ever.
 *
 * <p>On a real Temporal it asks {@code DescribeTaskQueue} for the pollers of the task queues a run needs
 * ({@link TaskQueues#AGENTS} for workflows and tools, {@link TaskQueues#LLM} for model calls). The server
 * keeps a poller in that list for minutes after it left, with the time of its last poll; a live worker
 * polls again at least every minute (a long poll ends after one), so a poller counts as live while its last
 * poll is under {@link #LIVE_POLLER} old. Temporal's Java test server (the in-memory Temporal) answers
 * {@code DescribeTaskQueue} with {@code UNIMPLEMENTED}; there the watch reads the run's history instead: a
 * workflow task scheduled and not taken for {@link #UNTAKEN} means no worker polls (it cannot see the LLM
 * queue, nor a child workflow's task).
 *
 * <pre>{@code
 * WorkerWatch watch = WorkerWatch.forRun(service, "default", "127.0.0.1:7233", "sim-epstein-42-1a2b3c4d");
 * watch.check(System.nanoTime() / 1_000_000).ifPresent(System.out::println);
 * }</pre>
 */
public final class WorkerWatch {
  /** How often the server is asked. */
  static final Duration EVERY = Duration.ofSeconds(2);

  /** How old a poller's last poll may be for it to count as a live worker. */
  static final Duration LIVE_POLLER = Duration.ofSeconds(75);

  /** How long no poller must be seen before it is said (a worker starting with the command gets this long). */
  static final Duration NONE_FOR = Duration.ofSeconds(3);

  /** On the in-memory Temporal: how long a workflow task may wait untaken before no worker is said. */
  static final Duration UNTAKEN = Duration.ofSeconds(8);

  /** A task queue a run needs, and for what. */
  record Queue(String name, TaskQueueType type, String forWhat) {}

  /** The queues of every run of Durable Agents: its simulations, its other workflows and tools, its LLM calls. */
  static final List<Queue> RUN_QUEUES = List.of(
      new Queue(TaskQueues.SIMULATIONS, TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW, "simulations"),
      new Queue(TaskQueues.AGENTS, TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW, "workflows"),
      new Queue(TaskQueues.LLM, TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY, "LLM calls"));

  private final WorkflowServiceStubs service;
  private final String namespace;
  private final String address;
  private final String workflowId;
  private final List<Queue> queues;
  private long nextCheck;
  private long noneSince = -1;
  private boolean saidNone;
  private boolean describeUnimplemented;
  private long untakenEventId = -1;
  private long untakenSince;
  private boolean taskWaits;

  WorkerWatch(WorkflowServiceStubs service, String namespace, String address, String workflowId,
      List<Queue> queues) {
    this.service = service;
    this.namespace = namespace;
    this.address = address;
    this.workflowId = workflowId;
    this.queues = queues;
  }

  /** The watch of a run of {@code workflowId} on the run's own task queues. */
  public static WorkerWatch forRun(WorkflowServiceStubs service, String namespace, String address, String workflowId) {
    return new WorkerWatch(service, namespace, address, workflowId, RUN_QUEUES);
  }

  /**
   * A line to print when it changed since the last call ({@code nowMillis} from any monotonic clock): no
   * worker polls (once), or a worker polls again after that. Never throws: a server that does not answer
   * is {@link ServerWatch}'s business.
   */
  Optional<String> check(long nowMillis) {
    if (nowMillis < nextCheck) {
      return Optional.empty();
    }
    nextCheck = nowMillis + EVERY.toMillis();
    Optional<String> missing;
    try {
      missing = describeUnimplemented ? untakenTask(nowMillis) : missingQueue();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.UNIMPLEMENTED) {
        return Optional.empty();
      }
      describeUnimplemented = true;
      try {
        missing = untakenTask(nowMillis);
      } catch (RuntimeException again) {
        return Optional.empty();
      }
    } catch (RuntimeException e) {
      return Optional.empty();
    }
    if (missing == null) {
      taskWaits = false;
      return Optional.empty(); // the run is over: nothing to say
    }
    if (missing.isEmpty()) {
      noneSince = -1;
      return cameBack();
    }
    if (noneSince < 0) {
      noneSince = nowMillis;
    }
    if (saidNone || (!describeUnimplemented && nowMillis - noneSince < NONE_FOR.toMillis())) {
      return Optional.empty();
    }
    saidNone = true;
    return Optional.of(missing.get() + (address == null ? "" : " on " + address) + " (namespace " + namespace
        + ").\n  Start one: 'durable-agents worker' in another terminal, with the same TEMPORAL_ADDRESS and "
        + "TEMPORAL_NAMESPACE. " + workflowId + " waits: a worker started later takes it on, and a line here "
        + "says so.");
  }

  /**
   * The line that a worker has come, once, when this watch had said that none polls; for a caller that saw
   * a sign of one itself (a query answered, the result), and for the checks.
   */
  Optional<String> tookOn() {
    noneSince = -1;
    taskWaits = false;
    return cameBack();
  }

  private Optional<String> cameBack() {
    if (!saidNone) {
      return Optional.empty();
    }
    saidNone = false;
    return Optional.of("A worker " + (describeUnimplemented ? "took the run's task" : "polls " + queueNames())
        + " now: " + workflowId + " goes on.");
  }

  /** Whether the last check saw no worker (a query would wait for one in vain). */
  boolean seesNoWorker() {
    // a workflow task that waits untaken cannot answer a query either: the in-memory Temporal would hold it
    return noneSince >= 0 || taskWaits;
  }

  /** What no live worker polls ({@code No worker polls the task queue 'x' (workflows)}), or empty. */
  private Optional<String> missingQueue() {
    List<String> missing = new ArrayList<>();
    for (Queue q : queues) {
      if (!hasLivePoller(q)) {
        missing.add("'" + q.name() + "' (" + q.forWhat() + ")");
      }
    }
    if (missing.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("No worker polls the task queue" + (missing.size() > 1 ? "s " : " ")
        + String.join(" and ", missing));
  }

  private boolean hasLivePoller(Queue q) {
    return hasLivePoller(service, namespace, q.name(), q.type(), 5);
  }

  /**
   * Whether a live worker polls the workflow task queue {@code taskQueue} (one a query to a run on it
   * needs); empty when the server cannot say (the in-memory Temporal has no {@code DescribeTaskQueue}) or
   * does not answer within 2 s.
   */
  public static Optional<Boolean> workflowWorkerPolls(WorkflowServiceStubs service, String namespace,
      String taskQueue) {
    try {
      return Optional.of(hasLivePoller(service, namespace, taskQueue, TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW, 2));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static boolean hasLivePoller(WorkflowServiceStubs service, String namespace, String taskQueue,
      TaskQueueType type, long deadlineSeconds) {
    List<PollerInfo> pollers = service.blockingStub().withDeadlineAfter(deadlineSeconds, TimeUnit.SECONDS)
        .describeTaskQueue(DescribeTaskQueueRequest.newBuilder().setNamespace(namespace)
            .setTaskQueue(TaskQueue.newBuilder().setName(taskQueue)).setTaskQueueType(type).build())
        .getPollersList();
    long now = System.currentTimeMillis();
    for (PollerInfo p : pollers) {
      // a poller without a time is taken as live: better quiet than a false alarm
      if (!p.hasLastAccessTime() || now - Timestamps.toMillis(p.getLastAccessTime()) < LIVE_POLLER.toMillis()) {
        return true;
      }
    }
    return false;
  }

  /**
   * On a server without {@code DescribeTaskQueue}: whether the run's last event is a workflow task that no
   * worker has taken for {@link #UNTAKEN} (as this watch saw it); null when the run is closed.
   */
  private Optional<String> untakenTask(long nowMillis) {
    DescribeWorkflowExecutionResponse d = service.blockingStub().withDeadlineAfter(5, TimeUnit.SECONDS)
        .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder().setNamespace(namespace)
            .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId)).build());
    if (d.getWorkflowExecutionInfo().getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      return null;
    }
    long length = d.getWorkflowExecutionInfo().getHistoryLength();
    if (length > 2_000) {
      nextCheck = nowMillis + 5 * EVERY.toMillis(); // the in-memory Temporal sends a history whole
    }
    HistoryEvent last = lastWorkflowTaskEvent(d.getWorkflowExecutionInfo().getExecution());
    taskWaits = last != null && last.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED;
    if (!taskWaits) {
      untakenEventId = -1;
      return Optional.empty();
    }
    if (last.getEventId() != untakenEventId) {
      // a task scheduled since the last look: a worker took the one before, if any
      untakenEventId = last.getEventId();
      untakenSince = nowMillis;
      return Optional.empty();
    }
    if (nowMillis - untakenSince < UNTAKEN.toMillis()) {
      return saidNone ? Optional.of("") : Optional.empty();
    }
    return Optional.of("No worker has taken the workflow task of " + workflowId + " for "
        + (nowMillis - untakenSince) / 1000 + " s: no worker polls the task queue '" + TaskQueues.AGENTS + "'");
  }

  /** The run's last workflow task event (scheduled, started, completed, failed or timed out), or null. */
  private HistoryEvent lastWorkflowTaskEvent(WorkflowExecution run) {
    HistoryEvent last = null;
    com.google.protobuf.ByteString page = com.google.protobuf.ByteString.EMPTY;
    do {
      GetWorkflowExecutionHistoryResponse r = service.blockingStub().withDeadlineAfter(10, TimeUnit.SECONDS)
          .getWorkflowExecutionHistory(GetWorkflowExecutionHistoryRequest.newBuilder().setNamespace(namespace)
              .setExecution(run).setNextPageToken(page).build());
      for (HistoryEvent e : r.getHistory().getEventsList()) {
        switch (e.getEventType()) {
          case EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, EVENT_TYPE_WORKFLOW_TASK_STARTED,
              EVENT_TYPE_WORKFLOW_TASK_COMPLETED, EVENT_TYPE_WORKFLOW_TASK_FAILED,
              EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT -> last = e;
          default -> { }
        }
      }
      page = r.getNextPageToken();
    } while (!page.isEmpty());
    return last;
  }

  private String queueNames() {
    StringBuilder sb = new StringBuilder();
    for (Queue q : queues) {
      sb.append(sb.length() == 0 ? "" : " and ").append('\'').append(q.name()).append('\'');
    }
    return sb.toString();
  }

  /**
   * Runs this watch on a daemon thread, printing to {@code out}, until the returned handle is closed: for
   * a command that waits for a run in one blocking call ({@code agent --no-worker}).
   */
  public Background inBackground(PrintStream out) {
    java.util.concurrent.ScheduledExecutorService timer = java.util.concurrent.Executors
        .newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "worker-watch");
          t.setDaemon(true);
          return t;
        });
    timer.scheduleWithFixedDelay(() -> check(System.nanoTime() / 1_000_000).ifPresent(line -> {
      out.println(line);
      out.flush();
    }), 0, 500, TimeUnit.MILLISECONDS);
    return new Background(timer, out);
  }

  /** A watch running on a daemon thread ({@link #inBackground}). */
  public final class Background implements AutoCloseable {
    private final java.util.concurrent.ScheduledExecutorService timer;
    private final PrintStream out;

    private Background(java.util.concurrent.ScheduledExecutorService timer, PrintStream out) {
      this.timer = timer;
      this.out = out;
    }

    /**
     * The run ended, so a worker took it: stops the watch and, if it had said that no worker polls and
     * had not yet seen one come, says now that one did (a quick run can end between two checks).
     */
    public void runEnded() throws InterruptedException {
      timer.shutdownNow();
      timer.awaitTermination(5, TimeUnit.SECONDS);
      cameBack().ifPresent(line -> {
        out.println(line);
        out.flush();
      });
    }

    @Override
    public void close() {
      timer.shutdownNow();
    }
  }
}
