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
}
