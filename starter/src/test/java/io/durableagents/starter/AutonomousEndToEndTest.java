package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.durableagents.worker.CompletedActivities;
import io.durableagents.workflows.autonomous.AutonomousAgentResult;
import io.durableagents.workflows.autonomous.AutonomousAgentWorkflow;
import io.durableagents.workflows.autonomous.AutonomousAgentWorkflowImpl;
import io.durableagents.workflows.autonomous.SubAgentReport;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.WorkflowReplayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;


/**
 * An autonomous run whose worker is killed with {@code kill -9} in the middle of a spawn: the lead of
 * {@code examples/research-lead.yaml} spawns three sub-agents (child workflows); when one has finished
 * and another still runs, the worker dies. A new worker finishes the run: the finished sub-agent is not
 * started again (its result is in the lead's history) and no completed activity runs again. The rules
 * model waits 400 ms before each answer ({@code DURABLE_AGENTS_RULES_DELAY_MS}) so that the
 * sub-agents take a moment. The killed worker is a process; the command line and the worker that takes
 * over run in this JVM.
 */
class AutonomousEndToEndTest {
  private static final String PROMPT = "What is 17 * 23, 120 / 4 and 2 ^ 10?";
  private static final String RULES_DELAY_MS = "400";

  private static Path dir;
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("autonomous-end-to-end");
  private static WorkflowClient client;

  @BeforeAll
  static void startServer() throws Exception {
    dir = Files.createDirectories(Path.of("target", "e2e-autonomous"));
    client = temporal.client();
  }

  private static Process worker(String name, Path journal) {
    return temporal.start("384m", dir.resolve(name + ".log"), Map.of(
        "DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString(),
        "DURABLE_AGENTS_RULES_DELAY_MS", RULES_DELAY_MS), "worker");
  }

  @Test
  void aWorkerKilledInTheMiddleOfASpawnLosesNoFinishedSubAgent() throws Exception {
    String id = "e2e-auto-crash";
    Path journal = dir.resolve("journal-auto-crash.log");
    Files.deleteIfExists(journal);
    Process w1 = worker("worker-auto-1", journal);
    // the command line in this JVM (its own process is not what is tested), following the run meanwhile
    ExecutorService following = Executors.newSingleThreadExecutor();
    Future<CliFailuresTest.Run> starter = following.submit(() -> CliFailuresTest.run(temporal.env(),
        "agent", "run", Path.of("..", "examples", "research-lead.yaml").toString(), "--no-worker", "--id", id,
        "-p", PROMPT));
    following.shutdown();

    List<SubAgentReport> atKill = awaitOneFinishedAndOneRunning(id);
    w1.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook, no goodbye to the server
    String finished = atKill.stream().filter(s -> s.status().equals("completed")).findFirst().orElseThrow().taskId();
    // the worker that takes over, in this JVM: what matters is that another worker finishes the run
    try (WorkerInThisJvm w2 = WorkerInThisJvm.start("worker-auto-2", Map.of(
        "TEMPORAL_ADDRESS", temporal.address(), "TEMPORAL_NAMESPACE", temporal.name(),
        "DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString(),
        "DURABLE_AGENTS_RULES_DELAY_MS", RULES_DELAY_MS))) {
      CliFailuresTest.Run r = starter.get(180, TimeUnit.SECONDS);
      String printed = r.out() + r.err();
      Files.writeString(dir.resolve("starter-agent-run.log"), printed);
      assertEquals(0, r.exitCode(), printed);
      assertTrue(printed.contains("391") && printed.contains("1024") && printed.contains("Judge verdicts:"), printed);
      check(id, journal, atKill, finished);
    }
  }

  private static void check(String id, Path journal, List<SubAgentReport> atKill, String finished) throws Exception {
    AutonomousAgentResult result = client.newUntypedWorkflowStub(id).getResult(AutonomousAgentResult.class);
    assertEquals(3, result.subAgents().size());
    assertTrue(result.subAgents().stream().allMatch(s -> s.status().equals("completed")), result.toString());

    // Each sub-agent was started exactly once, the one finished at the kill included, in one run.
    List<String> started = new ArrayList<>();
    for (HistoryEvent e : client.fetchHistory(id).getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
        started.add(e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId());
      }
    }
    assertEquals(List.of(id + "/task-1", id + "/task-2", id + "/task-3"), started);
    long runsOfFinished = client.fetchHistory(id + "/" + finished).getEvents().stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED).count();
    assertEquals(1, runsOfFinished);
    int retried = assertNoCompletedCallRanAgain(id, journal);
    WorkflowReplayer.replayWorkflowExecution(client.fetchHistory(id), AutonomousAgentWorkflowImpl.class);
    System.out.printf("kill -9 with %s finished and %s; %d calls retried because they were in flight%n",
        finished, atKill, retried);
  }

  private static List<SubAgentReport> awaitOneFinishedAndOneRunning(String id) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      try {
        List<SubAgentReport> now = client.newWorkflowStub(AutonomousAgentWorkflow.class, id).subAgents();
        if (now.stream().anyMatch(s -> s.status().equals("completed"))
            && now.stream().anyMatch(s -> s.status().equals("running"))) {
          return now;
        }
      } catch (RuntimeException notYet) {
        // the workflow has not started on a worker yet
      }
      Thread.sleep(20);
    }
    fail("no moment with one sub-agent finished and another running");
    return List.of();
  }

  /** As KilledWorkerEndToEndTest's: no completed activity of the run or its sub-agents ran again. */
  private static int assertNoCompletedCallRanAgain(String workflowId, Path journal) throws Exception {
    Map<String, Integer> completedAttempt = completedActivities(workflowId);
    Map<String, List<Integer>> executed = new HashMap<>();
    Set<String> pids = new HashSet<>();
    for (String line : Files.readAllLines(journal)) {
      String[] f = line.split("\t");
      if (!f[1].equals("start")) {
        continue;
      }
      executed.computeIfAbsent(f[2] + "|" + f[3], k -> new ArrayList<>()).add(Integer.parseInt(f[4]));
      pids.add(f[6]);
    }
    assertEquals(2, pids.size(), "both workers ran activities");
    assertEquals(completedAttempt.keySet(), executed.keySet(), "every execution belongs to a completed call");
    int retriedInFlight = 0;
    for (Map.Entry<String, Integer> e : completedAttempt.entrySet()) {
      List<Integer> attempts = executed.get(e.getKey());
      assertEquals(new HashSet<>(attempts).size(), attempts.size(), "an attempt ran twice: " + e.getKey());
      assertTrue(attempts.contains(e.getValue()), e.getKey() + " completed in attempt " + e.getValue()
          + " but the journal has attempts " + attempts + " (journal: " + journal.toAbsolutePath() + ")");
      for (int a : attempts) {
        assertTrue(a <= e.getValue(), e.getKey() + " ran again after it completed: attempt " + a);
      }
      if (e.getValue() > 1) {
        retriedInFlight++;
      }
    }
    return retriedInFlight;
  }

  /** workflow id|activity id -> the attempt that completed, for the run and its sub-agents. */
  private static Map<String, Integer> completedActivities(String workflowId) {
    Map<String, Integer> completed = CompletedActivities.of(client, workflowId);
    assertFalse(completed.isEmpty());
    return completed;
  }
}
