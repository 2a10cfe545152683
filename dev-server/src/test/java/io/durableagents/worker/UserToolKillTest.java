package io.durableagents.worker;

import io.durableagents.devserver.LocalTemporal;
import io.durableagents.devserver.TemporalCli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.durableagents.workflows.task.AgentTaskWorkflowImpl;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.WorkflowReplayer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A worker killed with {@code kill -9} while a user tool runs: an agent task looks up three keys with a
 * slow registered tool ({@link UserToolWorkerMain}); during the second lookup the worker process dies.
 * A second worker finishes the run: the tool calls that had completed never run again, the one in
 * flight is retried by the new worker once its heartbeat timeout (5 s) has passed, with the same
 * idempotency key, and no completed activity of the run ran twice.
 */
class UserToolKillTest {
  private static final String ID = "user-tool-kill";

  private final List<Process> workers = new ArrayList<>();
  private LocalTemporal server;
  private WorkflowServiceStubs service;
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
  }

  private Process worker(String name, Path journal, Path toolLog) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // small and quick to start, as the test kit starts its child workers (KillNineHarness)
        "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    if (Runtime.version().feature() >= 24) {
      command.addAll(List.of("--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED"));
    }
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    command.addAll(List.of("-cp", classpath, UserToolWorkerMain.class.getName()));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".log").toFile()));
    pb.environment().put("TEMPORAL_ADDRESS", server.target());
    pb.environment().put(WorkerSettings.EXECUTION_LOG, journal.toAbsolutePath().toString());
    pb.environment().put(UserToolWorkerMain.TOOL_LOG, toolLog.toAbsolutePath().toString());
    // No sticky queue to wait out after the kill: the next workflow task goes to any worker at once.
    pb.environment().put(WorkerSettings.STICKY, "off");
    Process p = pb.start();
    workers.add(p);
    return p;
  }

  /** The tool's log lines as {@code [event, pid, attempt, key]}. */
  private static List<String[]> toolCalls(Path toolLog) {
    try {
      if (!Files.exists(toolLog)) {
        return List.of();
      }
      return Files.readAllLines(toolLog).stream().map(l -> l.split(" ")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void await(String what, Process worker, Predicate<List<String[]>> condition, Path toolLog)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (condition.test(toolCalls(toolLog))) {
        return;
      }
      if (!worker.isAlive()) {
        fail("the worker died before " + what);
      }
      Thread.sleep(10);
    }
    fail("timed out waiting for " + what);
  }

  private static boolean has(List<String[]> calls, String event, String key) {
    return calls.stream().anyMatch(c -> c[0].equals(event) && c[3].equals(key));
  }

  @Test
  void aWorkerKilledDuringAUserToolLosesNoCompletedCallAndTheNewWorkerRetriesTheOneInFlight() throws Exception {
    dir = Files.createDirectories(Path.of("target", "user-tool-kill"));
    Path journal = dir.resolve("journal.log");
    Path toolLog = dir.resolve("tool.log");
    Files.deleteIfExists(journal);
    Files.deleteIfExists(toolLog);
    Path cli = TemporalCli.forTests();
    assumeTrue(cli != null, TemporalCli.MISSING);
    for (String suffix : List.of("", "-wal", "-shm")) {
      Files.deleteIfExists(dir.resolve("temporal.db" + suffix));
    }
    server = LocalTemporal.startDevServer(cli, dir.resolve("temporal.db"), line -> { });
    service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget(server.target()).build());
    WorkflowClient client = WorkflowClient.newInstance(service);

    Process first = worker("worker-1", journal, toolLog);
    AgentTaskWorkflow agent = client.newWorkflowStub(AgentTaskWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(ID).build());
    WorkflowClient.start(agent::run, new AgentTaskInput("Look up a, b and c.", List.of("slow_lookup"),
        AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel(UserToolWorkerMain.LookupModel.NAME)
            .build()));

    String done = ID + "/0/call_1";
    String inFlight = ID + "/0/call_2";
    await("the first lookup done and the second one running", first,
        calls -> has(calls, "done", done) && has(calls, "start", inFlight), toolLog);
    first.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook, no goodbye to the server
    String firstPid = Long.toString(first.pid());
    Process second = worker("worker-2", journal, toolLog);

    AgentTaskResult result = client.newUntypedWorkflowStub(ID).getResult(60, TimeUnit.SECONDS,
        AgentTaskResult.class);
    second.destroy();

    assertEquals("value of a; value of b; value of c", result.answer());
    assertEquals(3, result.toolCalls());
    List<String[]> calls = toolCalls(toolLog);
    String secondPid = Long.toString(second.pid());
    for (String key : List.of(done, ID + "/0/call_3")) {
      assertEquals(1, calls.stream().filter(c -> c[0].equals("start") && c[3].equals(key)).count(),
          key + " ran exactly once");
    }
    List<String> retried = calls.stream().filter(c -> c[3].equals(inFlight))
        .map(c -> c[0] + " " + (c[1].equals(firstPid) ? "worker-1" : c[1].equals(secondPid) ? "worker-2" : c[1])
            + " attempt " + c[2]).toList();
    assertEquals(List.of("start worker-1 attempt 1", "start worker-2 attempt 2", "done worker-2 attempt 2"),
        retried, "the call in flight was retried by the new worker, with the same idempotency key");

    WorkflowExecutionHistory history = client.fetchHistory(ID);
    int retriedCalls = assertNoCompletedActivityRanAgain(history, journal, Set.of(firstPid, secondPid));
    assertEquals(1, retriedCalls, "only the call in flight was retried");
    WorkflowReplayer.replayWorkflowExecution(history, AgentTaskWorkflowImpl.class);
  }

  /**
   * Every activity execution in the journal belongs to an activity the history completed, no attempt
   * ran twice and none ran after the attempt that completed it; both workers ran activities. Returns
   * how many activities completed in a later attempt than the first.
   */
  private static int assertNoCompletedActivityRanAgain(WorkflowExecutionHistory history, Path journal,
      Set<String> pids) throws IOException {
    Map<Long, String> scheduled = new HashMap<>();
    Map<Long, Integer> startedAttempt = new HashMap<>();
    Map<String, Integer> completed = new HashMap<>();
    for (HistoryEvent e : history.getEvents()) {
      switch (e.getEventType()) {
        case EVENT_TYPE_ACTIVITY_TASK_SCHEDULED ->
            scheduled.put(e.getEventId(), e.getActivityTaskScheduledEventAttributes().getActivityId());
        case EVENT_TYPE_ACTIVITY_TASK_STARTED ->
            startedAttempt.put(e.getEventId(), e.getActivityTaskStartedEventAttributes().getAttempt());
        case EVENT_TYPE_ACTIVITY_TASK_COMPLETED -> {
          var a = e.getActivityTaskCompletedEventAttributes();
          completed.put(scheduled.get(a.getScheduledEventId()), startedAttempt.get(a.getStartedEventId()));
        }
        default -> { }
      }
    }
    Map<String, List<Integer>> executed = new HashMap<>();
    Set<String> workersSeen = new HashSet<>();
    for (String line : Files.readAllLines(journal)) {
      String[] f = line.split("\t");
      if (f[1].equals("start") && f[2].equals(ID)) {
        executed.computeIfAbsent(f[3], k -> new ArrayList<>()).add(Integer.parseInt(f[4]));
        workersSeen.add(f[6]);
      }
    }
    assertEquals(pids, workersSeen, "both workers ran activities");
    assertEquals(completed.keySet(), executed.keySet(), "every execution belongs to a completed activity");
    int retried = 0;
    for (Map.Entry<String, Integer> e : completed.entrySet()) {
      List<Integer> attempts = executed.get(e.getKey());
      assertEquals(new HashSet<>(attempts).size(), attempts.size(), "an attempt ran twice: " + e.getKey());
      assertTrue(attempts.contains(e.getValue()), e.getKey() + " completed in attempt " + e.getValue()
          + " but the journal has " + attempts);
      for (int a : attempts) {
        assertTrue(a <= e.getValue(), e.getKey() + " ran again after it completed: attempt " + a);
      }
      if (e.getValue() > 1) {
        retried++;
      }
    }
    return retried;
  }
}
