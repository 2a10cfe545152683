package io.durableagents.starter.benchmark;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The benchmark's summaries of repeated measurements: medians, and a median with its range. */
final class BenchmarkStatistics {
  private BenchmarkStatistics() {}

  /** The upper median of {@code values} (the middle one of an odd count). */
  static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /** The median of {@code values}: the mean of the two middle ones of an even count. */
  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** The median in {@code format}, bold if {@code bold}, with the range when there are several values. */
  static String spread(List<Double> values, String format, boolean bold) {
    String median = String.format(Locale.ROOT, format, median(values));
    String text = bold ? "**" + median + "**" : median;
    if (values.size() < 2) {
      return text;
    }
    return text + String.format(Locale.ROOT, " (" + format + "-" + format + ")",
        values.stream().mapToDouble(Double::doubleValue).min().orElse(0),
        values.stream().mapToDouble(Double::doubleValue).max().orElse(0));
  }
}
