package io.durableagents.worker;

import com.google.protobuf.ByteString;
import io.durableagents.activities.metrics.MetricNames;
import io.durableagents.workflows.CommittedLog;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall.SimpleForwardingClientCall;
import io.grpc.ForwardingClientCallListener.SimpleForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowTaskFailedCause;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.workflowservice.v1.PollWorkflowTaskQueueResponse;
import io.temporal.api.workflowservice.v1.RespondWorkflowTaskCompletedRequest;
import io.temporal.api.workflowservice.v1.RespondWorkflowTaskFailedRequest;
import io.temporal.api.workflowservice.v1.WorkflowServiceGrpc;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches this worker's workflow tasks on their way to and from Temporal, so that a run whose workflow
 * task keeps failing (a bug in workflow code, a non-determinism error, a completion larger than the
 * server accepts) is never silent: {@code /health} names it, with its cause and attempt count, and the
 * metric {@value MetricNames#WORKFLOW_TASK_FAILURES} counts every failed or timed-out attempt.
 *
 * <p>It is a gRPC client interceptor on the worker's service stubs: it reads the tasks the worker
 * polls (their run, attempt, and the history's last {@code WorkflowTaskFailed} event) and the failures
 * the worker reports ({@code RespondWorkflowTaskFailed}, with the cause and the error). The SDK
 * reports only a task's first failure; later attempts of the same task time out, so a task polled
 * again with attempt N tells that attempt N - 1 failed too. A run counts as failing from its second
 * attempt after a failure, or from its third after timeouts alone (a single timeout is what a killed
 * worker leaves behind), until a task of the run completes.
 *
 * <pre>{@code
 * WorkflowTaskFailures failures = new WorkflowTaskFailures(registry);
 * WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions
 *     .newBuilder().setGrpcClientInterceptors(List.of(failures)).build());
 * failures.failing(); // the runs whose workflow task keeps failing now
 * }</pre>
 */
public final class WorkflowTaskFailures implements ClientInterceptor {
  /** A run whose workflow task is not forgotten until it completes or goes quiet this long. */
  static final Duration FORGET_AFTER = Duration.ofMinutes(5);

  /**
   * A run whose workflow task keeps failing.
   *
   * @param workflowId the workflow's id
   * @param runId the run's id
   * @param workflowType the workflow's type
   * @param attempt the latest attempt this worker saw (the first attempt is 1)
   * @param cause what failed: Temporal's cause ({@code non deterministic error}, {@code workflow worker
   *     unhandled failure}, {@code grpc message too large}, ...) or {@code timed out}
   * @param message the error's message, or empty when none was seen
   * @param since when this worker first saw the task fail
   */
  public record Failing(String workflowId, String runId, String workflowType, int attempt, String cause,
      String message, Instant since) {
    /** One line: {@code sim-1 (Simulation): attempt 3, workflow worker unhandled failure: boom}. */
    public String describe() {
      return workflowId + " (" + workflowType + "): attempt " + attempt + ", " + cause
          + (message.isEmpty() ? "" : ": " + message);
    }
  }

  /** What a polled task is, until the worker answers it. */
  private record Task(String workflowId, String runId, String workflowType, int attempt, Instant polledAt) {}

  /** What is known of one run's current workflow task. */
  private static final class RunState {
    final String workflowId;
    final String runId;
    String workflowType;
    int attempt;
    int countedAttempt;
    String cause = "";
    String message = "";
    boolean failedNotTimedOut;
    Instant since;
    Instant lastSeen;

    RunState(String workflowId, String runId, String workflowType) {
      this.workflowId = workflowId;
      this.runId = runId;
      this.workflowType = workflowType;
    }

    boolean failing() {
      return (attempt >= 2 && failedNotTimedOut) || attempt >= 3;
    }
  }

  private static final String POLL = WorkflowServiceGrpc.getPollWorkflowTaskQueueMethod().getFullMethodName();
  private static final String COMPLETED =
      WorkflowServiceGrpc.getRespondWorkflowTaskCompletedMethod().getFullMethodName();
  private static final String FAILED = WorkflowServiceGrpc.getRespondWorkflowTaskFailedMethod().getFullMethodName();

  private final Map<ByteString, Task> tasks = new ConcurrentHashMap<>();
  private final Map<String, RunState> runs = new ConcurrentHashMap<>();
  private final MeterRegistry registry;
  private final Clock clock;
  private final CommittedLog committedLog;

  /** Counts failures in {@code registry} ({@value MetricNames#WORKFLOW_TASK_FAILURES}). */
  public WorkflowTaskFailures(MeterRegistry registry) {
    this(registry, null);
  }

  /**
   * As {@link #WorkflowTaskFailures(MeterRegistry)}, and tells {@code committedLog} (may be null) when a
   * run's workflow task was completed or failed, so that it writes workflow code's lines once.
   */
  public WorkflowTaskFailures(MeterRegistry registry, CommittedLog committedLog) {
    this(registry, Clock.systemUTC(), committedLog);
  }

  WorkflowTaskFailures(MeterRegistry registry, Clock clock, CommittedLog committedLog) {
    this.registry = registry;
    this.clock = clock;
    this.committedLog = committedLog;
    Gauge.builder(MetricNames.WORKFLOW_TASKS_FAILING, this, w -> w.failing().size())
        .description("Runs whose workflow task keeps failing on this worker now")
        .register(registry);
  }

  /** The runs whose workflow task keeps failing now, the longest failing first. */
  public List<Failing> failing() {
    Instant now = clock.instant();
    List<Failing> result = new ArrayList<>();
    for (RunState r : runs.values()) {
      synchronized (r) {
        if (r.lastSeen.plus(FORGET_AFTER).isBefore(now)) {
          runs.remove(r.runId, r);
        } else if (r.failing()) {
          result.add(new Failing(r.workflowId, r.runId, r.workflowType, r.attempt, r.cause, r.message, r.since));
        }
      }
    }
    result.sort(Comparator.comparing(Failing::since));
    return result;
  }

  /** The lines {@code /health} adds when some run's workflow task keeps failing; none otherwise. */
  public List<String> healthLines() {
    List<Failing> failing = failing();
    if (failing.isEmpty()) {
      return List.of();
    }
    List<String> lines = new ArrayList<>();
    lines.add("workflow tasks failing: " + failing.size() + " run(s) (" + MetricNames.WORKFLOW_TASK_FAILURES
        + " counts the attempts)");
    for (Failing f : failing.subList(0, Math.min(10, failing.size()))) {
      lines.add("  " + f.describe());
    }
    return lines;
  }

  @Override
  public <ReqT, RespT> ClientCall<ReqT, RespT> interceptCall(MethodDescriptor<ReqT, RespT> method,
      CallOptions callOptions, Channel next) {
    String name = method.getFullMethodName();
    ClientCall<ReqT, RespT> call = next.newCall(method, callOptions);
    if (name.equals(POLL)) {
      return new SimpleForwardingClientCall<>(call) {
        @Override
        public void start(Listener<RespT> listener, Metadata headers) {
          super.start(new SimpleForwardingClientCallListener<>(listener) {
            @Override
            public void onMessage(RespT message) {
              polled((PollWorkflowTaskQueueResponse) message);
              super.onMessage(message);
            }
          }, headers);
        }
      };
    }
    if (name.equals(COMPLETED) || name.equals(FAILED)) {
      return new SimpleForwardingClientCall<>(call) {
        private Object request;

        @Override
        public void sendMessage(ReqT message) {
          request = message;
          if (message instanceof RespondWorkflowTaskFailedRequest failed) {
            reportedFailed(failed);
          }
          super.sendMessage(message);
        }

        @Override
        public void start(Listener<RespT> listener, Metadata headers) {
          super.start(new SimpleForwardingClientCallListener<>(listener) {
            @Override
            public void onClose(Status status, Metadata trailers) {
              if (status.isOk() && request instanceof RespondWorkflowTaskCompletedRequest done) {
                completed(done.getTaskToken());
              }
              super.onClose(status, trailers);
            }
          }, headers);
        }
      };
    }
    return call;
  }

  private void polled(PollWorkflowTaskQueueResponse task) {
    if (task.getTaskToken().isEmpty() || !task.hasWorkflowExecution() || task.hasQuery()) {
      return; // an empty poll, or a query
    }
    String workflowId = task.getWorkflowExecution().getWorkflowId();
    String runId = task.getWorkflowExecution().getRunId();
    String type = task.getWorkflowType().getName();
    int attempt = task.getAttempt();
    Instant now = clock.instant();
    if (tasks.size() > 10_000) {
      // a task the SDK failed without answering (attempts after the first) is never answered
      tasks.values().removeIf(t -> t.polledAt().plus(FORGET_AFTER).isBefore(now));
    }
    tasks.put(task.getTaskToken(), new Task(workflowId, runId, type, attempt, now));
    if (attempt < 2) {
      return;
    }
    if (notARetry(task)) {
      return;
    }
    RunState r = runs.computeIfAbsent(runId, id -> new RunState(workflowId, runId, type));
    synchronized (r) {
      r.lastSeen = now;
      r.workflowType = type;
      if (r.since == null) {
        r.since = now;
      }
      r.attempt = Math.max(r.attempt, attempt);
      // the history's last failure since the last completed task: the cause, even when another
      // worker (or this one before a restart) saw it
      HistoryEvent lastFailure = lastFailureSinceCompleted(task.getHistory().getEventsList());
      if (lastFailure != null && lastFailure.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED) {
        var a = lastFailure.getWorkflowTaskFailedEventAttributes();
        // a task moved off a sticky queue nobody polled in time counts as a timeout, not a failure
        r.failedNotTimedOut = r.failedNotTimedOut || !movedFromStickyQueue(lastFailure);
        r.cause = cause(a.getCause());
        r.message = message(a.getFailure());
      } else if (r.cause.isEmpty()) {
        r.cause = "timed out";
      }
      count(r, attempt - 1, r.cause);
    }
  }

  private void reportedFailed(RespondWorkflowTaskFailedRequest failed) {
    Task task = tasks.remove(failed.getTaskToken());
    if (task == null) {
      return;
    }
    if (committedLog != null) {
      committedLog.failed(task.runId());
    }
    Instant now = clock.instant();
    RunState r = runs.computeIfAbsent(task.runId(), id -> new RunState(task.workflowId(), task.runId(),
        task.workflowType()));
    synchronized (r) {
      r.lastSeen = now;
      if (r.since == null) {
        r.since = now;
      }
      r.attempt = Math.max(r.attempt, task.attempt());
      r.failedNotTimedOut = true;
      r.cause = cause(failed.getCause());
      r.message = message(failed.getFailure());
      count(r, task.attempt(), r.cause);
    }
  }

  private void completed(ByteString token) {
    Task task = tasks.remove(token);
    if (task != null) {
      runs.remove(task.runId());
      if (committedLog != null) {
        committedLog.committed(task.runId());
      }
    }
  }

  /** Counts attempt {@code attempt} of the run's task as failed, once. */
  private void count(RunState r, int attempt, String cause) {
    if (attempt <= r.countedAttempt) {
      return;
    }
    Counter.builder(MetricNames.WORKFLOW_TASK_FAILURES)
        .description("Workflow task attempts that failed or timed out, by workflow type and cause")
        .tag("workflow_type", r.workflowType)
        .tag("cause", cause.replace(' ', '_'))
        .register(registry)
        .increment(attempt - r.countedAttempt);
    r.countedAttempt = attempt;
  }

  /** The last WorkflowTaskFailed or WorkflowTaskTimedOut after the last WorkflowTaskCompleted, or null. */
  /**
   * Whether a task polled with attempt 2 or more follows a completed task, not a failed or timed-out
   * one: the whole history came with it (no next page), and its last task event is a completion. Temporal's
   * Java test server (the embedded Temporal) numbers a task scheduled while the one before it completes
   * as attempt 2 though nothing failed; counted, thousands of these read as timeouts in a large run.
   */
  static boolean notARetry(PollWorkflowTaskQueueResponse task) {
    if (!task.getNextPageToken().isEmpty()) {
      return false;
    }
    HistoryEvent last = lastTaskOutcome(task.getHistory().getEventsList());
    return last != null && last.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED;
  }

  /**
   * Whether {@code e} is a workflow task failed by the server, not by workflow code: its sticky queue
   * was not polled in time (a busy or gone worker), and the task moved to the workflow's task queue.
   * Like a timeout, once is no sign of a failing run.
   */
  public static boolean movedFromStickyQueue(HistoryEvent e) {
    return e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED
        && e.getWorkflowTaskFailedEventAttributes().getCause()
            == WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_RESET_STICKY_TASK_QUEUE;
  }

  private static HistoryEvent lastFailureSinceCompleted(List<HistoryEvent> events) {
    HistoryEvent last = lastTaskOutcome(events);
    return last == null || last.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED ? null : last;
  }

  /** The last workflow task that ended in {@code events} (completed, failed or timed out), or null. */
  private static HistoryEvent lastTaskOutcome(List<HistoryEvent> events) {
    for (int i = events.size() - 1; i >= 0; i--) {
      switch (events.get(i).getEventType()) {
        case EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
        case EVENT_TYPE_WORKFLOW_TASK_FAILED:
        case EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT:
          return events.get(i);
        default:
          break;
      }
    }
    return null;
  }

  /** {@code WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR} -> {@code non deterministic error}. */
  public static String cause(WorkflowTaskFailedCause cause) {
    return cause.name().replace("WORKFLOW_TASK_FAILED_CAUSE_", "").replace('_', ' ').toLowerCase(Locale.ROOT);
  }

  /**
   * The innermost cause's type and message ({@code IllegalStateException: cell [3, 4] is off the grid}):
   * the SDK wraps what workflow code threw in its own "Failure handling event ..." failure.
   */
  public static String message(io.temporal.api.failure.v1.Failure failure) {
    io.temporal.api.failure.v1.Failure root = failure;
    while (root.hasCause()) {
      root = root.getCause();
    }
    String type = root.hasApplicationFailureInfo() ? root.getApplicationFailureInfo().getType() : "";
    type = type.substring(type.lastIndexOf('.') + 1);
    String text = firstLine(root.getMessage());
    return type.isEmpty() ? text : text.isEmpty() ? type : type + ": " + text;
  }

  private static String firstLine(String message) {
    String line = message == null ? "" : message.strip();
    int newline = line.indexOf('\n');
    if (newline >= 0) {
      line = line.substring(0, newline);
    }
    return line.length() > 300 ? line.substring(0, 297) + "..." : line;
  }
}
