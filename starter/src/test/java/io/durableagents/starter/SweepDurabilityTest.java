package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.testkit.ExecutionJournalCheck;
import io.durableagents.worker.CompletedActivities;
import io.durableagents.workflows.experiment.ExperimentResult;
import io.durableagents.workflows.experiment.ExperimentRunOutcome;
import io.durableagents.workflows.experiment.RunStatus;
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
 * A sweep survives everything at once on Temporal's real dev server: kill -9 of the client following it
 * ({@code sweep}), of the worker running it, and of the server (started again on its database). Another
 * worker and {@code attach} take over; the experiment ends with the table of an undisturbed sweep of the
 * same grid and seeds, run by run and step by step, and no activity that had completed ran again. The
 * undisturbed sweep runs on the JVM's shared dev server, with a worker in this JVM, beside the disturbed one
 * (the kills are timed by the disturbed sweep's own progress, not by the reference's count of calls); the
 * worker that takes over runs in this JVM too (the first one is killed, so it is a process).
 */
class SweepDurabilityTest {
  private static final String RULES_DELAY_MS = "20";
  /** Where the undisturbed reference sweep goes, beside this test's own server. */
  @RegisterExtension
  static final OnSharedDevServer referenceSpace = new OnSharedDevServer("sweep-durability-ref");
  private final List<Process> started = new ArrayList<>();
  private final List<WorkerInThisJvm> workers = new ArrayList<>();
  private Path dir;
  private int port;
  private Path journal;

  @AfterEach
  void stopAll() throws InterruptedException {
    workers.forEach(WorkerInThisJvm::close);
    PersistentDevServerIT.stop(started);
  }

