package io.durableagents.devserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.util.Durations;
import io.temporal.api.command.v1.Command;
import io.temporal.api.command.v1.CompleteWorkflowExecutionCommandAttributes;
import io.temporal.api.command.v1.StartChildWorkflowExecutionCommandAttributes;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.common.v1.WorkflowType;
import io.temporal.api.enums.v1.CommandType;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryRequest;
import io.temporal.api.workflowservice.v1.PollWorkflowTaskQueueRequest;
import io.temporal.api.workflowservice.v1.PollWorkflowTaskQueueResponse;
import io.temporal.api.workflowservice.v1.RespondWorkflowTaskCompletedRequest;
import io.temporal.api.workflowservice.v1.SignalWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.StartWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.WorkerFactory;
import io.temporal.workflow.Async;
import io.temporal.workflow.ChildWorkflowOptions;
import io.temporal.workflow.Promise;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A run whose worker died during a workflow task keeps its events in order: a child workflow that started
 * during the dead worker's task and completed after the task timed out has its
 * {@code ChildWorkflowExecutionStarted} before its {@code ChildWorkflowExecutionCompleted}, and the next
 * worker finishes the run. Without {@link WorkflowTaskTimeouts} the test server wrote the completion alone
 * and every later workflow task failed with {@code invalid
 * START_EVENT_RECORDED->CHILD_WORKFLOW_EXECUTION_COMPLETED} (issue 26, a worker killed just after a
 * simulation continued as new).
 *
 * <p>The dead worker is played by hand over gRPC: it takes the parent's workflow tasks and never answers
 * the second. The child's start is held (the test server starts children on the common fork-join pool,
 * which the test keeps busy) until that task runs, so that its start arrives during it, as it did in the
 * issue.
 */
class WorkflowTaskTimeoutsTest {
  private static final String PARENT_QUEUE = "timeouts-parent";
  private static final String CHILD_QUEUE = "timeouts-child";
  private final List<AutoCloseable> open = new ArrayList<>();

  @WorkflowInterface
  public interface Parent {
    @WorkflowMethod
    String run();

    @SignalMethod
    void go();
  }

  @WorkflowInterface
  public interface Child {
    @WorkflowMethod
    String run();
  }

  /** What the dead worker ran by hand: start the child, wait for the signal, return the child's result. */
  public static class ParentImpl implements Parent {
    private boolean go;

    @Override
    public String run() {
      Child child = Workflow.newChildWorkflowStub(Child.class, ChildWorkflowOptions.newBuilder()
          .setWorkflowId(Workflow.getInfo().getWorkflowId() + "/child").setTaskQueue(CHILD_QUEUE).build());
      Promise<String> result = Async.function(child::run);
      Workflow.await(() -> go);
      return result.get();
    }

    @Override
    public void go() {
      go = true;
    }
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  @Test
  void aChildThatStartedDuringATimedOutTaskIsWrittenBeforeItsCompletion() throws Exception {
    DevServer server = DevServer.start("127.0.0.1", 0);
    open.add(server);
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + server.port()).build());
    open.add(service::shutdownNow);
    var stub = service.blockingStub();
    String parentId = "timed-out-parent";
    String childId = parentId + "/child";
    stub.startWorkflowExecution(StartWorkflowExecutionRequest.newBuilder()
        .setNamespace("default").setWorkflowId(parentId).setRequestId(UUID.randomUUID().toString())
        .setWorkflowType(WorkflowType.newBuilder().setName("Parent"))
        .setTaskQueue(TaskQueue.newBuilder().setName(PARENT_QUEUE))
        .setWorkflowTaskTimeout(Durations.fromSeconds(2))
        .build());

