package io.durableagents.devserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.History;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A run that continues as new while it is queried keeps its closing event: every run of the chain
 * ends with {@code WorkflowExecutionContinuedAsNew} (or completes) and replays, and the query asked
 * during the last workflow task is answered. Without {@link ContinueAsNewCompletions} the test
 * server lost the whole completion of such a task (issue: histories ending at WorkflowTaskStarted).
 */
class ContinueAsNewCompletionsTest {
  private static final String QUEUE = "can-test";
  private static final int RUNS = 4;
  private final List<AutoCloseable> open = new ArrayList<>();

  /** Where the workflow code stops in its last task, so that a query arrives while it runs. */
  static final Semaphore arrived = new Semaphore(0);
  static final Semaphore release = new Semaphore(0);

  @WorkflowInterface
  public interface Chain {
    @WorkflowMethod
    int run(int remaining);

    @SignalMethod
    void go();

    @QueryMethod
    int remaining();
  }

  public static class ChainImpl implements Chain {
    private int remaining;
    private boolean go;

    @Override
    public int run(int remaining) {
      this.remaining = remaining;
      Workflow.await(() -> go);
      if (!Workflow.isReplaying()) {
        // holds the task that continues as new open until the test's query has reached the server
        arrived.release();
        try {
          release.tryAcquire(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      if (remaining > 0) {
        Workflow.continueAsNew(remaining - 1);
      }
      return remaining;
    }

    @Override
    public void go() {
      go = true;
    }

    @Override
    public int remaining() {
      return remaining;
    }
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  @Test
  void everyRunOfAQueriedChainEndsWithItsClosingEventAndReplays() throws Exception {
    DevServer server = DevServer.start("127.0.0.1", 0);
    open.add(server);
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + server.port()).build());
    open.add(service::shutdownNow);
    WorkflowClient client = WorkflowClient.newInstance(service);
    WorkerFactory factory = WorkerFactory.newInstance(client, WorkerFactoryOptions.newBuilder().build());
    open.add(factory::shutdownNow);
    Worker worker = factory.newWorker(QUEUE, WorkerOptions.newBuilder()
        .setDefaultDeadlockDetectionTimeout(60_000).build());
    worker.registerWorkflowImplementationTypes(ChainImpl.class);
    factory.start();

    Chain chain = client.newWorkflowStub(Chain.class,
        WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId("chain").build());
    WorkflowExecution first = WorkflowClient.start(chain::run, RUNS - 1);
    List<String> runIds = new ArrayList<>(List.of(first.getRunId()));
    for (int run = 0; run < RUNS; run++) {
      String runId = runIds.get(run);
      Chain current = client.newWorkflowStub(Chain.class, "chain", java.util.Optional.of(runId));
      current.go();
      assertTrue(arrived.tryAcquire(30, TimeUnit.SECONDS), "run " + run + " reached its last task");
      CompletableFuture<Integer> asked = CompletableFuture.supplyAsync(current::remaining);
      waitUntilBuffered(server, runId);
      release.release();
      assertEquals(RUNS - 1 - run, asked.get(30, TimeUnit.SECONDS), "query of run " + run);
      if (run < RUNS - 1) {
        runIds.add(nextRunId(service, runId));
      }
    }
    assertEquals(0, WorkflowStub.fromTyped(chain).getResult(Integer.class));

    for (int run = 0; run < RUNS; run++) {
      List<HistoryEvent> events = history(service, runIds.get(run));
      EventType closing = run < RUNS - 1
          ? EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
          : EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED;
      assertEquals(closing, events.get(events.size() - 1).getEventType(), "last event of run " + run);
      WorkflowReplayer.replayWorkflowExecution(
          new WorkflowExecutionHistory(History.newBuilder().addAllEvents(events).build(), "chain"),
          ChainImpl.class);
    }
  }

  private static List<HistoryEvent> history(WorkflowServiceStubs service, String runId) {
    return service.blockingStub().getWorkflowExecutionHistory(GetWorkflowExecutionHistoryRequest.newBuilder()
        .setNamespace("default")
        .setExecution(WorkflowExecution.newBuilder().setWorkflowId("chain").setRunId(runId))
        .build()).getHistory().getEventsList();
  }

  /** The run that {@code runId} continued as, waiting for the completion that names it. */
  private static String nextRunId(WorkflowServiceStubs service, String runId) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      for (HistoryEvent event : history(service, runId)) {
        if (event.hasWorkflowExecutionContinuedAsNewEventAttributes()) {
          return event.getWorkflowExecutionContinuedAsNewEventAttributes().getNewExecutionRunId();
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("run " + runId + " has no ContinuedAsNew event: "
        + history(service, runId).get(history(service, runId).size() - 1).getEventType());
  }

  /** Waits until the test server holds the query for the run's running workflow task. */
  private static void waitUntilBuffered(DevServer server, String runId) throws Exception {
    Object service = server.services().getWorkflowService();
    String pkg = "io.temporal.internal.testservice.";
    Class<?> executionId = Class.forName(pkg + "ExecutionId");
    Method getMutableState = service.getClass().getDeclaredMethod("getMutableState", executionId, boolean.class);
    getMutableState.setAccessible(true);
    Object state = getMutableState.invoke(service,
        executionId.getConstructor(String.class, String.class, String.class).newInstance("default", "chain", runId),
        true);
    Field task = state.getClass().getDeclaredField("workflowTaskStateMachine");
    task.setAccessible(true);
    Method getData = Class.forName(pkg + "StateMachine").getDeclaredMethod("getData");
    getData.setAccessible(true);
    Object data = getData.invoke(task.get(state));
    Field queryBuffer = data.getClass().getDeclaredField("queryBuffer");
    queryBuffer.setAccessible(true);
    Field lockField = state.getClass().getDeclaredField("lock");
    lockField.setAccessible(true);
    java.util.concurrent.locks.Lock lock = (java.util.concurrent.locks.Lock) lockField.get(state);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      lock.lock();
      try {
        if (!((Map<?, ?>) queryBuffer.get(data)).isEmpty()) {
          return;
        }
      } finally {
        lock.unlock();
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the query never reached the server");
      }
      Thread.sleep(5);
    }
  }
}
