package io.durableagents.starter.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.CliFailuresTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cold-start part reads demo's phases from its output as it came (the line that says its JVM is up,
 * the Temporal's announcement, the run's start, the first step), the worker's ready file and its warm-up
 * from its log, prints a row of medians and ranges, and checks its options before anything starts.
 */
class ColdStartBenchmarkTest {
  private static final List<ColdStartBenchmark.Timed> DEMO = List.of(
      new ColdStartBenchmark.Timed(0.9, "Starting a Temporal on 127.0.0.1:7300 (log: runs/demo/dev-server.log)"),
      new ColdStartBenchmark.Timed(3.2, "  Temporal dev server (/x/temporal) listening on 127.0.0.1:7300; runs kept in "
          + "/x/temporal-7300.db; UI at http://127.0.0.1:8300; its log in /x/temporal-7300.log"),
      new ColdStartBenchmark.Timed(3.2, "Starting a worker (log: runs/demo/worker.log)"),
      new ColdStartBenchmark.Timed(6.0, "Started cold-start-1 on 127.0.0.1:7300 (namespace default): epstein, 2 steps"),
      new ColdStartBenchmark.Timed(6.1, "Temporal UI: http://127.0.0.1:8300/namespaces/default/workflows/cold-start-1"),
      new ColdStartBenchmark.Timed(6.1, "step       active   quiet  jailed   llm calls      tokens"),
      new ColdStartBenchmark.Timed(8.5, "1/2             4      16       0          50       22882"),
      new ColdStartBenchmark.Timed(9.0, "2/2             3      16       1         100       48846"),
      new ColdStartBenchmark.Timed(9.1, "Finished cold-start-1: 2 steps, seed 42"));

  @Test
  void thePhasesAreReadFromDemosOutputTheReadyFileAndTheWorkersLog() {
    ColdStartBenchmark.Phases p = ColdStartBenchmark.phases(DEMO, 5.4, 14.0, List.of(
        "17:00:01.000 INFO  i.d.w.WorkerMain workflowId=- agentId=- activity=- - warmed up in 1874 ms (3 of 3 "
            + "recorded histories replayed)",
        "17:00:01.100 INFO  i.d.w.WorkerMain workflowId=- agentId=- activity=- - worker started: identity 1@vm"));
    assertEquals(List.of(0.9, 3.2, 5.4, 6.0, 8.5, 14.0), java.util.Arrays.stream(p.seconds()).boxed().toList());
    assertEquals(1874, p.warmupMillis());
  }

  @Test
  void aTemporalThatListenedAlreadyIsUpWhenDemoIsAndAPhaseNotSeenIsADash() {
    ColdStartBenchmark.Phases p = ColdStartBenchmark.phases(List.of(
        new ColdStartBenchmark.Timed(1.0, "Using the Temporal at 127.0.0.1:7300 (from --port)"),
        new ColdStartBenchmark.Timed(4.0, "Started x on 127.0.0.1:7300 (namespace default): epstein, 2 steps")),
        Double.NaN, 5.0, List.of());
    assertEquals(1.0, p.at(1));
    assertTrue(Double.isNaN(p.at(2)) && Double.isNaN(p.at(4)));
    assertEquals(-1, p.warmupMillis());
    assertEquals("| x | 1.0 | 1.0 | - | 4.0 | - | 5.0 | - |", ColdStartBenchmark.row("x", List.of(p)));
  }

  @Test
  void aRowHoldsEachPhasesMedianAndRangeTheFirstStepInBold() {
    ColdStartBenchmark.Phases a = ColdStartBenchmark.phases(DEMO, 5.4, 14.0, List.of("warmed up in 1800 ms"));
    ColdStartBenchmark.Phases b = ColdStartBenchmark.phases(DEMO.stream().map(t ->
        new ColdStartBenchmark.Timed(t.seconds() + 1, t.line())).toList(), 6.4, 15.0, List.of("warmed up in 2000 ms"));
    ColdStartBenchmark.Phases c = ColdStartBenchmark.phases(DEMO.stream().map(t ->
        new ColdStartBenchmark.Timed(t.seconds() + 2, t.line())).toList(), 7.4, 16.0, List.of("warmed up in 1900 ms"));
    assertEquals("| archive | 1.9 (0.9-2.9) | 4.2 (3.2-5.2) | 6.4 (5.4-7.4) | 7.0 (6.0-8.0) | **9.5** (8.5-10.5) "
        + "| 15.0 (14.0-16.0) | 1900 (1800-2000) |", ColdStartBenchmark.row("archive", List.of(a, b, c)));
    assertEquals(ColdStartBenchmark.PHASES.size() + 2, ColdStartBenchmark.row("x", List.of(a)).split("\\|").length - 1);
  }

  @Test
  void itsOptionsAreCheckedBeforeAnythingStarts() {
    CliFailuresTest.Run rounds = CliFailuresTest.run("benchmark", "--parts", "cold-start", "--cold-start-rounds", "0");
    assertEquals(2, rounds.exitCode(), rounds.out() + rounds.err());
    assertTrue(rounds.err().contains("--cold-start-rounds must be >= 1, was 0"), rounds.err());
    CliFailuresTest.Run baseline = CliFailuresTest.run("benchmark", "--parts", "cold-start", "--cold-start-baseline",
        "no-such.jar");
    assertEquals(2, baseline.exitCode(), baseline.out() + baseline.err());
    assertTrue(baseline.err().contains("--cold-start-baseline must be a jar file, was 'no-such.jar'"), baseline.err());
    CliFailuresTest.Run part = CliFailuresTest.run("benchmark", "--parts", "cold");
    assertEquals(2, part.exitCode());
    assertTrue(part.err().contains("cold-start"), "the parts listed: " + part.err());
  }
}
