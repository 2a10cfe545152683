package io.durableagents.starter.run;

import io.durableagents.starter.Environment;
import io.durableagents.starter.Links;
import io.durableagents.starter.inspect.Describe;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryRequest;
import io.temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryResponse;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A run whose workflow task keeps failing, as the server tells it: the attempt count (a real server's
 * {@code DescribeWorkflowExecution} has it as the pending workflow task's attempt; Temporal's Java test
 * server, the in-memory fallback, has no pending workflow task there but writes every attempt to the
 * history) and the cause, from the history's last {@code WorkflowTaskFailed} event since the last
 * completed workflow task. A run counts as stuck from its second attempt after a failure, or its third
 * after timeouts alone (one timeout is what a killed worker leaves behind).
 *
 * <pre>{@code
 * FailingWorkflowTask.of(service, "default", "sim-epstein-42-1a2b3c4d")
 *     .ifPresent(f -> System.out.println(f.describe()));
 * // the workflow task of sim-epstein-42-1a2b3c4d keeps failing: attempt 3 (since 12:01:07), workflow
 * // worker unhandled failure: IllegalStateException: ...
 * }</pre>
 *
 * @param workflowId the run's workflow id
 * @param attempt the attempt the task is at (the first is 1)
 * @param cause what failed, in words ({@code non deterministic error}, {@code workflow worker unhandled
 *     failure}, {@code grpc message too large}, ... or {@code timed out})
 * @param message the error's message (its innermost cause), or empty
 * @param since when the first failure since the last completed workflow task happened, if known
 */
