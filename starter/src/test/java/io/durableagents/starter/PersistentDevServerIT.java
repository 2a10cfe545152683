package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.testkit.ExecutionJournalCheck;
import io.durableagents.worker.CompletedActivities;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Temporal's real dev server (the Temporal CLI) as the local Temporal: a simulation survives the
 * server's death. The server is killed mid-simulation and started again on the same database file;
 * the run finishes with the result of an undisturbed run of the same seed, and no activity that had
 * completed runs again. {@code attach}, following the run when the server dies, says within 10 s that
 * it lost the server and how to go on; once the server is back, {@code attach} follows the run to its
 * end. The undisturbed run goes on beside the killed one, on the JVM's shared dev server; the workers run
 * in this JVM (the server is what is killed), the first {@code attach} in a process of its own (its exit
 * is timed). Needs the Temporal CLI ({@link RealDevServer}).
 */
class PersistentDevServerIT {
  private static final String RULES_DELAY_MS = "100";
  /** Where the undisturbed reference run goes, beside the run whose server is killed. */
  @RegisterExtension
  static final OnSharedDevServer referenceSpace = new OnSharedDevServer("persistent-dev-server-ref");
  private final List<Process> started = new ArrayList<>();
  private final List<WorkerInThisJvm> workers = new ArrayList<>();
  private Path dir;
  private int port;

  @AfterEach
  void stopAll() throws InterruptedException {
    workers.forEach(WorkerInThisJvm::close);
    stop(started);
  }

  /** Stops {@code started} (and their children), the last started first. */
  static void stop(List<Process> started) throws InterruptedException {
    for (int i = started.size() - 1; i >= 0; i--) {
      Process p = started.get(i);
      p.descendants().forEach(ProcessHandle::destroy);
      p.destroy();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  private Process devServer(Path cli, Path db, int n) throws Exception {
    Process p = RealDevServer.start(cli, db, port, RealDevServer.freePort(), dir.resolve("dev-server-" + n + ".log"));
    started.add(p);
    return p;
  }

  /** {@code durable-agents <args>} in this JVM with {@code env}; what it printed (also in {@code <name>.log}). */
  private String starter(String name, Map<String, String> env, String... args) throws Exception {
    CliFailuresTest.Run r = CliFailuresTest.run(env, args);
    String text = r.out() + r.err();
    Files.writeString(dir.resolve(name + ".log"), text);
    assertEquals(0, r.exitCode(), text);
    return text;
  }

  @Test
  void aSimulationSurvivesTheDevServerKilledAndStartedAgainOnItsDatabase() throws Exception {
    Path cli = RealDevServer.cli();
    dir = Files.createDirectories(Path.of("target", "persistent-dev-server"));
    Path db = dir.resolve("temporal.db");
    for (String suffix : List.of("", "-wal", "-shm")) {
      Files.deleteIfExists(dir.resolve("temporal.db" + suffix));
    }
    Path journal = dir.resolve("journal.log");
    Files.deleteIfExists(journal);
    // 10 agents, not the default 25: the kill still lands with calls of step 5 in flight; the size is not the point
    String[] run = {"simulate", "--steps", "8", "--seed", "11", "--citizens", "8", "--cops", "2",
        "--continue-as-new-every", "3", "--progress", "lines"};
    port = RealDevServer.freePort();
    Map<String, String> env = Map.of("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    Process server = devServer(cli, db, 1);
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + port).build());
    try {
      WorkflowClient client = WorkflowClient.newInstance(service);
      // the run waits for a worker until attach follows it: however long attach's JVM takes to start, the
      // kill below lands half way
      starter("start", env, concat(run, "--no-wait", "--id", "pds-crash"));
      Path attachLog = dir.resolve("attach-1.log");
      Files.deleteIfExists(attachLog);
      Process attach = ChildProcesses.start("256m", attachLog.toFile(), env, "attach", "pds-crash", "--progress", "lines");
      started.add(attach);
      // meanwhile the undisturbed reference: the same seed and settings, beside the run whose server is killed
      workers.add(WorkerInThisJvm.start("pds-ref-worker",
          referenceSpace.env(Map.of("DURABLE_AGENTS_RULES_DELAY_MS", RULES_DELAY_MS))));
      starter("reference", referenceSpace.env(), concat(run, "--no-wait", "--id", "pds-ref"));
      awaitLine(attach, attachLog, "No worker polls the task queues");
      // the worker goes on polling through the server's death and comes back with it, as in a process of its own
      workers.add(WorkerInThisJvm.start("pds-worker", Map.of("TEMPORAL_ADDRESS", "127.0.0.1:" + port,
          "DURABLE_AGENTS_RULES_DELAY_MS", RULES_DELAY_MS,
          "DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString())));
      // half way: attach has followed it to step 4 of 8
      awaitLine(attach, attachLog, "\n4/8");
      long callsAtKill = CompletedActivities.doneInJournal(journal, 0);
      // kill -9 the Temporal CLI's server, then its dev-server process
      long killed = System.nanoTime();
      RealDevServer.kill(server);
      // attach says within 10 s that it lost the server, whatever it was asking when the server died
      assertTrue(attach.waitFor(10, TimeUnit.SECONDS), "attach did not notice the server's death within 10 s: "
          + Files.readString(attachLog));
      long noticedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
      String lost = Files.readString(attachLog);
      assertEquals(Failures.UNAVAILABLE, attach.exitValue(), lost);
      assertTrue(lost.contains("lost the Temporal at 127.0.0.1:" + port + " while following 'pds-crash'"), lost);
      assertTrue(lost.contains("On a persistent Temporal the run goes on when it is back: 'attach pds-crash' then"), lost);
      System.out.println("attach noticed the dev server's kill -9 after " + noticedMillis + " ms");

      devServer(cli, db, 2);
      SimulationResult reference = referenceSpace.client().newUntypedWorkflowStub("pds-ref")
          .getResultAsync(SimulationResult.class).get(300, TimeUnit.SECONDS);
      // the run goes on by itself on the same database, and attach follows it again to its end
      String followed = starter("attach-2", env, "attach", "pds-crash", "--progress", "lines");
      assertTrue(followed.contains("8/8"), followed);
      assertTrue(followed.contains("Final counts: " + reference.finalCounts()), followed);

      SimulationResult crashed = client.newUntypedWorkflowStub("pds-crash").getResultAsync(SimulationResult.class)
          .get(300, TimeUnit.SECONDS);
      assertEquals(reference.perStep(), crashed.perStep());
      assertEquals(reference.finalCounts(), crashed.finalCounts());
      assertEquals(reference.llmCalls(), crashed.llmCalls());
      ExecutionJournalCheck.assertNoCompletedActivityRanAgain(client, "pds-crash", journal);
      long calls = CompletedActivities.doneInJournal(journal, 0);
      assertTrue(callsAtKill > 0 && callsAtKill < calls, "the kill must land mid-run: " + callsAtKill + " of "
          + calls + " calls done");
    } finally {
      service.shutdownNow();
    }
  }

  /** Waits until {@code attach} has printed {@code text}, while it runs. */
  private static void awaitLine(Process attach, Path log, String text) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
    while (!Files.readString(log).contains(text)) {
      assertTrue(attach.isAlive(), "attach ended before it printed '" + text + "': " + Files.readString(log));
      assertTrue(System.nanoTime() < deadline, "attach did not print '" + text + "': " + Files.readString(log));
      Thread.sleep(20);
    }
  }

  static String[] concat(String[] head, String... tail) {
    String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, all, head.length, tail.length);
    return all;
  }
}