  @Test
  void aSweepEndsWithTheUndisturbedTableAfterItsClientWorkerAndServerAreKilled() throws Exception {
    Path cli = RealDevServer.cli();
    dir = Files.createDirectories(Path.of("target", "sweep-durability"));
    Path db = dir.resolve("temporal.db");
    for (String suffix : List.of("", "-wal", "-shm")) {
      Files.deleteIfExists(dir.resolve("temporal.db" + suffix));
    }
    journal = dir.resolve("journal.log");
    Path referenceJournal = dir.resolve("journal-ref.log");
    Files.deleteIfExists(journal);
    Files.deleteIfExists(referenceJournal);
    // 4 runs of 8 agents x 3 steps, 2 runs at once: the worker's kill once the first runs are in their second step
    // and the server's once the third run has begun land mid-sweep (its size is not the point)
    String[] sweep = {"sweep", "--steps", "3", "--citizens", "6", "--cops", "2", "--param", "legitimacy=0.3,0.8",
        "--seeds", "2", "--max-concurrent-runs", "2"};
    // the reference, undisturbed, beside the disturbed sweep (started with --no-wait: a command in this JVM
    // lends its variables to the processes started meanwhile)
    WorkerInThisJvm referenceWorker = WorkerInThisJvm.start("sweep-ref-worker", referenceSpace.env(Map.of(
        "DURABLE_AGENTS_RULES_DELAY_MS", RULES_DELAY_MS,
        "DURABLE_AGENTS_EXECUTION_LOG", referenceJournal.toAbsolutePath().toString())));
    workers.add(referenceWorker);
    CliFailuresTest.Run referenceStart = CliFailuresTest.run(referenceSpace.env(),
        PersistentDevServerIT.concat(sweep, "--no-wait", "--id", "sweep-ref"));
    assertEquals(0, referenceStart.exitCode(), referenceStart.out() + referenceStart.err());
    port = RealDevServer.freePort();
    Process server = devServer(cli, db, 1);
    Process firstWorker = worker("worker-1");

    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + port).build());
    try {
      WorkflowClient client = WorkflowClient.newInstance(service);

      // the client: a sweep that follows its experiment
      Process client1 = ChildProcesses.start("256m", dir.resolve("sweep-crash.log").toFile(),
          Map.of("TEMPORAL_ADDRESS", "127.0.0.1:" + port),
          PersistentDevServerIT.concat(sweep, "--id", "sweep-crash"));
      started.add(client1);
      awaitCallDone("/step-2", "a call of a run's second step");
      client1.destroyForcibly().waitFor();
      firstWorker.destroyForcibly().waitFor();
      long atWorkerKill = CompletedActivities.doneInJournal(journal, 0);
      workers.add(WorkerInThisJvm.start("sweep-worker-2", workerEnv()));
      awaitCallDone("sweep-crash/run-003/", "a call of the third run (one of the first two ended)");
      RealDevServer.kill(server);
      long atServerKill = CompletedActivities.doneInJournal(journal, 0);
      devServer(cli, db, 2);

      ExperimentResult reference = referenceSpace.client().newUntypedWorkflowStub("sweep-ref")
          .getResultAsync(ExperimentResult.class).get(400, TimeUnit.SECONDS);
      referenceWorker.close();
      assertEquals(4, reference.count(RunStatus.COMPLETED), reference.toString());
      long referenceCalls = CompletedActivities.doneInJournal(referenceJournal, 0);
      assertTrue(atWorkerKill < atServerKill && atServerKill < referenceCalls, "the kills must land mid-sweep: "
          + atWorkerKill + " and " + atServerKill + " of " + referenceCalls + " calls done");

      // another client follows it to its end
      CliFailuresTest.Run attach = CliFailuresTest.run(Map.of("TEMPORAL_ADDRESS", "127.0.0.1:" + port),
          "attach", "sweep-crash", "--progress", "lines");
      String followed = attach.out() + attach.err();
      Files.writeString(dir.resolve("attach.log"), followed);
      assertEquals(0, attach.exitCode(), followed);
      ExperimentResult crashed = client.newUntypedWorkflowStub("sweep-crash").getResultAsync(ExperimentResult.class)
          .get(300, TimeUnit.SECONDS);
      assertEquals(reference.runs().size(), crashed.runs().size());
      for (int i = 0; i < reference.runs().size(); i++) {
        ExperimentRunOutcome want = reference.runs().get(i);
        ExperimentRunOutcome got = crashed.runs().get(i);
        assertEquals(want.values(), got.values(), "run " + want.index());
        assertEquals(want.seed(), got.seed());
        assertEquals(RunStatus.COMPLETED, got.status(), got.toString());
        assertEquals(1, got.attempts());
        assertEquals(want.result(), got.result(), "run " + want.index() + "'s rows and totals");
      }
      assertEquals(reference.llmCalls(), crashed.llmCalls());
      assertEquals(reference.tokens(), crashed.tokens());
      ExecutionJournalCheck.Report report =
          ExecutionJournalCheck.assertNoCompletedActivityRanAgain(client, "sweep-crash", journal);
      assertEquals(2, report.workerProcesses(), report.toString());
      assertTrue(followed.contains("legitimacy"), followed);
      System.out.println("sweep-crash: " + report + "; calls done at the worker's kill " + atWorkerKill
          + ", at the server's " + atServerKill + " of " + referenceCalls);
    } finally {
      service.shutdownNow();
    }
  }

  /** Waits until the journal has a completed call of a workflow whose id contains {@code idPart}. */
  private void awaitCallDone(String idPart, String what) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
    while (!CompletedActivities.doneInJournal(journal, workflowId -> workflowId.contains(idPart))) {
      assertTrue(System.nanoTime() < deadline, "the sweep did not reach " + what);
      Thread.sleep(20);
    }
  }

  private Process devServer(Path cli, Path db, int n) throws Exception {
    Process p = RealDevServer.start(cli, db, port, RealDevServer.freePort(), dir.resolve("dev-server-" + n + ".log"));
    started.add(p);
    return p;
  }

  /** The workers' settings on this test's server: the rules model slowed a little, the shared journal. */
  private Map<String, String> workerEnv() {
    return Map.of("TEMPORAL_ADDRESS", "127.0.0.1:" + port, "DURABLE_AGENTS_RULES_DELAY_MS", RULES_DELAY_MS,
        "DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString());
  }

  private Process worker(String name) throws Exception {
    Process p = ChildProcesses.start("384m", dir.resolve(name + ".log").toFile(), workerEnv(), "worker");
    started.add(p);
    return p;
  }
}
