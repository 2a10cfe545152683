package io.durableagents.starter.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The benchmark's medians and the median with its range that its tables print. */
class BenchmarkStatisticsTest {
  @Test
  void anEvenCountOfTimingsTakesTheUpperMiddleAndAnEvenListTheMeanOfBoth() {
    assertEquals(30, BenchmarkStatistics.median(new long[] {40, 10, 30, 20}));
    assertEquals(20, BenchmarkStatistics.median(new long[] {30, 10, 20}));
    assertEquals(25, BenchmarkStatistics.median(List.of(40.0, 10.0, 30.0, 20.0)));
    assertEquals(20, BenchmarkStatistics.median(List.of(30.0, 10.0, 20.0)));
  }

  @Test
  void theSpreadIsTheMedianInItsFormatWithTheRangeOnlyWhenThereAreSeveral() {
    assertEquals("**1.50**", BenchmarkStatistics.spread(List.of(1.5), "%.2f", true));
    assertEquals("120 (100-150)", BenchmarkStatistics.spread(List.of(150.0, 100.0, 120.0), "%.0f", false));
  }
}
