package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.durableagents.devserver.LocalTemporal;
import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.testkit.ExecutionJournalCheck;
import io.durableagents.worker.CompletedActivities;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.File;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Temporal's real dev server (the Temporal CLI) as the local Temporal: a simulation survives the
 * server's death. The server is killed mid-simulation and started again on the same database file;
 * the run finishes with the result of an undisturbed run of the same seed, and no activity that had
 * completed runs again. {@code attach}, following the run when the server dies, says within 10 s that
 * it lost the server and how to go on; once the server is back, {@code attach} follows the run to its
 * end. Needs the Temporal CLI ({@link RealDevServer}).
 */
class PersistentDevServerIT {
  private final List<Process> started = new ArrayList<>();
  private Path dir;
  private int port;

  @AfterEach
  void stopAll() throws InterruptedException {
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

  private String starter(String name, String... args) throws Exception {
    Path out = dir.resolve(name + ".log");
    Process p = ChildProcesses.start("256m", out.toFile(), Map.of("TEMPORAL_ADDRESS", "127.0.0.1:" + port), args);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), name + " did not finish");
    String text = Files.readString(out);
    assertEquals(0, p.exitValue(), text);
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
    port = RealDevServer.freePort();
    Process server = devServer(cli, db, 1);
    started.add(ChildProcesses.start("384m", dir.resolve("worker.log").toFile(), Map.of(
        "TEMPORAL_ADDRESS", "127.0.0.1:" + port, "DURABLE_AGENTS_RULES_DELAY_MS", "100",
        "DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString()), "worker"));
    String[] run = {"simulate", "--steps", "8", "--seed", "11", "--continue-as-new-every", "3", "--progress", "lines"};
    starter("reference", concat(run, "--id", "pds-ref"));
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + port).build());
    try {
      WorkflowClient client = WorkflowClient.newInstance(service);
      SimulationResult reference = client.newUntypedWorkflowStub("pds-ref").getResult(SimulationResult.class);
      long referenceCalls = CompletedActivities.doneInJournal(journal, 0);

      starter("start", concat(run, "--no-wait", "--id", "pds-crash"));
      Path attachLog = dir.resolve("attach-1.log");
      Files.deleteIfExists(attachLog);
      Process attach = ChildProcesses.start("256m", attachLog.toFile(), Map.of("TEMPORAL_ADDRESS", "127.0.0.1:" + port),
          "attach", "pds-crash", "--progress", "lines");
      started.add(attach);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
      while (CompletedActivities.doneInJournal(journal, 0) < referenceCalls * 3 / 2
          || !Files.readString(attachLog).contains("\n2/8")) {
        assertTrue(System.nanoTime() < deadline, "the run did not get half way");
        Thread.sleep(20);
      }
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
      // the run goes on by itself on the same database, and attach follows it again to its end
      String followed = starter("attach-2", "attach", "pds-crash", "--progress", "lines");
      assertTrue(followed.contains("8/8"), followed);
      assertTrue(followed.contains("Final counts: " + reference.finalCounts()), followed);

      SimulationResult crashed = client.newUntypedWorkflowStub("pds-crash").getResultAsync(SimulationResult.class)
          .get(300, TimeUnit.SECONDS);
      assertEquals(reference.perStep(), crashed.perStep());
      assertEquals(reference.finalCounts(), crashed.finalCounts());
      assertEquals(reference.llmCalls(), crashed.llmCalls());
      ExecutionJournalCheck.assertNoCompletedActivityRanAgain(client, "pds-crash", journal);
    } finally {
      service.shutdownNow();
    }
  }

  static String[] concat(String[] head, String... tail) {
    String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, all, head.length, tail.length);
    return all;
  }
}
