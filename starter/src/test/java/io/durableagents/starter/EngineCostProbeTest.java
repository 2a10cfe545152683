package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The idle time and the requests at once that {@link EngineCostBenchmark} reports for each run. */
class EngineCostProbeTest {
  private static final long S = 1_000_000_000L;

  @Test
  void idleTimeIsTheTimeNoCallCovers() {
    // calls 1-3 s and 2-5 s overlap; 7-8 s; the run is 0-10 s: idle 0-1, 5-7 and 8-10
    List<long[]> calls = List.of(new long[] {2 * S, 5 * S}, new long[] {S, 3 * S}, new long[] {7 * S, 8 * S});
    assertEquals(5.0, EngineCostProbe.idleSeconds(calls, 0, 10 * S), 1e-9);
    assertEquals(10.0, EngineCostProbe.idleSeconds(List.of(), 0, 10 * S), 1e-9);
    // a call inside another leaves no gap
    assertEquals(0.0, EngineCostProbe.idleSeconds(List.of(new long[] {0, 10 * S}, new long[] {2 * S, 3 * S}), 0, 10 * S), 1e-9);
  }

  @Test
  void requestsAtOnceIsTheBusyTimeOverTheRun() {
    List<long[]> calls = List.of(new long[] {0, 10 * S}, new long[] {0, 5 * S});
    assertEquals(1.5, EngineCostProbe.meanInFlight(calls, 0, 10 * S), 1e-9);
    assertEquals(7.5, EngineCostProbe.meanCallSeconds(calls), 1e-9);
  }
}
