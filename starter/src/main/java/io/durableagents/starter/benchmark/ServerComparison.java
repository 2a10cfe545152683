package io.durableagents.starter.benchmark;

import io.durableagents.starter.benchmark.BenchmarkServer.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark's rows measured on the in-memory Temporal and on the real dev server, side by side:
 * agent steps per second on each and their ratio (dev server / in-memory), CPU per agent step, what each
 * run cost Temporal per agent step (events, workflow tasks, read from the histories) and, on the dev server,
 * the growth of its SQLite file per agent step.
 *
 * <pre>{@code
 * ServerComparison c = new ServerComparison();
 * c.add("200 agents, a workflow per agent step, L = 0 ms", Kind.IN_MEMORY, measured);
 * c.add("200 agents, a workflow per agent step, L = 0 ms", Kind.DEV_SERVER, measuredThere);
 * c.lines().forEach(System.out::println);
 * }</pre>
 */
final class ServerComparison {
  /**
   * One row's measures on one server: medians of its runs; {@code events}, {@code workflowTasks} and
   * {@code databaseBytes} per agent step, negative where not measured.
   */
  record Measured(double agentStepsPerSecond, double workerCpuMs, double serverCpuMs, double events,
      double workflowTasks, double databaseBytes) {}

  private final Map<String, Map<Kind, Measured>> rows = new LinkedHashMap<>();

  /** Records {@code row}'s measures on {@code kind} (a later call for the same pair replaces it). */
  void add(String row, Kind kind, Measured measured) {
    rows.computeIfAbsent(row, r -> new LinkedHashMap<>()).put(kind, measured);
  }

  /** The ratio of the dev server's value to the in-memory one's, "-" where either is missing or zero. */
  static String ratio(Measured inMemory, Measured devServer) {
    if (inMemory == null || devServer == null || inMemory.agentStepsPerSecond() <= 0) {
      return "-";
    }
    return String.format(Locale.ROOT, "**%.2f**", devServer.agentStepsPerSecond() / inMemory.agentStepsPerSecond());
  }

  /** The side-by-side table, or nothing when no row was measured on both servers. */
  List<String> lines() {
    List<String> lines = new ArrayList<>();
    boolean both = rows.values().stream().anyMatch(m -> m.size() == 2);
    if (!both) {
      return lines;
    }
    lines.add("| row | agent steps/s, in-memory | agent steps/s, dev server | dev server / in-memory "
        + "| CPU ms per agent step, in-memory (worker + server) | CPU ms per agent step, dev server (worker + server) "
        + "| events per agent step (in-memory / dev server) | workflow tasks per agent step (in-memory / dev server) "
        + "| SQLite bytes per agent step |");
    lines.add("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (Map.Entry<String, Map<Kind, Measured>> e : rows.entrySet()) {
      Measured m = e.getValue().get(Kind.IN_MEMORY);
      Measured d = e.getValue().get(Kind.DEV_SERVER);
      lines.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s / %s | %s / %s | %s |", e.getKey(),
          m == null ? "-" : String.format(Locale.ROOT, "%.0f", m.agentStepsPerSecond()),
          d == null ? "-" : String.format(Locale.ROOT, "%.0f", d.agentStepsPerSecond()),
          ratio(m, d), cpu(m), cpu(d), number(m, Measured::events, "%.1f"), number(d, Measured::events, "%.1f"),
          number(m, Measured::workflowTasks, "%.2f"), number(d, Measured::workflowTasks, "%.2f"),
          number(d, Measured::databaseBytes, "%,.0f")));
    }
    lines.add("");
    return lines;
  }

  private static String cpu(Measured m) {
    return m == null ? "-" : String.format(Locale.ROOT, "%.1f + %.1f", m.workerCpuMs(), m.serverCpuMs());
  }

  private static String number(Measured m, java.util.function.ToDoubleFunction<Measured> value, String format) {
    if (m == null || value.applyAsDouble(m) < 0) {
      return "-";
    }
    return String.format(Locale.ROOT, format, value.applyAsDouble(m));
  }

  /** What one run of the recovery part found: kill -9 to the next completed activity per kill (ms), and its checks. */
  record RecoveryOutcome(List<Double> nextCompletedMs, int completedCallsRunAgain, boolean sameResult) {}

  /** The recovery part's runs on each server, side by side per shape: median and worst, and the ratios. */
  static final class RecoveryRows {
    private final Map<Integer, Map<Kind, RecoveryOutcome>> rows = new LinkedHashMap<>();

    void add(int agentsPerWorkflow, Kind kind, RecoveryOutcome outcome) {
      rows.computeIfAbsent(agentsPerWorkflow, r -> new LinkedHashMap<>()).put(kind, outcome);
    }

    /** The side-by-side table, or nothing unless some shape ran on both servers. */
    List<String> lines() {
      List<String> lines = new ArrayList<>();
      if (rows.values().stream().noneMatch(m -> m.size() == 2)) {
        return lines;
      }
      lines.add("Worker kill -9 on the two servers, side by side (kill to the next completed activity):");
      lines.add("");
      lines.add("| shape | kills (in-memory / dev server) | median ms, in-memory | median ms, dev server "
          + "| dev server / in-memory | worst ms, in-memory | worst ms, dev server | completed calls run again "
          + "| result equal |");
      lines.add("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
      for (Map.Entry<Integer, Map<Kind, RecoveryOutcome>> e : rows.entrySet()) {
        RecoveryOutcome m = e.getValue().get(Kind.IN_MEMORY);
        RecoveryOutcome d = e.getValue().get(Kind.DEV_SERVER);
        lines.add(String.format(Locale.ROOT, "| %s | %s / %s | %s | %s | %s | %s | %s | %s / %s | %s / %s |",
            e.getKey() == 1 ? "a workflow per agent step" : "groups of " + e.getKey(), kills(m), kills(d),
            stat(m, false), stat(d, false), ratioOf(stat(m, false), stat(d, false)), stat(m, true), stat(d, true),
            m == null ? "-" : m.completedCallsRunAgain(), d == null ? "-" : d.completedCallsRunAgain(),
            m == null ? "-" : m.sameResult() ? "yes" : "**no**", d == null ? "-" : d.sameResult() ? "yes" : "**no**"));
      }
      lines.add("");
      return lines;
    }

    private static String kills(RecoveryOutcome o) {
      return o == null ? "-" : Integer.toString(o.nextCompletedMs().size());
    }

    private static String stat(RecoveryOutcome o, boolean worst) {
      if (o == null || o.nextCompletedMs().isEmpty()) {
        return "-";
      }
      List<Double> sorted = o.nextCompletedMs().stream().sorted().toList();
      int n = sorted.size();
      double v = worst ? sorted.get(n - 1)
          : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
      return String.format(Locale.ROOT, "%.0f", v);
    }

    private static String ratioOf(String inMemory, String devServer) {
      if (inMemory.equals("-") || devServer.equals("-") || Double.parseDouble(inMemory) == 0) {
        return "-";
      }
      return String.format(Locale.ROOT, "%.2f", Double.parseDouble(devServer) / Double.parseDouble(inMemory));
    }
  }
}
