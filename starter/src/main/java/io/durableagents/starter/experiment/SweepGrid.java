package io.durableagents.starter.experiment;

import io.durableagents.workflows.experiment.ExperimentInput;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The grid of a {@code sweep}, read from its options: values of a dimension ({@code 0.3,0.5,0.7}, an
 * inclusive range {@code 0.1:0.9:0.2} computed exactly, an integer range {@code 10:14}), seeds ({@code 5}
 * seeds from {@code --seed}, a list {@code 1,5,9}, a range {@code 1:10}), and the points the dimensions
 * make, crossed: the first dimension varies slowest, the seed fastest.
 *
 * <pre>{@code
 * SweepGrid.values("--param legitimacy", "0.1:0.9:0.2"); // [0.1, 0.3, 0.5, 0.7, 0.9]
 * SweepGrid.seeds("5", 42);                             // [42, 43, 44, 45, 46]
 * SweepGrid.cross(Map.of("legitimacy", List.of("0.3", "0.7"))); // [{legitimacy=0.3}, {legitimacy=0.7}]
 * }</pre>
 */
public final class SweepGrid {
  /** The most values one range may give: a typo such as {@code 0:1:0.0001} fails at once. */
  static final int MAX_RANGE_VALUES = ExperimentInput.MAX_RUNS;

  private SweepGrid() {}

  /**
   * The values {@code text} gives: a comma-separated list whose items are values or ranges {@code
   * start:stop[:step]} (inclusive; the step defaults to 1), each value once, in the order given.
   *
   * @param option how messages name the option ({@code --param legitimacy})
   * @throws IllegalArgumentException in one line naming {@code option} and what is allowed
   */
  public static List<String> values(String option, String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(option + ": no value; give values as V1,V2,... or a range start:stop:step");
    }
    LinkedHashSet<String> values = new LinkedHashSet<>();
    for (String item : text.split(",", -1)) {
      String v = item.trim();
      if (v.isEmpty()) {
        throw new IllegalArgumentException(option + ": an empty value in '" + text + "'");
      }
      if (v.contains(":") && looksLikeRange(v)) {
        values.addAll(range(option, v));
      } else {
        values.add(v);
      }
    }
    return List.copyOf(values);
  }

  /** Whether {@code v} is numbers separated by colons (a JSON or text value may hold a colon too). */
  private static boolean looksLikeRange(String v) {
    return v.matches("[-+]?[0-9.eE+-]+(:[-+]?[0-9.eE+-]+){1,2}");
  }

  /**
   * {@code start:stop[:step]}, inclusive, computed exactly: {@code 0.1:0.9:0.2} is 0.1, 0.3, 0.5, 0.7,
   * 0.9 (never 0.30000000000000004), each written with the scale of the most precise of the three.
   */
  static List<String> range(String option, String text) {
    String[] parts = text.split(":");
    BigDecimal start;
    BigDecimal stop;
    BigDecimal step;
    try {
      start = new BigDecimal(parts[0].trim());
      stop = new BigDecimal(parts[1].trim());
      step = parts.length > 2 ? new BigDecimal(parts[2].trim()) : BigDecimal.ONE;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + ": '" + text + "' is not a range start:stop:step of numbers");
    }
    if (step.signum() <= 0) {
      throw new IllegalArgumentException(option + ": the step of '" + text + "' must be above 0");
    }
    if (stop.compareTo(start) < 0) {
      throw new IllegalArgumentException(option + ": '" + text + "' is empty: its stop is below its start");
    }
    BigInteger count = stop.subtract(start).divideToIntegralValue(step).toBigInteger().add(BigInteger.ONE);
    if (count.compareTo(BigInteger.valueOf(MAX_RANGE_VALUES)) > 0) {
      throw new IllegalArgumentException(option + ": '" + text + "' gives " + count + " values, more than the "
          + MAX_RANGE_VALUES + " an experiment can run");
    }
    int scale = Math.max(Math.max(start.scale(), stop.scale()), step.scale());
    List<String> values = new ArrayList<>();
    for (BigDecimal v = start; v.compareTo(stop) <= 0; v = v.add(step)) {
      values.add(v.setScale(Math.max(scale, 0)).toPlainString());
    }
    return values;
  }

  /**
   * The seeds {@code --seeds} gives: a single number N is N seeds from {@code first} ({@code first},
   * {@code first+1} ...); a list ({@code 1,5,9}) or a range ({@code 1:10}, {@code 0:100:10}) are those
   * seeds.
   *
   * @throws IllegalArgumentException in one line naming --seeds
   */
  public static List<Long> seeds(String text, long first) {
    String t = text == null ? "" : text.trim();
    if (t.matches("\\d+")) {
      long n;
      try {
        n = Long.parseLong(t);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--seeds: " + t + " is too many seeds");
      }
      if (n < 1) {
        throw new IllegalArgumentException("--seeds: 0 seeds; give a count (5), a list (1,5,9) or a range (1:10)");
      }
      if (n > MAX_RANGE_VALUES) {
        throw new IllegalArgumentException("--seeds: " + n + " seeds, more than the " + MAX_RANGE_VALUES
            + " an experiment can run");
      }
      List<Long> seeds = new ArrayList<>();
      for (long i = 0; i < n; i++) {
        seeds.add(first + i);
      }
      return seeds;
    }
    List<Long> seeds = new ArrayList<>();
    for (String v : values("--seeds", t)) {
      try {
        seeds.add(Long.parseLong(v));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--seeds: '" + v + "' is not a whole number; give a count (5), "
            + "a list (1,5,9) or a range (1:10)");
      }
    }
    return seeds;
  }

  /**
   * Every point of the dimensions, crossed: a map of one value per dimension, the first dimension
   * varying slowest. No dimension: one empty point.
   */
  public static List<Map<String, String>> cross(Map<String, List<String>> dimensions) {
    List<Map<String, String>> points = new ArrayList<>();
    points.add(new LinkedHashMap<>());
    for (Map.Entry<String, List<String>> d : dimensions.entrySet()) {
      List<Map<String, String>> next = new ArrayList<>();
      for (Map<String, String> p : points) {
        for (String v : d.getValue()) {
          Map<String, String> q = new LinkedHashMap<>(p);
          q.put(d.getKey(), v);
          next.add(q);
        }
      }
      points = next;
    }
    return points;
  }
}
