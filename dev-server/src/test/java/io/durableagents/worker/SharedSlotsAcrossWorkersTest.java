package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import io.durableagents.activities.llm.LlmSlotLimits;
import io.durableagents.activities.llm.LlmSlotsScope;
import io.durableagents.activities.llm.ModelSlots;
import io.durableagents.activities.llm.SharedModelSlots;
import io.durableagents.devserver.LocalTemporal;
import io.durableagents.devserver.TemporalCli;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.llm.slots.ModelSlotsWorkflow;
import io.durableagents.workflows.llm.slots.SlotsState;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Slots shared across workers ({@code DURABLE_AGENTS_LLM_SLOTS_SCOPE=shared}) on Temporal's real dev
 * server: two worker processes with {@code DURABLE_AGENTS_LLM_SLOTS=slots-stand-in=1} run fourteen agent
 * tasks at once against a model server stand-in with one slot, which counts the requests it has at
 * once. The LLM activities run side by side on both workers, yet the stand-in never has more than one
 * request at once; every task completes and no call is tried twice; the slots workflow's history says
 * what the slots cost per call.
 */
class SharedSlotsAcrossWorkersTest {
  /** More than Temporal's 10 in-flight updates per workflow, were every waiting call an update. */
  private static final int TASKS = 14;
  private static final long ANSWER_MILLIS = 300;

  private final List<Process> workers = new ArrayList<>();
  private LocalTemporal server;
  private WorkflowServiceStubs service;
  private HttpServer standIn;
  private Path dir;

  @AfterEach
  void stopAll() throws InterruptedException {
    for (Process w : workers) {
      w.destroyForcibly().waitFor();
    }
    if (service != null) {
      service.shutdownNow();
    }
    if (server != null) {
      server.close();
    }
    if (standIn != null) {
      standIn.stop(0);
    }
  }

  @Test
  void twoWorkersNeverCallTheModelServerMoreThanItsOneSlotAtOnce() throws Exception {
    Path cli = TemporalCli.forTests();
    assumeTrue(cli != null, TemporalCli.MISSING);
    dir = Files.createDirectories(Path.of("target", "shared-slots-across-workers"));
    Path journal = dir.resolve("journal.log");
    Files.deleteIfExists(journal);
    for (String suffix : List.of("", "-wal", "-shm")) {
      Files.deleteIfExists(dir.resolve("temporal.db" + suffix));
    }
    AtomicInteger atOnce = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger requests = new AtomicInteger();
    standIn = standIn(atOnce, most, requests);
    server = LocalTemporal.startDevServer(cli, dir.resolve("temporal.db"), line -> { });
    for (int i = 1; i <= 2; i++) {
      worker("worker-" + i, journal);
    }
    service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget(server.target()).build());
    WorkflowClient client = WorkflowClient.newInstance(service);

