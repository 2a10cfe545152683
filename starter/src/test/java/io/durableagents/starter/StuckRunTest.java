package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A simulation whose workflow task keeps failing is never silent: what {@code describe} prints
 * ({@link FailingWorkflowTask#of}) and what {@code simulate}, {@code demo} and {@code attach} print
 * while they follow it ({@link SimulationRunner#follow}) name the cause and the attempt within seconds,
 * on the in-memory Temporal, which reports no pending workflow task and is read from the history.
 */
class StuckRunTest {
  /** A "Simulation" whose code has a bug: every workflow task of it fails. */
  @WorkflowInterface
  public interface BrokenSimulation {
    @WorkflowMethod(name = "Simulation")
    String run();
  }

  public static class BrokenSimulationImpl implements BrokenSimulation {
    @Override
    public String run() {
      throw new IllegalStateException("deliberate bug: cell [3, 4] is off the grid");
    }
  }

  /** A "Simulation" that waits for ever, its workflow task done. */
  @WorkflowInterface
  public interface WaitingSimulation {
    @WorkflowMethod(name = "Waiting")
    String run();
  }

  public static class WaitingSimulationImpl implements WaitingSimulation {
    @Override
    public String run() {
      io.temporal.workflow.Workflow.await(() -> false);
      return "never";
    }
  }

  private TestWorkflowEnvironment env;
  private WorkflowClient client;

  @BeforeEach
  void start() {
    env = TestWorkflowEnvironment.newInstance();
    env.newWorker("stuck").registerWorkflowImplementationTypes(BrokenSimulationImpl.class,
        WaitingSimulationImpl.class);
    env.start();
    client = env.getWorkflowClient();
  }

  @AfterEach
  void stop() {
    env.close();
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
  void describeNamesTheCauseAndTheAttempt() throws Exception {
    WorkflowClient.start(client.newWorkflowStub(BrokenSimulation.class,
        WorkflowOptions.newBuilder().setTaskQueue("stuck").setWorkflowId("sim-broken").build())::run);
    WorkflowClient.start(client.newWorkflowStub(WaitingSimulation.class,
        WorkflowOptions.newBuilder().setTaskQueue("stuck").setWorkflowId("sim-fine").build())::run);
    String namespace = client.getOptions().getNamespace();

    await("the broken run to be seen failing", () ->
        FailingWorkflowTask.of(env.getWorkflowServiceStubs(), namespace, "sim-broken").isPresent());
    FailingWorkflowTask f = FailingWorkflowTask.of(env.getWorkflowServiceStubs(), namespace, "sim-broken").get();
    assertTrue(f.attempt() >= 2, "attempt " + f.attempt());
    assertEquals("workflow worker unhandled failure", f.cause());
    assertEquals("IllegalStateException: deliberate bug: cell [3, 4] is off the grid", f.message());
    assertTrue(f.since().isPresent());
    assertTrue(f.describe().startsWith("the workflow task of sim-broken keeps failing: attempt "), f.describe());
    assertTrue(f.describe().endsWith(", workflow worker unhandled failure: IllegalStateException: deliberate bug: "
        + "cell [3, 4] is off the grid"), f.describe());

    // a run whose task works is not named
    assertEquals(Optional.empty(), FailingWorkflowTask.of(env.getWorkflowServiceStubs(), namespace, "sim-fine"));
  }

  @Test
  void followingAStuckRunSaysSoWithTheCauseAndTheAttempt() throws Exception {
    WorkflowClient.start(client.newWorkflowStub(BrokenSimulation.class,
        WorkflowOptions.newBuilder().setTaskQueue("stuck").setWorkflowId("sim-broken-2").build())::run);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    SimulationRunner runner = new SimulationRunner(client, out);
    Thread follower = new Thread(() -> {
      try {
        runner.follow("sim-broken-2");
      } catch (InterruptedException | RuntimeException e) {
        // stopped by the test
      }
    });
    follower.setDaemon(true);
    follower.start();
    try {
      await("the follower to say the run is stuck", () -> bytes.toString(StandardCharsets.UTF_8).contains("Stuck: "));
      await("the cause line", () -> bytes.toString(StandardCharsets.UTF_8).contains("worker's log"));
    } finally {
      follower.interrupt();
    }
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("Stuck: the workflow task of sim-broken-2 keeps failing: attempt "), printed);
    assertTrue(printed.contains("workflow worker unhandled failure: IllegalStateException: deliberate bug"), printed);
    assertTrue(printed.contains("The worker's log has the full error; its /health names every run"), printed);
  }
}