public record FailingWorkflowTask(String workflowId, int attempt, String cause, String message,
    Optional<Instant> since) {
  /** One line that says it all. */
  public String describe() {
    return "the workflow task of " + workflowId + " keeps failing: attempt " + attempt
        + since.map(t -> " (first failure " + Describe.time(com.google.protobuf.Timestamp.newBuilder()
            .setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build()) + ")").orElse("")
        + ", " + cause + (message.isEmpty() ? "" : ": " + message);
  }

  /** A state machine of the SDK that rejects the order of the run's events: {@code invalid STATE->EVENT}. */
  private static final java.util.regex.Pattern EVENTS_OUT_OF_ORDER =
      java.util.regex.Pattern.compile("invalid [A-Z_]+->[A-Z_]+");

  /**
   * Whether the SDK rejected the order of the run's events. Workflow code cannot cause that; a server that
   * wrote the history out of order can (the in-memory Temporal did, issue 26).
   */
  boolean eventsOutOfOrder() {
    return EVENTS_OUT_OF_ORDER.matcher(message).find();
  }

  /**
   * What to do about it, in one line: as {@link #advice()}, but on the in-memory Temporal a history written
   * out of order names the way out, the run's last checkpoint ({@code checkpoint}) if it has one.
   */
  public String advice(boolean inMemory, Optional<java.nio.file.Path> checkpoint) {
    if (!inMemory || !eventsOutOfOrder()) {
      return advice();
    }
    return "The in-memory Temporal wrote this run's history out of order (not the workflow code's fault) and "
        + "no worker can go on with it: " + checkpoint.map(file -> "its last checkpoint is " + file
            + ", and 'simulate --from-checkpoint " + file + "' goes on from there (under a new id while this "
            + "run is on the server)").orElse("start it again (the same --seed gives the same result), with "
            + "--checkpoint-every to keep a way back")
        + "; keep long runs on a persistent Temporal (docs/embedded-temporal.md).";
  }

  /** The newest checkpoint of {@code workflowId} in this environment's checkpoint directory, if any. */
  public static Optional<java.nio.file.Path> lastCheckpoint(String workflowId) {
    try {
      return io.durableagents.activities.checkpoint.DirectoryCheckpointStore.fromEnvironment(Environment.variables())
          .latest(workflowId).map(java.nio.file.Path::toAbsolutePath);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** What to do about it, in one line. */
  String advice() {
    String c = cause.toLowerCase(Locale.ROOT);
    if (c.contains("non deterministic")) {
      return "The workflow code on the worker no longer matches the run's history: run the version that "
          + "started it, or version the change with Workflow.getVersion (docs/development.md).";
    }
    if (c.contains("too large")) {
      return "A workflow task's completion is larger than the server accepts: fewer agents at once "
          + "(--max-concurrent-agents) or larger groups (--agents-per-workflow), see docs/simulations.md.";
    }
    return "The worker's log has the full error; its /health names every run whose workflow task fails.";
  }

  /**
   * The run's workflow task if it keeps failing, or empty (it works, the run is closed, or the server
   * cannot tell). Reads the history only when the description does not settle it.
   */
  public static Optional<FailingWorkflowTask> of(WorkflowServiceStubs service, String namespace, String workflowId) {
    return of(service, namespace, workflowId, Links.inMemory(service));
  }

  /** As {@link #of(WorkflowServiceStubs, String, String)}, told whether the server is the in-memory one. */
  static Optional<FailingWorkflowTask> of(WorkflowServiceStubs service, String namespace, String workflowId,
      boolean inMemory) {
    return check(service, namespace, workflowId, inMemory).failing();
  }

  /** What one check found, and how long the run's history was (to space the next check). */
  private record Check(Optional<FailingWorkflowTask> failing, long historyLength) {}

  private static Check check(WorkflowServiceStubs service, String namespace, String workflowId, boolean inMemory) {
    DescribeWorkflowExecutionResponse d = service.blockingStub().withDeadlineAfter(5, TimeUnit.SECONDS)
        .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder().setNamespace(namespace)
            .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId)).build());
    long length = d.getWorkflowExecutionInfo().getHistoryLength();
    if (d.getWorkflowExecutionInfo().getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      return new Check(Optional.empty(), length);
    }
    int pendingAttempt = d.hasPendingWorkflowTask() ? d.getPendingWorkflowTask().getAttempt() : 0;
    if (d.hasPendingWorkflowTask() && pendingAttempt < 2) {
      return new Check(Optional.empty(), length); // a real server says the task is on its first attempt
    }
    if (!d.hasPendingWorkflowTask() && !inMemory) {
      return new Check(Optional.empty(), length); // a real server with no workflow task pending
    }
    WorkflowExecution run = d.getWorkflowExecutionInfo().getExecution();
    return new Check(fromHistory(workflowId, events(service, namespace, run), pendingAttempt), length);
  }

  /**
   * From a run's events (and a pending attempt the server reported, 0 for none): the attempt, and the
   * last failure since the last completed workflow task.
   */
  static Optional<FailingWorkflowTask> fromHistory(String workflowId, List<HistoryEvent> events, int pendingAttempt) {
    int scheduledAttempt = 0;
    int failures = 0;
    HistoryEvent lastFailed = null;
    HistoryEvent lastMoved = null;
    HistoryEvent firstFailure = null;
    for (int i = events.size() - 1; i >= 0; i--) {
      HistoryEvent e = events.get(i);
      if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
        break;
      }
      switch (e.getEventType()) {
        case EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
          scheduledAttempt = Math.max(scheduledAttempt, e.getWorkflowTaskScheduledEventAttributes().getAttempt());
          break;
        case EVENT_TYPE_WORKFLOW_TASK_FAILED:
          if (io.durableagents.worker.WorkflowTaskFailures.movedFromStickyQueue(e)) {
            // not a failure of the code: a busy or gone worker did not poll its sticky queue in time
            if (lastMoved == null) {
              lastMoved = e;
            }
          } else if (lastFailed == null) {
            lastFailed = e;
          }
          firstFailure = e;
          failures++;
          break;
        case EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT:
          firstFailure = e;
          failures++;
          break;
        default:
          break;
      }
    }
    // The in-memory Temporal numbers the task scheduled by a completion that follows failures on from
    // them (a completion after two timeouts schedules "attempt 3"): a scheduled attempt counts only as
    // far as the failures and timeouts written since the last completed task. A real server writes no
    // event for attempts after the second; its pending attempt says how far it got.
    int attempt = Math.max(pendingAttempt, Math.min(scheduledAttempt, failures + 1));
    boolean failing = (attempt >= 2 && lastFailed != null) || attempt >= 3;
    if (!failing) {
      return Optional.empty();
    }
    String cause = "timed out";
    String message = "";
    HistoryEvent named = lastFailed != null ? lastFailed : lastMoved;
    if (named != null) {
      var a = named.getWorkflowTaskFailedEventAttributes();
      cause = io.durableagents.worker.WorkflowTaskFailures.cause(a.getCause());
      message = io.durableagents.worker.WorkflowTaskFailures.message(a.getFailure());
    }
    Optional<Instant> since = firstFailure == null || !firstFailure.hasEventTime() ? Optional.empty()
        : Optional.of(Instant.ofEpochSecond(firstFailure.getEventTime().getSeconds(),
            firstFailure.getEventTime().getNanos()));
    return Optional.of(new FailingWorkflowTask(workflowId, attempt, cause, message, since));
  }

  private static List<HistoryEvent> events(WorkflowServiceStubs service, String namespace, WorkflowExecution run) {
    List<HistoryEvent> events = new ArrayList<>();
    com.google.protobuf.ByteString page = com.google.protobuf.ByteString.EMPTY;
    do {
      GetWorkflowExecutionHistoryResponse r = service.blockingStub().withDeadlineAfter(10, TimeUnit.SECONDS)
          .getWorkflowExecutionHistory(GetWorkflowExecutionHistoryRequest.newBuilder().setNamespace(namespace)
              .setExecution(run).setNextPageToken(page).build());
      events.addAll(r.getHistory().getEventsList());
      page = r.getNextPageToken();
    } while (!page.isEmpty());
    return events;
  }

  /**
   * Asks the server every {@link #EVERY} while a command follows a run (up to {@link #AT_MOST} for a
   * long history, which the in-memory Temporal sends whole), and says when the run's workflow task
   * starts failing, fails again, or works again.
   */
  static final class Watch {
    static final Duration EVERY = Duration.ofSeconds(2);
    static final Duration AT_MOST = Duration.ofSeconds(10);

    private final WorkflowServiceStubs service;
    private final String namespace;
    private final String workflowId;
    private long nextCheck;
    private int reportedAttempt;
    private Boolean inMemory;

    Watch(WorkflowServiceStubs service, String namespace, String workflowId) {
      this.service = service;
      this.namespace = namespace;
      this.workflowId = workflowId;
    }

    /**
     * A line to show when something changed since the last call ({@code nowMillis} from any
     * monotonic clock), else empty. Never throws: a server that does not answer is another watch's
     * business ({@link ServerWatch}).
     */
    Optional<String> check(long nowMillis) {
      if (nowMillis < nextCheck) {
        return Optional.empty();
      }
      nextCheck = nowMillis + EVERY.toMillis();
      Optional<FailingWorkflowTask> failing;
      try {
        if (inMemory == null) {
          inMemory = Links.inMemory(service);
        }
        Check c = FailingWorkflowTask.check(service, namespace, workflowId, inMemory);
        failing = c.failing();
        if (failing.isEmpty() && inMemory) {
          // 2 ms per event: every 2 s up to 1,000 events, every 10 s from 5,000
          nextCheck = nowMillis + Math.min(AT_MOST.toMillis(), Math.max(EVERY.toMillis(), 2 * c.historyLength()));
        }
      } catch (RuntimeException e) {
        return Optional.empty();
      }
      if (failing.isEmpty()) {
        if (reportedAttempt > 0) {
          reportedAttempt = 0;
          return Optional.of("The workflow task of " + workflowId + " works again.");
        }
        return Optional.empty();
      }
      FailingWorkflowTask f = failing.get();
      if (f.attempt() == reportedAttempt) {
        return Optional.empty();
      }
      boolean first = reportedAttempt == 0;
      reportedAttempt = f.attempt();
      String line = "Stuck: " + f.describe();
      return Optional.of(first ? line + "\n  " + f.advice(inMemory, lastCheckpoint(workflowId)) : line);
    }
  }
}
