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
        + "attempt (retried), 0 ran twice.", "No completed call ran twice."), clean.out().lines().toList());

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
        + "then attempt 3 finished on worker 200 (worker 200 went on running calls: it was alive)"), twice.out());
    assertEquals("check-execution-log: 1 completed call(s) ran twice, 1 of them on a worker that was alive",
        twice.err().strip());

    CliFailuresTest.Run missing = CliFailuresTest.run("check-execution-log", dir.resolve("nope.tsv").toString());
    assertEquals(Failures.USAGE, missing.exitCode());
    assertTrue(missing.err().startsWith("check-execution-log: cannot read " + dir.resolve("nope.tsv")
        + ": no such file"), missing.err());
    CliFailuresTest.assertNoTrace(missing);
  }
}
