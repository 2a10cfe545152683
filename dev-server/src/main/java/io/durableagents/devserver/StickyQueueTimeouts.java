package io.durableagents.devserver;

import com.google.protobuf.ByteString;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.temporal.api.enums.v1.QueryResultType;
import io.temporal.api.enums.v1.TaskQueueKind;
import io.temporal.api.enums.v1.WorkflowTaskFailedCause;
import io.temporal.api.failure.v1.Failure;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflowservice.v1.GetSystemInfoResponse;
import io.temporal.api.workflowservice.v1.PollWorkflowTaskQueueRequest;
import io.temporal.api.workflowservice.v1.PollWorkflowTaskQueueResponse;
import io.temporal.api.workflowservice.v1.QueryWorkflowRequest;
import io.temporal.api.workflowservice.v1.SignalWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.QueryWorkflowResponse;
import io.temporal.api.workflowservice.v1.RespondQueryTaskCompletedRequest;
import io.temporal.api.workflowservice.v1.RespondWorkflowTaskCompletedRequest;
import io.temporal.api.workflowservice.v1.RespondWorkflowTaskFailedRequest;
import io.temporal.api.workflowservice.v1.ShutdownWorkerRequest;
import io.temporal.api.workflowservice.v1.WorkflowServiceGrpc;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Temporal's Java test server lacks and the embedded Temporal adds in front of it: the sticky
 * queue's schedule-to-start timeout. A real server sends a workflow task to the worker that has the
 * workflow cached (its sticky queue) and, when no worker polls that queue within the timeout the worker
 * asked for (5 s by default), moves the task to the workflow's own task queue, where any worker takes
 * it. The test server never does, so a workflow whose worker died waited forever.
 *
 * <p>This gRPC interceptor watches the workers' sticky polls. A sticky queue that has had no poll open
 * for its timeout, or whose worker said it shut down, is abandoned: its tasks are taken and failed with
 * the cause {@code RESET_STICKY_TASK_QUEUE}, which makes the test server forget the sticky queue and
 * schedule the task again on the workflow's task queue, as a real server does (a query task left there
 * is answered with an error to retry). With it workers keep sticky execution on against the embedded
 * Temporal: {@link #SERVER_VERSION} in {@code GetSystemInfo} tells them so ({@link TestServerDetector}).
 *
 * <p>It also asks queries again that the test server drops: a query that arrives while a run's last
 * workflow task runs (at a continue-as-new or the end) would otherwise wait out the client's 10 s
 * deadline; see {@link #requery}. And it sends again a signal that names no run but reached a run
 * the moment it continued as new (the test server answers NOT_FOUND "Completed workflow", where a real
 * server routes the signal to the current run); see {@link #resignal}.
 */
final class StickyQueueTimeouts implements ServerInterceptor, AutoCloseable {
  /** The server version the embedded Temporal reports; Temporal's bare test server reports none. */
  static final String SERVER_VERSION = "durable-agents-dev-server";

  /** The identity of this watchdog's own polls, which it does not count as a worker's. */
  static final String IDENTITY = "durable-agents dev-server: sticky queue timeout";

  private static final Logger log = LoggerFactory.getLogger(StickyQueueTimeouts.class);
  private static final String SERVICE = WorkflowServiceGrpc.SERVICE_NAME + "/";
  private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  /** Marks the queries this class sends itself, which go to the test server unchanged. */
  private static final Metadata.Key<String> REQUERY =
      Metadata.Key.of("durable-agents-requery", Metadata.ASCII_STRING_MARSHALLER);

  private final Map<String, StickyQueue> queues = new ConcurrentHashMap<>();
  private final LongSupplier nanoTime;
  private final AtomicLong moved = new AtomicLong();
  private ScheduledExecutorService checker;
  private final ExecutorService requeries = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "dev-server-query");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean closed;
  private WorkflowServiceGrpc.WorkflowServiceBlockingStub server;

  StickyQueueTimeouts() {
    this(System::nanoTime);
  }

  StickyQueueTimeouts(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /** Starts checking the sticky queues every {@code every}, taking abandoned queues' tasks on {@code server}. */
  void start(WorkflowServiceGrpc.WorkflowServiceBlockingStub server, Duration every) {
    this.server = server;
    checker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "sticky-queue-timeouts");
      t.setDaemon(true);
      return t;
    });
    checker.scheduleWithFixedDelay(this::checkQuietly, every.toMillis(), every.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** How many workflow tasks were moved from abandoned sticky queues so far. */
  long moved() {
    return moved.get();
  }

  @Override
  public void close() {
    closed = true;
    requeries.shutdownNow();
    if (checker != null) {
      checker.shutdownNow();
      try {
        checker.awaitTermination(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** One sticky queue: how many polls are open on it, since when none is, and its timeout. */
  private static final class StickyQueue {
    final String name;
    final String namespace;
    long timeoutNanos;
    int openPolls;
    long quietSince;
    boolean shutDown;

    StickyQueue(String name, String namespace, long timeoutNanos, long now) {
      this.name = name;
      this.namespace = namespace;
      this.timeoutNanos = timeoutNanos;
      this.quietSince = now;
    }
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
      ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    String method = call.getMethodDescriptor().getFullMethodName();
    if (!method.startsWith(SERVICE)) {
      return next.startCall(call, headers);
    }
    switch (method.substring(SERVICE.length())) {
      case "GetSystemInfo":
        return next.startCall(new SimpleForwardingServerCall<>(call) {
          @Override
          @SuppressWarnings("unchecked")
          public void sendMessage(RespT message) {
            super.sendMessage((RespT) ((GetSystemInfoResponse) message).toBuilder()
                .setServerVersion(SERVER_VERSION).build());
          }
        }, headers);
      case "PollWorkflowTaskQueue":
        return trackPoll(call, headers, next);
      case "RespondWorkflowTaskCompleted":
        return onRequest(call, headers, next, request -> {
          RespondWorkflowTaskCompletedRequest r = (RespondWorkflowTaskCompletedRequest) request;
          if (r.hasStickyAttributes()) {
            var timeout = r.getStickyAttributes().getScheduleToStartTimeout();
            long nanos = timeout.getSeconds() * 1_000_000_000L + timeout.getNanos();
            used(r.getNamespace(), r.getStickyAttributes().getWorkerTaskQueue().getName(),
                nanos > 0 ? nanos : DEFAULT_TIMEOUT.toNanos());
          }
        });
      case "QueryWorkflow":
        if (headers.containsKey(REQUERY) || server == null) {
          return next.startCall(call, headers);
        }
        return requery(call, Context.current().getDeadline());
      case "SignalWorkflowExecution":
        if (headers.containsKey(REQUERY) || server == null) {
          return next.startCall(call, headers);
        }
        return resignal(call, Context.current().getDeadline());
      case "ShutdownWorker":
        return onRequest(call, headers, next, request -> {
          ShutdownWorkerRequest r = (ShutdownWorkerRequest) request;
          StickyQueue q = queues.get(r.getStickyTaskQueue());
          if (q != null) {
            synchronized (q) {
              q.shutDown = true;
            }
          }
        });
      default:
        return next.startCall(call, headers);
    }
  }

  /**
   * Answers a query by asking the test server, with a deadline of 0.5 s, then 1, 2, 4 ... within the
   * caller's own. The test server drops a query that arrives while a run's last workflow task runs
   * (it sends it afterwards as a task for the closed run, which its poll handler skips), and the
   * caller would wait out its whole deadline (the SDK's 10 s) before asking again; asked again, the
   * query reaches the next run or the closed one's history. A query only reads, so asking twice is
   * harmless.
   */
  private <ReqT, RespT> ServerCall.Listener<ReqT> requery(ServerCall<ReqT, RespT> call,
      Deadline callerDeadline) {
    call.request(1);
    return new ServerCall.Listener<>() {
      private QueryWorkflowRequest request;

      @Override
      public void onMessage(ReqT message) {
        request = (QueryWorkflowRequest) message;
      }

      @Override
      public void onHalfClose() {
        QueryWorkflowRequest query = request;
        requeries.execute(() -> answer(call, query, callerDeadline));
      }
    };
  }

  @SuppressWarnings("unchecked")
  private <ReqT, RespT> void answer(ServerCall<ReqT, RespT> call, QueryWorkflowRequest query,
      Deadline callerDeadline) {
    Metadata marked = new Metadata();
    marked.put(REQUERY, "1");
    var stub = server.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(marked));
    long attempt = 500;
    while (true) {
      long left = callerDeadline == null ? Long.MAX_VALUE : callerDeadline.timeRemaining(TimeUnit.MILLISECONDS);
      long wait = Math.min(attempt, left);
      try {
        QueryWorkflowResponse response =
            stub.withDeadlineAfter(Math.max(1, wait), TimeUnit.MILLISECONDS).queryWorkflow(query);
        call.sendHeaders(new Metadata());
        call.sendMessage((RespT) response);
        call.close(Status.OK, new Metadata());
        return;
      } catch (StatusRuntimeException e) {
        boolean retry = e.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED && wait < left && !closed;
        if (!retry) {
          Metadata trailers = e.getTrailers();
          call.close(e.getStatus(), trailers == null ? new Metadata() : trailers);
          return;
        }
        attempt *= 2;
      } catch (RuntimeException e) {
        call.close(Status.INTERNAL.withDescription(e.toString()), new Metadata());
        return;
      }
    }
  }

  /**
   * Sends a signal to the test server, and again after 50 ms, 100, 200 ... (within the caller's
   * deadline, at most 5 s) while it answers NOT_FOUND "Completed workflow" for a signal that names no
   * run: the run it reached had just continued as new, and the next run is there a moment later. A
   * NOT_FOUND signal was not delivered, so sending it again delivers it once.
   */
  private <ReqT, RespT> ServerCall.Listener<ReqT> resignal(ServerCall<ReqT, RespT> call,
      Deadline callerDeadline) {
    call.request(1);
    return new ServerCall.Listener<>() {
      private SignalWorkflowExecutionRequest request;

      @Override
      public void onMessage(ReqT message) {
        request = (SignalWorkflowExecutionRequest) message;
      }

      @Override
      public void onHalfClose() {
        SignalWorkflowExecutionRequest signal = request;
        requeries.execute(() -> signal(call, signal, callerDeadline));
      }
    };
  }

  @SuppressWarnings("unchecked")
  private <ReqT, RespT> void signal(ServerCall<ReqT, RespT> call, SignalWorkflowExecutionRequest signal,
      Deadline callerDeadline) {
    Metadata marked = new Metadata();
    marked.put(REQUERY, "1");
    var stub = server.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(marked));
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    long pause = 50;
    while (true) {
      try {
        var response = (callerDeadline == null ? stub : stub.withDeadline(callerDeadline))
            .signalWorkflowExecution(signal);
        call.sendHeaders(new Metadata());
        call.sendMessage((RespT) response);
        call.close(Status.OK, new Metadata());
        return;
      } catch (StatusRuntimeException e) {
        boolean continuedAsNew = e.getStatus().getCode() == Status.Code.NOT_FOUND
            && signal.getWorkflowExecution().getRunId().isEmpty()
            && String.valueOf(e.getStatus().getDescription()).contains("Completed workflow");
        long left = Math.min(giveUp - System.nanoTime(), callerDeadline == null ? Long.MAX_VALUE
            : callerDeadline.timeRemaining(TimeUnit.NANOSECONDS));
        if (!continuedAsNew || left < TimeUnit.MILLISECONDS.toNanos(pause) || closed) {
          Metadata trailers = e.getTrailers();
          call.close(e.getStatus(), trailers == null ? new Metadata() : trailers);
          return;
        }
        try {
          Thread.sleep(pause);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          call.close(Status.CANCELLED, new Metadata());
          return;
        }
        pause *= 2;
      } catch (RuntimeException e) {
        call.close(Status.INTERNAL.withDescription(e.toString()), new Metadata());
        return;
      }
    }
  }

  private <ReqT, RespT> ServerCall.Listener<ReqT> onRequest(ServerCall<ReqT, RespT> call,
      Metadata headers, ServerCallHandler<ReqT, RespT> next, java.util.function.Consumer<Object> seen) {
    return new SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
      @Override
      public void onMessage(ReqT message) {
        seen.accept(message);
        super.onMessage(message);
      }
    };
  }

  /** Counts a worker's sticky poll as open from its request until its call closes. */
  private <ReqT, RespT> ServerCall.Listener<ReqT> trackPoll(
      ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    AtomicReference<StickyQueue> open = new AtomicReference<>();
    ServerCall<ReqT, RespT> tracked = new SimpleForwardingServerCall<>(call) {
      @Override
      public void close(Status status, Metadata trailers) {
        pollEnded(open.getAndSet(null));
        super.close(status, trailers);
      }
    };
    return new SimpleForwardingServerCallListener<>(next.startCall(tracked, headers)) {
      @Override
      public void onMessage(ReqT message) {
        PollWorkflowTaskQueueRequest r = (PollWorkflowTaskQueueRequest) message;
        if (r.getTaskQueue().getKind() == TaskQueueKind.TASK_QUEUE_KIND_STICKY
            && !IDENTITY.equals(r.getIdentity())) {
          open.set(pollStarted(r.getNamespace(), r.getTaskQueue().getName()));
        }
        super.onMessage(message);
      }

      @Override
      public void onCancel() {
        pollEnded(open.getAndSet(null));
        super.onCancel();
      }
    };
  }

  private StickyQueue queue(String namespace, String name, long timeoutNanos) {
    return queues.computeIfAbsent(name,
        n -> new StickyQueue(n, namespace, timeoutNanos, nanoTime.getAsLong()));
  }

  private void used(String namespace, String name, long timeoutNanos) {
    StickyQueue q = queue(namespace, name, timeoutNanos);
    synchronized (q) {
      q.timeoutNanos = timeoutNanos;
    }
  }

  private StickyQueue pollStarted(String namespace, String name) {
    StickyQueue q = queue(namespace, name, DEFAULT_TIMEOUT.toNanos());
    synchronized (q) {
      q.openPolls++;
      q.shutDown = false;
    }
    return q;
  }

  private void pollEnded(StickyQueue q) {
    if (q == null) {
      return;
    }
    synchronized (q) {
      q.openPolls--;
      if (q.openPolls == 0) {
        q.quietSince = nanoTime.getAsLong();
      }
    }
  }

  /** True when no worker has polled {@code q} for its timeout, or its worker shut down. */
  private boolean abandoned(StickyQueue q) {
    synchronized (q) {
      return q.openPolls == 0
          && (q.shutDown || nanoTime.getAsLong() - q.quietSince >= q.timeoutNanos);
    }
  }

  private void checkQuietly() {
    try {
      check();
    } catch (RuntimeException e) {
      if (!closed) {
        log.warn("checking sticky queues failed; trying again", e);
      }
    }
  }

  /** Moves the workflow tasks of every abandoned sticky queue to their workflows' task queues. */
  void check() {
    for (StickyQueue q : queues.values()) {
      while (!closed && abandoned(q)) {
        PollWorkflowTaskQueueResponse task;
        try {
          task = server.withDeadlineAfter(100, TimeUnit.MILLISECONDS).pollWorkflowTaskQueue(
              PollWorkflowTaskQueueRequest.newBuilder()
                  .setNamespace(q.namespace)
                  .setTaskQueue(TaskQueue.newBuilder().setName(q.name)
                      .setKind(TaskQueueKind.TASK_QUEUE_KIND_STICKY))
                  .setIdentity(IDENTITY)
                  .build());
        } catch (StatusRuntimeException e) {
          if (e.getStatus().getCode() != Status.Code.DEADLINE_EXCEEDED && !closed) {
            log.warn("cannot poll abandoned sticky queue {}", q.name, e);
          }
          break;
        }
        if (task.getTaskToken().isEmpty()) {
          break;
        }
        release(q, task);
      }
    }
  }

  private void release(StickyQueue q, PollWorkflowTaskQueueResponse task) {
    ByteString token = task.getTaskToken();
    String why = "sticky queue " + q.name + (q.shutDown ? ", whose worker shut down"
        : ", which no worker polled for " + Duration.ofNanos(q.timeoutNanos).toMillis() + " ms");
    if (task.hasQuery()) {
      server.respondQueryTaskCompleted(RespondQueryTaskCompletedRequest.newBuilder()
          .setNamespace(q.namespace)
          .setTaskToken(token)
          .setCompletedType(QueryResultType.QUERY_RESULT_TYPE_FAILED)
          .setErrorMessage(why + "; query again")
          .build());
      return;
    }
    server.respondWorkflowTaskFailed(RespondWorkflowTaskFailedRequest.newBuilder()
        .setNamespace(q.namespace)
        .setTaskToken(token)
        .setCause(WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_RESET_STICKY_TASK_QUEUE)
        .setFailure(Failure.newBuilder().setMessage(why + "; the task moves to the workflow's task queue"))
        .setIdentity(IDENTITY)
        .build());
    moved.incrementAndGet();
    log.info("moved a workflow task of {} to its task queue from {}",
        task.getWorkflowExecution().getWorkflowId(), why);
  }
}
