package io.durableagents.devserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.worker.TestServerDetector;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowTaskFailedCause;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The embedded Temporal times out sticky queues as a real server does: a workflow cached by a worker
 * that died moves on to the next worker, while a live, idle worker keeps its workflows.
 */
class StickyQueueTimeoutsTest {
  private static final String QUEUE = "sticky-test";
  private final List<AutoCloseable> open = new ArrayList<>();

  @WorkflowInterface
  public interface Collector {
    @WorkflowMethod
    String collect();

    @SignalMethod
    void add(String value);
  }

  public static class CollectorImpl implements Collector {
    private final List<String> values = new ArrayList<>();

    @Override
    public String collect() {
      Workflow.await(() -> values.contains("done"));
      return String.join(",", values);
    }

    @Override
    public void add(String value) {
      values.add(value);
    }
  }

  @WorkflowInterface
  public interface Looper {
    @WorkflowMethod
    int loop(int from);

    @io.temporal.workflow.QueryMethod
    int at();
  }

  @io.temporal.activity.ActivityInterface
  public interface Increment {
    int inc(int i);
  }

  /** Counts with an activity per increment and continues as new every 20. */
  public static class LooperImpl implements Looper {
    private int i;

    @Override
    public int loop(int from) {
      i = from;
      Increment a = Workflow.newActivityStub(Increment.class,
          io.temporal.activity.ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(5)).build());
      for (int k = 0; k < 20; k++) {
        i = a.inc(i);
      }
      if (i < 400) {
        Workflow.continueAsNew(i);
      }
      return i;
    }

