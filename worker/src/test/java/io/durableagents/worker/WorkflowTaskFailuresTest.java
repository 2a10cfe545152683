package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.durableagents.activities.metrics.MetricNames;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A run whose workflow task keeps failing is never silent on the worker: {@code /health} names it
 * with its cause and attempt, and the failure metric counts its attempts; a run that works is not
 * named.
 */
class WorkflowTaskFailuresTest {
  /** A workflow whose code has a bug: every workflow task of it fails. */
  @WorkflowInterface
  public interface Broken {
    @WorkflowMethod
    String run();
  }

  public static class BrokenImpl implements Broken {
    @Override
    public String run() {
      throw new IllegalStateException("deliberate bug: cell [3, 4] is off the grid");
    }
  }

  /** A workflow that works. */
  @WorkflowInterface
  public interface Fine {
    @WorkflowMethod
    String run();
  }

  public static class FineImpl implements Fine {
    @Override
    public String run() {
      return "fine";
    }
  }

  /** A workflow that waits for a signal; its first task holds until the test has sent it. */
  @WorkflowInterface
  public interface Waits {
    @WorkflowMethod
    String run();

    @io.temporal.workflow.SignalMethod
    void go();
  }

  static final java.util.concurrent.CountDownLatch FIRST_TASK = new java.util.concurrent.CountDownLatch(1);
  static final java.util.concurrent.CountDownLatch SIGNALLED = new java.util.concurrent.CountDownLatch(1);

  public static class WaitsImpl implements Waits {
    private boolean go;

    @Override
    public String run() {
      if (!io.temporal.workflow.Workflow.isReplaying()) {
        FIRST_TASK.countDown();
        try {
          // the signal arrives while this task runs: the server schedules the next one as it completes
          SIGNALLED.await(500, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      io.temporal.workflow.Workflow.await(() -> go);
      return "went";
    }

    @Override
    public void go() {
      go = true;
    }
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out waiting for " + what);
      }
      Thread.sleep(100);
    }
  }

  @Test
  void aFailingWorkflowTaskIsNamedOnHealthAndCounted() throws Exception {
    AtomicReference<WorkflowTaskFailures> watcher = new AtomicReference<>();
    try (MetricsServer metrics = new MetricsServer("127.0.0.1", 0, () -> true,
        () -> watcher.get() == null ? List.of() : watcher.get().healthLines())) {
      WorkflowTaskFailures failures = new WorkflowTaskFailures(metrics.registry());
      watcher.set(failures);
      TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
          .setWorkflowServiceStubsOptions(WorkflowServiceStubsOptions.newBuilder()
              .setGrpcClientInterceptors(List.of(failures)).build())
          .build());
      try {
        Worker worker = env.newWorker("failing-tasks");
        worker.registerWorkflowImplementationTypes(BrokenImpl.class, FineImpl.class);
        env.start();
        WorkflowClient client = env.getWorkflowClient();
        assertEquals("fine", client.newWorkflowStub(Fine.class,
            WorkflowOptions.newBuilder().setTaskQueue("failing-tasks").setWorkflowId("fine-1").build()).run());
        WorkflowClient.start(client.newWorkflowStub(Broken.class,
            WorkflowOptions.newBuilder().setTaskQueue("failing-tasks").setWorkflowId("broken-1").build())::run);

        await("the broken run to be reported failing", () -> !failures.failing().isEmpty());
        WorkflowTaskFailures.Failing f = failures.failing().get(0);
        assertEquals("broken-1", f.workflowId());
        assertEquals("Broken", f.workflowType());
        assertTrue(f.attempt() >= 2, "attempt " + f.attempt());
        assertEquals("workflow worker unhandled failure", f.cause());
        assertTrue(f.message().contains("deliberate bug: cell [3, 4] is off the grid"), f.message());
        assertEquals(1, failures.failing().size(), "the run that works is not named: " + failures.failing());

        HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + metrics.port() + "/health")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode());
        assertTrue(health.body().startsWith("ok\nworkflow tasks failing: 1 run(s)"), health.body());
        assertTrue(health.body().contains("broken-1 (Broken): attempt "), health.body());
        assertTrue(health.body().contains("workflow worker unhandled failure: IllegalStateException: deliberate bug"), health.body());