    // the dead worker's first task starts the child, whose start waits on the busy common pool
    PollWorkflowTaskQueueResponse first = poll(service, PARENT_QUEUE);
    CountDownLatch release = new CountDownLatch(1);
    occupyCommonPool(release);
    try {
      stub.respondWorkflowTaskCompleted(RespondWorkflowTaskCompletedRequest.newBuilder()
          .setNamespace("default").setTaskToken(first.getTaskToken()).setIdentity("dead worker")
          .addCommands(Command.newBuilder()
              .setCommandType(CommandType.COMMAND_TYPE_START_CHILD_WORKFLOW_EXECUTION)
              .setStartChildWorkflowExecutionCommandAttributes(StartChildWorkflowExecutionCommandAttributes
                  .newBuilder().setNamespace("default").setWorkflowId(childId)
                  .setWorkflowType(WorkflowType.newBuilder().setName("Child"))
                  .setTaskQueue(TaskQueue.newBuilder().setName(CHILD_QUEUE))))
          .build());
      // a signal schedules its second task, which it takes and never answers: it was killed
      stub.signalWorkflowExecution(SignalWorkflowExecutionRequest.newBuilder().setNamespace("default")
          .setWorkflowExecution(WorkflowExecution.newBuilder().setWorkflowId(parentId))
          .setSignalName("go").setIdentity("test").setRequestId(UUID.randomUUID().toString()).build());
      poll(service, PARENT_QUEUE);
    } finally {
      release.countDown();
    }
    await("the child to start", () -> {
      try {
        stub.describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder().setNamespace("default")
            .setExecution(WorkflowExecution.newBuilder().setWorkflowId(childId)).build());
        return true;
      } catch (io.grpc.StatusRuntimeException e) {
        return false;
      }
    });
    await("the dead worker's task to time out", () -> has(history(service, parentId),
        e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT));
    List<HistoryEvent> untilTimeout = new ArrayList<>();
    for (HistoryEvent e : history(service, parentId)) {
      untilTimeout.add(e);
      if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT) {
        break;
      }
    }
    assertFalse(has(untilTimeout, e -> e.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED),
        "the child's start was to arrive during the dead worker's task, but was written before: " + untilTimeout);

    // the child completes after the timeout, while no worker of the parent runs
    PollWorkflowTaskQueueResponse childTask = poll(service, CHILD_QUEUE);
    stub.respondWorkflowTaskCompleted(RespondWorkflowTaskCompletedRequest.newBuilder()
        .setNamespace("default").setTaskToken(childTask.getTaskToken()).setIdentity("child worker")
        .addCommands(Command.newBuilder()
            .setCommandType(CommandType.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION)
            .setCompleteWorkflowExecutionCommandAttributes(CompleteWorkflowExecutionCommandAttributes.newBuilder()
                .setResult(DefaultDataConverter.newDefaultInstance().toPayloads("done").orElseThrow())))
        .build());
    await("the child's completion in the parent's history", () -> has(history(service, parentId),
        e -> e.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED));

    List<HistoryEvent> events = history(service, parentId);
    int started = indexOf(events, EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED);
    int completed = indexOf(events, EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED);
    assertTrue(started >= 0 && started < completed,
        "ChildWorkflowExecutionStarted at " + started + ", ChildWorkflowExecutionCompleted at " + completed
            + ": " + types(events));
    assertTrue(server.heldChangesWritten() > 0);

    // and a worker started in the dead one's place finishes the run
    WorkflowClient client = WorkflowClient.newInstance(service);
    WorkerFactory factory = WorkerFactory.newInstance(client);
    open.add(factory::shutdownNow);
    factory.newWorker(PARENT_QUEUE).registerWorkflowImplementationTypes(ParentImpl.class);
    factory.start();
    var result = client.newUntypedWorkflowStub(parentId).getResultAsync(String.class);
    try {
      assertEquals("done", result.get(30, TimeUnit.SECONDS));
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the run did not finish: " + types(history(service, parentId)));
    }
  }

  /** Keeps every thread of the common fork-join pool busy until {@code release}. */
  private static void occupyCommonPool(CountDownLatch release) throws InterruptedException {
    int threads = ForkJoinPool.commonPool().getParallelism();
    CountDownLatch busy = new CountDownLatch(threads);
    for (int i = 0; i < threads; i++) {
      ForkJoinPool.commonPool().execute(() -> {
        busy.countDown();
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }
    assertTrue(busy.await(10, TimeUnit.SECONDS), "the common pool's threads were not all free");
  }

  private static PollWorkflowTaskQueueResponse poll(WorkflowServiceStubs service, String queue) {
    PollWorkflowTaskQueueResponse task = service.blockingStub().withDeadlineAfter(20, TimeUnit.SECONDS)
        .pollWorkflowTaskQueue(PollWorkflowTaskQueueRequest.newBuilder().setNamespace("default")
            .setTaskQueue(TaskQueue.newBuilder().setName(queue)).setIdentity("dead worker").build());
    assertFalse(task.getTaskToken().isEmpty(), "no workflow task on " + queue);
    return task;
  }

  private static List<HistoryEvent> history(WorkflowServiceStubs service, String workflowId) {
    return service.blockingStub().getWorkflowExecutionHistory(GetWorkflowExecutionHistoryRequest.newBuilder()
        .setNamespace("default").setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
        .build()).getHistory().getEventsList();
  }

  private static boolean has(List<HistoryEvent> events, Predicate<HistoryEvent> test) {
    return events.stream().anyMatch(test);
  }

  private static int indexOf(List<HistoryEvent> events, EventType type) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).getEventType() == type) {
        return i;
      }
    }
    return -1;
  }

  private static List<String> types(List<HistoryEvent> events) {
    List<String> types = new ArrayList<>();
    for (HistoryEvent e : events) {
      types.add(e.getEventId() + " " + e.getEventType().name().substring("EVENT_TYPE_".length()));
    }
    return types;
  }

  private interface Check {
    boolean holds() throws Exception;
  }

  private static void await(String what, Check check) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!check.holds()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }
}
