package io.durableagents.starter.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command that started a worker waits for it to poll before its run starts, and says while it waits
 * that its worker is starting: not "no worker polls ... start one in another terminal".
 */
class WorkerStartTest {
  @TempDir
  Path dir;

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  private List<String> printed() {
    return bytes.toString(StandardCharsets.UTF_8).lines().toList();
  }

  /** A stand-in worker that logs that it polls after {@code seconds}, as WorkerMain does after its warm-up. */
  private Process slowWorker(Path log, int seconds) throws Exception {
    return new ProcessBuilder("sh", "-c", "sleep " + seconds + "; echo '14:28:48.580 INFO  i.d.w.WorkerMain "
        + "workflowId=- agentId=- activity=- - worker started: identity 1@vm, Temporal 127.0.0.1:7233' >> '" + log
        + "'; sleep 60").start();
  }

  @Test
  void aSlowStartIsSaidAsTheWorkerStartingAndWaitedFor() throws Exception {
    Path log = dir.resolve("worker.log");
    Files.writeString(log, "14:00:00.000 INFO  i.d.w.WorkerMain - worker started: an earlier demo's worker\n");
    long from = Files.size(log);
    Process worker = slowWorker(log, 4);
    try {
      assertEquals(WorkerStart.Outcome.STARTED, WorkerStart.await(log, from, worker, 60_000, out));
      List<String> said = printed();
      assertEquals(2, said.size(), said.toString());
      assertEquals("  The worker is starting (a new JVM, then a warm-up; slower on a busy machine): waiting up to "
          + "60 s for it to poll ...", said.get(0));
      assertTrue(said.get(1).matches("  The worker polls now \\(it took [45] s\\)\\."), said.get(1));
    } finally {
      worker.destroyForcibly();
    }
  }

  /**
   * A worker whose logging hides its INFO lines (a user's logback configuration, or a test classpath's)
   * is known to poll when Temporal lists it: the command does not wait out its bound.
   */
  @Test
  void aWorkerTemporalListsAsAPollerHasStartedWhateverItsLogSays() throws Exception {
    Path log = dir.resolve("silent-worker.log");
    Process worker = new ProcessBuilder("sh", "-c", "sleep 60").start();
    long listedAfter = System.nanoTime() + 3_000_000_000L;
    try {
      long t0 = System.nanoTime();
      assertEquals(WorkerStart.Outcome.STARTED, WorkerStart.await(log, 0, worker, 60_000, out,
          () -> System.nanoTime() > listedAfter));
      assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "it waited for the bound");
      assertTrue(printed().get(printed().size() - 1).startsWith("  The worker polls now"), printed().toString());
    } finally {
      worker.destroyForcibly();
    }
  }

  @Test
  void aQuickStartSaysNothing() throws Exception {
    Path log = dir.resolve("worker.log");
    Process worker = slowWorker(log, 0);
    try {
      assertEquals(WorkerStart.Outcome.STARTED, WorkerStart.await(log, 0, worker, 60_000, out));
      assertEquals(List.of(), printed());
    } finally {
      worker.destroyForcibly();
    }
  }

  @Test
  void aWorkerThatExitsEndsTheWaitWithItsLastWord() throws Exception {
    Path log = dir.resolve("worker.log");
    Process worker = new ProcessBuilder("sh", "-c", "echo 'durable-agents worker: bad configuration: "
        + "DURABLE_AGENTS_MODEL=nosuch is not a model' >> '" + log + "'; exit 2").start();
    assertEquals(WorkerStart.Outcome.EXITED, WorkerStart.await(log, 0, worker, 60_000, out));
    assertEquals("durable-agents worker: bad configuration: DURABLE_AGENTS_MODEL=nosuch is not a model",
        WorkerStart.lastLine(log, 0));
  }

  @Test
  void pastTheBoundTheCommandGoesOnAndSaysSo() throws Exception {
    Path log = dir.resolve("worker.log");
    Process worker = slowWorker(log, 60);
    try {
      assertEquals(WorkerStart.Outcome.TIMED_OUT, WorkerStart.await(log, 0, worker, 2_500, out));
      assertEquals("  The worker has not started polling after 2 s (log: " + log + "); going on: the run waits "
          + "for it.", printed().get(printed().size() - 1));
    } finally {
      worker.destroyForcibly();
    }
  }
}
