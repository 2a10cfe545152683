package io.durableagents.worker;

import io.durableagents.devserver.DevServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import io.durableagents.activities.tools.DurableTool;
import io.durableagents.activities.tools.ToolCallContext;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.workflow.v1.PendingActivityInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A long user tool on a worker that stops responding: while the worker lives, its heartbeats (the
 * worker's own, carrying the tool's details) keep the call alive well past the heartbeat timeout; once
 * it is cut off from Temporal, the call is retried on another worker after the heartbeat timeout (1 s)
 * rather than the start-to-close timeout (5 min), and the retry reads where the first attempt got to.
 *
 * <p>Both workers run in this JVM against the embedded Temporal, each over its own connection; the
 * first one "dies" when its connection is shut down (its polls are cancelled, nothing it sends
 * arrives), while its tool thread stays blocked, as a hung process's would.
 */
class UserToolHeartbeatTest {
  /** Exports a table in six parts, heartbeating each; the first attempt hangs after part three. */
  public static class Export {
    final List<String> attempts = Collections.synchronizedList(new ArrayList<>());
    final CountDownLatch hung = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Tool(name = "export_table", value = "Exports a table to the warehouse.")
    @DurableTool(startToClose = "PT5M", heartbeat = "PT1S", initialInterval = "PT0.1S")
    public String export(@P("the table") String table, ToolCallContext call) throws InterruptedException {
      int from = call.lastHeartbeatDetails(Integer.class).orElse(0);
      attempts.add("attempt " + call.attempt() + " from part " + from + " key " + call.idempotencyKey());
      for (int part = from + 1; part <= 6; part++) {
        call.heartbeat(part);
        if (call.attempt() == 1 && part == 3) {
          hung.countDown();
          release.await(); // hangs: only the worker's own heartbeats go on, until it is cut off
          throw new IllegalStateException("released at the end of the test");
        }
      }
      return table + ": 6 parts, attempt " + call.attempt() + " went on after part " + from;
    }
  }

  private final List<AutoCloseable> open = new ArrayList<>();
  private final Export export = new Export();
  private final ScriptedChatModel model = new ScriptedChatModel();

  @AfterEach
  void closeAll() throws Exception {
    export.release.countDown();
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  /** A worker on its own connection to {@code target}; closing its connection is its death. */
  private WorkflowServiceStubs worker(String target) {
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget(target).build());
    DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().registerModel("scripted", model)
        .registerTool(export).setStickyExecution(false).build();
    WorkerFactory factory = WorkerFactory.newInstance(
        WorkflowClient.newInstance(service, WorkflowClientOptions.newBuilder().setPlugins(plugin).build()));
    factory.start();
    open.add(service::shutdownNow);
    open.add(factory::shutdownNow);
    return service;
  }

  private static ToolExecutionRequest call(String id, String tool, String arguments) {
    return ToolExecutionRequest.builder().id(id).name(tool).arguments(arguments).build();
  }