    @Override
    public int at() {
      return i;
    }
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  /** A worker with a 1 s sticky timeout; {@code dies}: its ShutdownWorker call never reaches the server, as after kill -9. */
  private WorkerFactory worker(String target, boolean dies) {
    WorkflowServiceStubsOptions.Builder options = WorkflowServiceStubsOptions.newBuilder().setTarget(target);
    if (dies) {
      options.setGrpcClientInterceptors(List.of(new ClientInterceptor() {
        @Override
        public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions call, Channel next) {
          // an already expired deadline: the call fails without being sent
          return next.newCall(method, method.getFullMethodName().endsWith("/ShutdownWorker")
              ? call.withDeadlineAfter(0, TimeUnit.NANOSECONDS) : call);
        }
      }));
    }
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(options.build());
    open.add(service::shutdownNow);
    WorkerFactory factory = WorkerFactory.newInstance(WorkflowClient.newInstance(service));
    factory.newWorker(QUEUE, WorkerOptions.newBuilder()
            .setStickyQueueScheduleToStartTimeout(Duration.ofSeconds(1)).build())
        .registerWorkflowImplementationTypes(CollectorImpl.class);
    factory.start();
    return factory;
  }

  /** An embedded Temporal on a free port, and a client of it; both closed after the test. */
  private record Embedded(DevServer server, String target, WorkflowServiceStubs service, WorkflowClient client) {}

  private Embedded embedded() {
    DevServer server = DevServer.start("127.0.0.1", 0);
    open.add(server);
    String target = "127.0.0.1:" + server.port();
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget(target).build());
    open.add(service::shutdownNow);
    return new Embedded(server, target, service, WorkflowClient.newInstance(service));
  }

  private static List<HistoryEvent> events(WorkflowClient client, String id, EventType type) {
    return client.fetchHistory(id).getEvents().stream().filter(e -> e.getEventType() == type).toList();
  }

  @Test
  void aDeadWorkersStickyQueueMovesToTheNextWorkerAndALiveIdleOneKeepsIt() throws Exception {
    Embedded embedded = embedded();
    DevServer server = embedded.server();
    String target = embedded.target();
    WorkflowServiceStubs clientService = embedded.service();
    WorkflowClient client = embedded.client();
    assertFalse(TestServerDetector.stickyQueuesNeverTimeOut(clientService),
        "the embedded Temporal says it times sticky queues out");

    WorkerFactory first = worker(target, true);
    Collector wf = client.newWorkflowStub(Collector.class,
        WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId("collector").build());
    WorkflowClient.start(wf::collect);
    wf.add("a");
    // Idle for longer than the 1 s sticky timeout: a live worker keeps polling its sticky queue, so
    // the next task still goes to it (time passing is what is tested here).
    Thread.sleep(1_500);
    wf.add("b");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (events(client, "collector", EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED).size() < 3) {
      assertTrue(System.nanoTime() < deadline, "the live worker took the signals' tasks");
      Thread.sleep(20);
    }
    assertEquals(0, server.stickyTasksMoved(), "nothing moved away from a live worker");
    assertTrue(events(client, "collector", EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED).isEmpty());

    // The first worker dies without telling the server; its sticky queue keeps the next task.
    first.shutdownNow();
    first.awaitTermination(10, TimeUnit.SECONDS);
    worker(target, false);
    wf.add("done");
    String result = WorkflowStub.fromTyped(wf).getResult(30, TimeUnit.SECONDS, String.class);

    assertEquals("a,b,done", result);
    assertTrue(server.stickyTasksMoved() >= 1, "moved " + server.stickyTasksMoved());
    List<HistoryEvent> failed = events(client, "collector", EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED);
    assertEquals(WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_RESET_STICKY_TASK_QUEUE,
        failed.get(0).getWorkflowTaskFailedEventAttributes().getCause());
  }

  @Test
  void theClockKeepsOnlyTheLocksStillTakenHoweverMuchTrafficPassed() throws Exception {
    Embedded embedded = embedded();
    DevServer server = embedded.server();
    worker(embedded.target(), false);
    WorkflowClient client = embedded.client();
    for (int i = 0; i < 30; i++) {
      Collector wf = client.newWorkflowStub(Collector.class,
          WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId("traffic-" + i).build());
      WorkflowClient.start(wf::collect);
      wf.add("done");
      assertEquals("done", WorkflowStub.fromTyped(wf).getResult(10, TimeUnit.SECONDS, String.class));
    }
    Object timer = field(server.services(), "selfAdvancingTimer");
    java.util.List<?> events = (java.util.List<?>) field(timer, "lockEvents");
    assertTrue(events instanceof TimerLockBookkeeping.NoLockRecord, events.getClass().getName());
    // the stock record keeps every workflow task's lock and every release by name: 90+ after 30 workflows
    assertEquals(0, events.size(), "nothing recorded");
  }

  private static Object field(Object owner, String name) throws Exception {
    java.lang.reflect.Field f = owner.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(owner);
  }

  @Test
  void aQueryThatMeetsAContinueAsNewIsAnsweredInAboutASecondNotAfterTheClientsTimeout() throws Exception {
    WorkflowClient client = embedded().client();
    WorkerFactory factory = WorkerFactory.newInstance(client);
    open.add(factory::shutdownNow);
    io.temporal.worker.Worker w = factory.newWorker("looper");
    w.registerWorkflowImplementationTypes(LooperImpl.class);
    w.registerActivitiesImplementations((Increment) i -> i + 1);
    factory.start();
    Looper looper = client.newWorkflowStub(Looper.class,
        WorkflowOptions.newBuilder().setTaskQueue("looper").setWorkflowId("looper").build());
    WorkflowClient.start(looper::loop, 0);
    Looper queried = client.newWorkflowStub(Looper.class, "looper");
    // 20 continue-as-new boundaries, queried all the while: the bare test server drops a query that
    // meets one, and the client waits out its 10 s deadline
    long worst = 0;
    int at = 0;
    while (at < 380) {
      long t0 = System.nanoTime();
      at = queried.at();
      worst = Math.max(worst, (System.nanoTime() - t0) / 1_000_000);
    }
    assertTrue(worst < 4_000, "slowest query " + worst + " ms");
  }
}
