package io.durableagents.starter.benchmark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/** The fork part asks only for steps its simulation has (its --quick run asked for step 140 of 100). */
class ForkBenchmarkTest {
  @Test
  void forkPointsAreStepsTheRecordedSimulationReaches() {
    assertArrayEquals(new int[] {900, 950, 150}, ForkBenchmark.forkPoints(1000, 100));
    assertArrayEquals(new int[] {90, 60}, ForkBenchmark.forkPoints(100, 100));
  }
}
