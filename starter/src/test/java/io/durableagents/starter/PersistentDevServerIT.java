package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.durableagents.devserver.LocalTemporal;
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
 * completed runs again. Needs a {@code temporal} executable ({@value LocalTemporal#CLI_VARIABLE} or the
 * {@code PATH}); skipped, saying so, where there is none (as on the machines this project is built on).
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

  /** The Temporal CLI of this machine, or null. */
  static Path temporalCli() {
    String given = System.getenv(LocalTemporal.CLI_VARIABLE);
    if (given != null && !given.isBlank()) {
      return Path.of(given);
    }
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(d.isEmpty() ? "." : d, "temporal");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  private Process devServer(Path cli, Path db, int n) throws Exception {
    Process p = devServer(cli, db, port, dir.resolve("dev-server-" + n + ".log"));
    started.add(p);
    return p;
  }

  /** The Temporal CLI's dev server on {@code port} with its runs in {@code db}, once it says it listens. */
  static Process devServer(Path cli, Path db, int port, Path log) throws Exception {
    Process p = ChildProcesses.start("384m", log.toFile(), Map.of(), "dev-server", "--port",
        Integer.toString(port), "--db-file", db.toString(), "--temporal-cli", cli.toString());
    List<String> said = LocalStack.awaitAnnouncement(log, p, 120_000);
    assertTrue(said != null && said.get(said.size() - 1).startsWith("Temporal dev server"),
        "the dev server did not start: " + Files.readString(log));
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
    Path cli = temporalCli();
    assumeTrue(cli != null, "no Temporal CLI here (set " + LocalTemporal.CLI_VARIABLE
        + " or put 'temporal' on the PATH): the persistent dev server is not tried");
    dir = Files.createDirectories(Path.of("target", "persistent-dev-server"));
    Path db = dir.resolve("temporal.db");
    Files.deleteIfExists(db);
    Path journal = dir.resolve("journal.log");
    Files.deleteIfExists(journal);
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Process server = devServer(cli, db, 1);
    started.add(ChildProcesses.start("384m", dir.resolve("worker.log").toFile(), Map.of(
        "TEMPORAL_ADDRESS", "127.0.0.1:" + port, "DURABLE_AGENTS_RULES_DELAY_MS", "20",
        "DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString()), "worker"));
    String[] run = {"simulate", "--steps", "12", "--seed", "11", "--continue-as-new-every", "4", "--progress", "lines"};
    starter("reference", concat(run, "--id", "pds-ref"));
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + port).build());
    try {
      WorkflowClient client = WorkflowClient.newInstance(service);
      SimulationResult reference = client.newUntypedWorkflowStub("pds-ref").getResult(SimulationResult.class);
      long referenceCalls = CompletedActivities.doneInJournal(journal, 0);

      starter("start", concat(run, "--no-wait", "--id", "pds-crash"));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
      while (CompletedActivities.doneInJournal(journal, 0) < referenceCalls * 3 / 2) {
        assertTrue(System.nanoTime() < deadline, "the run did not get half way");
        Thread.sleep(20);
      }
      // kill -9 the Temporal CLI's server, then its dev-server process
      server.descendants().forEach(ProcessHandle::destroyForcibly);
      server.destroyForcibly().waitFor();
      devServer(cli, db, 2);

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
