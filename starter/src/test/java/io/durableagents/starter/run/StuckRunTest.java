package io.durableagents.starter.run;

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

  private static io.temporal.api.history.v1.HistoryEvent scheduled(int attempt) {
    return io.temporal.api.history.v1.HistoryEvent.newBuilder()
        .setEventType(io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED)
        .setWorkflowTaskScheduledEventAttributes(io.temporal.api.history.v1.WorkflowTaskScheduledEventAttributes
            .newBuilder().setAttempt(attempt)).build();
  }

  private static io.temporal.api.history.v1.HistoryEvent event(io.temporal.api.enums.v1.EventType type) {
    return io.temporal.api.history.v1.HistoryEvent.newBuilder().setEventType(type).build();
  }

  /**
   * A task that ended with {@code retried} once (attempt 2 running) is not stuck; twice (attempt 3
   * scheduled) it is: what {@link FailingWorkflowTask#fromHistory} then says.
   */
  private static FailingWorkflowTask onceIsNotStuckAgainIs(String workflowId, io.temporal.api.history.v1.HistoryEvent retried) {
    var started = event(io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED);
    assertEquals(Optional.empty(), FailingWorkflowTask.fromHistory(workflowId,
        java.util.List.of(scheduled(1), started, retried, scheduled(2), started), 0));
    return FailingWorkflowTask.fromHistory(workflowId, java.util.List.of(scheduled(1), started,
        retried, scheduled(2), started, retried, scheduled(3)), 0).orElseThrow();
  }

  @Test
  void aNonDeterminismErrorIsNamedWithWhatToDoAndASingleTimeoutIsNotStuck() {
    var started = event(io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED);
    var completed = event(io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
    var timedOut = event(io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT);
    var failed = io.temporal.api.history.v1.HistoryEvent.newBuilder()
        .setEventType(io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)
        .setWorkflowTaskFailedEventAttributes(io.temporal.api.history.v1.WorkflowTaskFailedEventAttributes.newBuilder()
            .setCause(io.temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR)
            .setFailure(io.temporal.api.failure.v1.Failure.newBuilder().setMessage("Failure handling event 5")
                .setCause(io.temporal.api.failure.v1.Failure.newBuilder()
                    .setMessage("[TMPRL1100] Command COMMAND_TYPE_START_TIMER doesn't match event ACTIVITY_TASK_SCHEDULED\nmore")
                    .setApplicationFailureInfo(io.temporal.api.failure.v1.ApplicationFailureInfo.newBuilder()
                        .setType("io.temporal.worker.NonDeterministicException")))))
        .build();
    // an earlier failure, then a completed task: that one recovered and is not counted
    var history = java.util.List.of(scheduled(1), started, failed, scheduled(2), started, completed,
        scheduled(1), started, failed, scheduled(2), started);
    FailingWorkflowTask f = FailingWorkflowTask.fromHistory("sim-nd", history, 0).orElseThrow();
    assertEquals(2, f.attempt());
    assertEquals("non deterministic error", f.cause());
    assertEquals("NonDeterministicException: [TMPRL1100] Command COMMAND_TYPE_START_TIMER doesn't match event "
        + "ACTIVITY_TASK_SCHEDULED", f.message());
    assertTrue(f.advice().contains("Workflow.getVersion"), f.advice());
    // a real server: the pending task's attempt counts (later attempts are not in its history)
    assertEquals(7, FailingWorkflowTask.fromHistory("sim-nd", history, 7).orElseThrow().attempt());

    // a worker killed in a task: one timeout, attempt 2, is not stuck; a second timeout is
    FailingWorkflowTask twice = onceIsNotStuckAgainIs("sim-k", timedOut);
    assertEquals(3, twice.attempt());
    assertEquals("timed out", twice.cause());
    assertEquals("", twice.message());
  }

  /**
   * A history the SDK rejects as out of order ({@code invalid STATE->EVENT}, as the in-memory Temporal once
   * wrote after a killed worker's task timed out, issue 26) is no bug of the workflow code: on the
   * in-memory Temporal the advice names the way out, the run's last checkpoint; elsewhere it is as before.
   */
  @Test
  void eventsOutOfOrderOnTheInMemoryTemporalNameTheLastCheckpoint() {
    FailingWorkflowTask f = new FailingWorkflowTask("sim-ooo", 30, "workflow worker unhandled failure",
        "IllegalArgumentException: ChildWorkflowStateMachine: invalid "
            + "START_EVENT_RECORDED->CHILD_WORKFLOW_EXECUTION_COMPLETED, transition history is [CREATED ...]",
        Optional.empty());
    assertTrue(f.eventsOutOfOrder());
    java.nio.file.Path last = java.nio.file.Path.of("/data/checkpoints/sim-ooo/step-000012.json");
    String advice = f.advice(true, Optional.of(last));
    assertTrue(advice.startsWith("The in-memory Temporal wrote this run's history out of order"), advice);
    assertTrue(advice.contains("its last checkpoint is " + last + ", and 'simulate --from-checkpoint " + last
        + "' goes on from there"), advice);
    assertTrue(f.advice(true, Optional.empty()).contains("start it again (the same --seed gives the same result)"),
        f.advice(true, Optional.empty()));
    assertEquals(f.advice(), f.advice(false, Optional.of(last)));
    FailingWorkflowTask bug = new FailingWorkflowTask("sim-bug", 2, "workflow worker unhandled failure",
        "IllegalStateException: deliberate bug", Optional.empty());
    assertEquals(bug.advice(), bug.advice(true, Optional.of(last)));
  }

  /**
   * The in-memory Temporal numbers the task that a completion schedules on from the failures before it:
   * after a killed worker's task timed out and the next attempt completed, the next task is scheduled as
   * "attempt 3" with nothing failed since. That is no stuck run (the kill-after-continue-as-new loop of
   * issue 26 was told it was, on every kill).
   */
  @Test
  void anAttemptNumberedOnAfterACompletionIsNotStuck() {
    var started = event(io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED);
    var completed = event(io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
    var timedOut = event(io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT);
    var childStarted = event(io.temporal.api.enums.v1.EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED);
    var history = java.util.List.of(scheduled(1), started, timedOut, scheduled(2), started, completed,
        childStarted, childStarted, scheduled(3), started);
    assertEquals(Optional.empty(), FailingWorkflowTask.fromHistory("sim-renumbered", history, 0));
    // two timeouts after it are stuck again, at the attempt the failures say
    var again = new java.util.ArrayList<>(history);
    again.addAll(java.util.List.of(timedOut, scheduled(4), started, timedOut, scheduled(5)));
    assertEquals(3, FailingWorkflowTask.fromHistory("sim-renumbered", again, 0).orElseThrow().attempt());
  }

  /**
   * A task moved off a sticky queue that no worker polled in time (a busy worker: the embedded
   * Temporal records it as a failure with cause RESET_STICKY_TASK_QUEUE) is no sign of a failing run
   * once; again and again, it is. A 10,000-agent benchmark row was ended as stuck on the first.
   */
  @Test
  void aTaskMovedOffAnUnpolledStickyQueueIsLikeATimeout() {
    var moved = io.temporal.api.history.v1.HistoryEvent.newBuilder()
        .setEventType(io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)
        .setWorkflowTaskFailedEventAttributes(io.temporal.api.history.v1.WorkflowTaskFailedEventAttributes.newBuilder()
            .setCause(io.temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_RESET_STICKY_TASK_QUEUE)
            .setFailure(io.temporal.api.failure.v1.Failure.newBuilder()
                .setMessage("sticky queue q1, which no worker polled for 5000 ms; the task moves on")))
        .build();
    FailingWorkflowTask again = onceIsNotStuckAgainIs("sim-busy", moved);
    assertEquals(3, again.attempt());
    assertEquals("reset sticky task queue", again.cause());
    assertTrue(again.message().contains("no worker polled"), again.message());
  }
}