        String scrape = metrics.registry().scrape();
        assertTrue(scrape.contains(MetricNames.WORKFLOW_TASK_FAILURES
            + "_total{cause=\"workflow_worker_unhandled_failure\",workflow_type=\"Broken\"} 1.0"), scrape);
        assertTrue(scrape.contains(MetricNames.WORKFLOW_TASKS_FAILING + " 1.0"), scrape);
      } finally {
        env.close();
      }
    }
  }

  /**
   * The embedded Temporal numbers a task scheduled while the one before it completes as attempt 2
   * though nothing failed: that is not a retry, and is neither counted nor reported.
   */
  @Test
  void aTaskThatFollowsACompletedOneIsNotCountedAsARetry() throws Exception {
    java.util.concurrent.atomic.AtomicInteger highestAttempt = new java.util.concurrent.atomic.AtomicInteger();
    io.grpc.ClientInterceptor attempts = new io.grpc.ClientInterceptor() {
      @Override
      public <Q, R> io.grpc.ClientCall<Q, R> interceptCall(io.grpc.MethodDescriptor<Q, R> method,
          io.grpc.CallOptions options, io.grpc.Channel next) {
        return new io.grpc.ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, io.grpc.Metadata headers) {
            super.start(new io.grpc.ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
              @Override
              public void onMessage(R message) {
                if (message instanceof io.temporal.api.workflowservice.v1.PollWorkflowTaskQueueResponse poll
                    && poll.getWorkflowType().getName().equals("Waits")) {
                  highestAttempt.accumulateAndGet(poll.getAttempt(), Math::max);
                }
                super.onMessage(message);
              }
            }, headers);
          }
        };
      }
    };
    io.micrometer.prometheusmetrics.PrometheusMeterRegistry registry =
        new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
    WorkflowTaskFailures failures = new WorkflowTaskFailures(registry);
    TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
        .setWorkflowServiceStubsOptions(WorkflowServiceStubsOptions.newBuilder()
            .setGrpcClientInterceptors(List.of(failures, attempts)).build())
        .build());
    try {
      Worker worker = env.newWorker("follow-on-tasks");
      worker.registerWorkflowImplementationTypes(WaitsImpl.class);
      env.start();
      WorkflowClient client = env.getWorkflowClient();
      Waits stub = client.newWorkflowStub(Waits.class,
          WorkflowOptions.newBuilder().setTaskQueue("follow-on-tasks").setWorkflowId("waits-1").build());
      WorkflowClient.start(stub::run);
      assertTrue(FIRST_TASK.await(30, java.util.concurrent.TimeUnit.SECONDS));
      client.newWorkflowStub(Waits.class, "waits-1").go();
      SIGNALLED.countDown();
      assertEquals("went", client.newUntypedWorkflowStub("waits-1").getResult(String.class));

      assertEquals(2, highestAttempt.get(), "the server numbered the follow-on task attempt 2");
      assertTrue(failures.failing().isEmpty(), failures.failing().toString());
      String scrape = registry.scrape();
      assertTrue(!scrape.contains(MetricNames.WORKFLOW_TASK_FAILURES + "_total{"), scrape);
    } finally {
      env.close();
    }
  }

  @Test
  void aRetryIsToldByTheFailureOrTimeoutAfterTheLastCompletedTask() {
    assertTrue(WorkflowTaskFailures.notARetry(poll(false, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
        io.temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)));
    assertTrue(!WorkflowTaskFailures.notARetry(poll(false, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
        io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT)));
    assertTrue(!WorkflowTaskFailures.notARetry(poll(false, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
        io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)));
    // a first page of a longer history cannot tell: counted as before
    assertTrue(!WorkflowTaskFailures.notARetry(poll(true, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)));
    // the first task of a run, retried: nothing completed yet
    assertTrue(!WorkflowTaskFailures.notARetry(poll(false, io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED)));
  }

  private static io.temporal.api.workflowservice.v1.PollWorkflowTaskQueueResponse poll(
      boolean morePages, io.temporal.api.enums.v1.EventType... types) {
    io.temporal.api.history.v1.History.Builder history = io.temporal.api.history.v1.History.newBuilder();
    for (io.temporal.api.enums.v1.EventType t : types) {
      history.addEvents(io.temporal.api.history.v1.HistoryEvent.newBuilder().setEventType(t));
    }
    io.temporal.api.workflowservice.v1.PollWorkflowTaskQueueResponse.Builder b =
        io.temporal.api.workflowservice.v1.PollWorkflowTaskQueueResponse.newBuilder().setAttempt(2).setHistory(history);
    if (morePages) {
      b.setNextPageToken(com.google.protobuf.ByteString.copyFromUtf8("next"));
    }
    return b.build();
  }
}
