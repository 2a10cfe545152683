package io.durableagents.starter.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.CliFailuresTest;
import io.durableagents.starter.Failures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check-execution-log FILE...}: did any completed call run twice? Read from the execution logs of
 * two workers, one of which was killed in the middle of a call.
 */
class CheckExecutionLogCommandTest {
  private static String line(long millis, String event, String workflow, String activity, int attempt,
      String type, int pid) {
    return millis + "\t" + event + "\t" + workflow + "\t" + activity + "\t" + attempt + "\t" + type + "\t" + pid
        + "\trun-1\n";
  }

  @Test
  void aCallInFlightAtAKillIsARetryAndACallFinishedTwiceOnALiveWorkerIsNamed(@TempDir Path dir) throws Exception {
    Path first = dir.resolve("worker-1.tsv");
    Path second = dir.resolve("worker-2.tsv");
    // Worker 100 finishes call 1, starts call 2 and is killed; worker 200 runs call 2's next attempt.
    Files.writeString(first, line(1000, "start", "sim", "1", 1, "LlmChat", 100)
        + line(1100, "done", "sim", "1", 1, "LlmChat", 100)
        + line(1200, "start", "sim", "2", 1, "LlmChat", 100));
    Files.writeString(second, line(5000, "start", "sim", "2", 2, "LlmChat", 200)
        + line(5100, "done", "sim", "2", 2, "LlmChat", 200));
    CliFailuresTest.Run clean = CliFailuresTest.run("check-execution-log", first.toString(), second.toString());
    assertEquals(Failures.OK, clean.exitCode(), clean.out() + clean.err());
    assertEquals(List.of("5 lines from 2 worker process(es): 2 completed calls, 1 of them finished in a later "
        + "attempt (retried), 0 finished on a worker that died before reporting it, 0 ran twice on a live worker.",
        "No completed call ran twice."), clean.out().lines().toList());

    // Worker 200's call 3 finishes in attempt 2, its completion is refused, and attempt 3 runs it again.
    Files.writeString(second, line(6000, "start", "sim", "3", 1, "LlmChat", 200)
        + line(7000, "failed", "sim", "3", 1, "LlmChat", 200)
        + line(7100, "start", "sim", "3", 2, "LlmChat", 200)
        + line(7200, "done", "sim", "3", 2, "LlmChat", 200)
        + line(9000, "start", "sim", "3", 3, "LlmChat", 200)
        + line(9100, "done", "sim", "3", 3, "LlmChat", 200), java.nio.file.StandardOpenOption.APPEND);
    CliFailuresTest.Run twice = CliFailuresTest.run("check-execution-log", first.toString(), second.toString());
    assertEquals(Failures.FAILED, twice.exitCode(), twice.out() + twice.err());
    assertTrue(twice.out().contains("ran twice: LlmChat 3 of sim (run run-1): attempt 2 finished on worker 200, "
        + "then attempt 3 finished on worker 200 (worker 200 went on running calls after that: it was alive)"),
        twice.out());
    assertEquals("check-execution-log: 1 completed call(s) ran twice on a worker that was alive",
        twice.err().strip());

    CliFailuresTest.Run missing = CliFailuresTest.run("check-execution-log", dir.resolve("nope.tsv").toString());
    assertEquals(Failures.USAGE, missing.exitCode());
    assertTrue(missing.err().startsWith("check-execution-log: cannot read " + dir.resolve("nope.tsv")
        + ": no such file"), missing.err());
    CliFailuresTest.assertNoTrace(missing);
  }

  /**
   * What chaos runs showed: a worker finishes a call, writes a line 1-2 ms later (another call starting)
   * and is killed milliseconds after, before it reports the result; Temporal runs the call again on
   * another worker. That is at-least-once delivery, not a call run twice on a live worker: the killed
   * worker wrote nothing once the call ran again.
   */
  @Test
  void aCallFinishedOnAWorkerKilledBeforeItReportedItIsAtLeastOnceDeliveryNotALiveWorkerRunningItTwice(
      @TempDir Path dir) throws Exception {
    Path first = dir.resolve("worker-1.tsv");
    Path second = dir.resolve("worker-2.tsv");
    Files.writeString(first, line(1000, "start", "sim", "4", 1, "LlmChat", 100)
        + line(3000, "start", "sim", "5", 1, "ToolExecute", 100)
        + line(3010, "done", "sim", "4", 1, "LlmChat", 100)
        + line(3012, "start", "sim", "6", 1, "LlmChat", 100));
    Files.writeString(second, line(13000, "start", "sim", "4", 2, "LlmChat", 200)
        + line(13400, "done", "sim", "4", 2, "LlmChat", 200)
        + line(13500, "start", "sim", "5", 2, "ToolExecute", 200)
        + line(13510, "done", "sim", "5", 2, "ToolExecute", 200)
        + line(13600, "start", "sim", "6", 2, "LlmChat", 200)
        + line(14000, "done", "sim", "6", 2, "LlmChat", 200));
    CliFailuresTest.Run run = CliFailuresTest.run("check-execution-log", first.toString(), second.toString());
    assertEquals(Failures.OK, run.exitCode(), run.out() + run.err());
    assertEquals(List.of("10 lines from 2 worker process(es): 3 completed calls, 2 of them finished in a later "
            + "attempt (retried), 1 finished on a worker that died before reporting it, 0 ran twice on a live worker.",
        "finished on a worker that died before reporting it: LlmChat 4 of sim (run run-1): attempt 1 finished on "
            + "worker 100, then attempt 2 finished on worker 200 (worker 100 wrote its last line 2 ms after that and "
            + "nothing once the call ran again 9990 ms after it: it died before reporting it)",
        "No completed call ran twice on a live worker; 1 finished on a worker that died before reporting it, and "
            + "Temporal ran it again (at-least-once delivery)."), run.out().lines().toList());
    assertEquals("", run.err());

    // The same call, but worker 100 lives on and writes lines after the call ran again: ran twice.
    Files.writeString(first, line(13300, "start", "sim", "7", 1, "LlmChat", 100),
        java.nio.file.StandardOpenOption.APPEND);
    CliFailuresTest.Run alive = CliFailuresTest.run("check-execution-log", first.toString(), second.toString());
    assertEquals(Failures.FAILED, alive.exitCode(), alive.out() + alive.err());
    assertTrue(alive.out().contains("ran twice: LlmChat 4 of sim (run run-1): attempt 1 finished on worker 100, "
        + "then attempt 2 finished on worker 200 (worker 100 went on running calls after that: it was alive)"),
        alive.out());
  }
}