  private static <T> T await(String what, Duration timeout, Supplier<Optional<T>> condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<T> value = condition.get();
      if (value.isPresent()) {
        return value.get();
      }
      Thread.sleep(20);
    }
    fail("timed out waiting for " + what);
    return null;
  }

  private static Optional<PendingActivityInfo> pendingTool(WorkflowServiceStubs service, String id) {
    var response = service.blockingStub().describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
        .setNamespace(TemporalConnection.DEFAULT_NAMESPACE)
        .setExecution(WorkflowExecution.newBuilder().setWorkflowId(id)).build());
    return response.getPendingActivitiesList().stream()
        .filter(a -> a.getActivityType().getName().equals("ToolExecute")).findFirst();
  }

  private static int details(PendingActivityInfo activity) {
    return DefaultDataConverter.STANDARD_INSTANCE.fromPayloads(0, Optional.of(activity.getHeartbeatDetails()),
        Integer.class, Integer.class);
  }

  @Test
  void aLongToolHeartbeatsAndIsRetriedAfterTheHeartbeatTimeoutWhenItsWorkerStopsResponding() throws Exception {
    DevServer server = DevServer.start("127.0.0.1", 0);
    open.add(server);
    String target = "127.0.0.1:" + server.port();
    WorkflowServiceStubs client = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget(target).build());
    open.add(client::shutdownNow);
    WorkflowClient workflows = WorkflowClient.newInstance(client);
    model.then(AiMessage.from(call("call_1", "export_table", "{\"table\":\"orders\"}")))
        .then(AiMessage.from(call("call_2", "finish", "{\"answer\":\"exported\"}")));

    WorkflowServiceStubs first = worker(target);
    String id = "export-orders";
    AgentTaskWorkflow agent = workflows.newWorkflowStub(AgentTaskWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
    WorkflowClient.start(agent::run, new AgentTaskInput("Export the orders table.", List.of("export_table"),
        AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel("scripted").build()));

    assertTrue(export.hung.await(30, TimeUnit.SECONDS), "the first attempt started: " + export.attempts);
    // Hung after part 3, the tool is kept alive by the worker's heartbeats, which carry its details:
    // the server has them, and still has them more than two heartbeat timeouts after the tool's last one.
    PendingActivityInfo hung = await("heartbeats recorded", Duration.ofSeconds(20),
        () -> pendingTool(client, id).filter(a -> a.hasHeartbeatDetails() && details(a) == 3));
    long since = hung.getLastHeartbeatTime().getSeconds() * 1000 + hung.getLastHeartbeatTime().getNanos() / 1_000_000;
    PendingActivityInfo alive = await("heartbeats 2 s later", Duration.ofSeconds(20),
        () -> pendingTool(client, id).filter(a -> {
          var t = a.getLastHeartbeatTime();
          return t.getSeconds() * 1000 + t.getNanos() / 1_000_000 > since + 2000;
        }));
    assertEquals(1, alive.getAttempt(), "a live worker's long tool is never retried");
    assertEquals(3, details(alive));

    first.shutdownNow(); // the first worker stops responding; its tool thread stays blocked
    long cut = System.nanoTime();
    worker(target);

    AgentTaskResult result = workflows.newUntypedWorkflowStub(id).getResult(30, TimeUnit.SECONDS,
        AgentTaskResult.class);
    long retriedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cut);
    System.out.printf("the hung tool call was retried and done on the second worker %d ms after the first one "
        + "stopped responding%n", retriedAfterMillis);

    assertEquals("exported", result.answer());
    ToolExecutionResultMessage seen = (ToolExecutionResultMessage) model.requests.get(1).messages()
        .get(model.requests.get(1).messages().size() - 1);
    assertEquals("orders: 6 parts, attempt 2 went on after part 3", seen.text());
    assertEquals(List.of("attempt 1 from part 0 key export-orders/0/call_1",
        "attempt 2 from part 3 key export-orders/0/call_1"), export.attempts);
    assertTrue(retriedAfterMillis < 30_000, "retried after the heartbeat timeout, not the 5 min start-to-close: "
        + retriedAfterMillis + " ms");
    int attempt = 0;
    for (HistoryEvent e : workflows.fetchHistory(id).getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
        attempt = Math.max(attempt, e.getActivityTaskStartedEventAttributes().getAttempt());
      }
      if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
          && e.getActivityTaskScheduledEventAttributes().getActivityType().getName().equals("ToolExecute")) {
        assertEquals(1, e.getActivityTaskScheduledEventAttributes().getHeartbeatTimeout().getSeconds());
        assertEquals(300, e.getActivityTaskScheduledEventAttributes().getStartToCloseTimeout().getSeconds());
      }
    }
    assertEquals(2, attempt, "the tool call's second attempt completed it");
    assertNotNull(result.turns().get(0).outcomes().get(0));
  }
}