    List<String> ids = new ArrayList<>();
    for (int i = 1; i <= TASKS; i++) {
      String id = "shared-slots-task-" + i;
      ids.add(id);
      AgentTaskWorkflow task = client.newWorkflowStub(AgentTaskWorkflow.class,
          WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
      WorkflowClient.start(task::run, new AgentTaskInput("What is 6 * 7?", List.of(),
          AgentOptions.newBuilder().setStrategy(Strategy.COT).setModel(SlotsWorkerMain.MODEL).build()));
    }
    for (String id : ids) {
      AgentTaskResult result = client.newUntypedWorkflowStub(id).getResult(180, TimeUnit.SECONDS, AgentTaskResult.class);
      assertTrue(result != null, id);
    }

    assertEquals(1, most.get(), "requests the model server had at once, with one slot across two workers");
    List<String[]> calls = Files.readAllLines(journal).stream().map(l -> l.split("\t"))
        .filter(f -> f[1].equals("start") && f[5].equals("LlmChat")).toList();
    Set<String> pids = calls.stream().map(f -> f[6]).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(2, pids.size(), "both workers called the model: " + pids);
    assertTrue(calls.stream().allMatch(f -> f[4].equals("1")), "a call was tried again (timed out waiting?)");
    assertEquals(calls.size(), requests.get(), "every call reached the model server once");
    int inFlight = mostInFlight(Files.readAllLines(journal));
    assertTrue(inFlight >= 2, "the LLM activities never ran at once (" + inFlight + "): nothing was held back");

    String slotsId = ModelSlotsWorkflow.workflowId(SlotsWorkerMain.MODEL);
    SlotsState slots = client.newWorkflowStub(ModelSlotsWorkflow.class, slotsId).slots();
    assertEquals(List.of(), slots.holders(), "every slot was given back");
    assertEquals(List.of(), slots.waiting());
    WorkflowExecutionHistory history = client.fetchHistory(slotsId);
    System.out.printf("%d LLM calls through one shared slot on 2 workers: %d events in the slots workflow's "
        + "history, %.1f per call%n", calls.size(), history.getEvents().size(),
        history.getEvents().size() / (double) calls.size());

    // what a free slot costs a call: the acquire update and the release signal, one after the other
    SharedModelSlots slotsHere = new SharedModelSlots(
        LlmSlotLimits.parse(SlotsWorkerMain.MODEL + "=1"), () -> client);
    int rounds = 20;
    long start = System.nanoTime();
    for (int i = 0; i < rounds; i++) {
      try (ModelSlots.Slot slot = slotsHere.acquire(SlotsWorkerMain.MODEL, "measure-" + i, Duration.ofSeconds(60))) {
        assertTrue(slot.waited().toMillis() < 5_000);
      }
    }
    System.out.printf("a free shared slot: %.1f ms per acquire and release on the dev server%n",
        (System.nanoTime() - start) / 1e6 / rounds);
  }

  /** The most LLM activities running at once, from the journal's start and done lines. */
  private static int mostInFlight(List<String> journal) {
    List<long[]> changes = new ArrayList<>();
    for (String line : journal) {
      String[] f = line.split("\t");
      if (f[5].equals("LlmChat")) {
        changes.add(new long[] {Long.parseLong(f[0]), f[1].equals("start") ? 1 : -1});
      }
    }
    // at one instant, a done before a start: no overlap is counted that did not happen
    changes.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int running = 0;
    int most = 0;
    for (long[] c : changes) {
      running += (int) c[1];
      most = Math.max(most, running);
    }
    return most;
  }

  private void worker(String name, Path journal) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // small and quick to start, as the test kit starts its child workers (KillNineHarness)
        "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    command.addAll(List.of("-cp", classpath, SlotsWorkerMain.class.getName()));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".log").toFile()));
    pb.environment().put("TEMPORAL_ADDRESS", server.target());
    pb.environment().put(WorkerSettings.EXECUTION_LOG, journal.toAbsolutePath().toString());
    pb.environment().put(LlmSlotLimits.VARIABLE, SlotsWorkerMain.MODEL + "=1");
    pb.environment().put(LlmSlotsScope.VARIABLE, "shared");
    pb.environment().put(SlotsWorkerMain.STAND_IN_URL,
        "http://127.0.0.1:" + standIn.getAddress().getPort() + "/v1");
    workers.add(pb.start());
  }

  /**
   * An OpenAI-compatible chat completions endpoint that answers after {@value #ANSWER_MILLIS} ms and
   * counts the requests it has at once.
   */
  private static HttpServer standIn(AtomicInteger atOnce, AtomicInteger most, AtomicInteger requests)
      throws IOException {
    HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    http.setExecutor(Executors.newCachedThreadPool());
    http.createContext("/v1/chat/completions", exchange -> {
      most.accumulateAndGet(atOnce.incrementAndGet(), Math::max);
      requests.incrementAndGet();
      try {
        exchange.getRequestBody().readAllBytes();
        Thread.sleep(ANSWER_MILLIS);
        byte[] body = ("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\""
            + SlotsWorkerMain.MODEL + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
            + "\"content\":\"6 * 7 is 42.\"},\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":6,\"total_tokens\":26}}")
            .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        atOnce.decrementAndGet();
        exchange.close();
      }
    });
    http.start();
    return http;
  }
}
