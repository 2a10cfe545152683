package io.durableagents.starter.benchmark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The profile part's tables: every run side by side, a column each ({@code server / worker / agents per
 * workflow}), a row per part, in CPU ms per agent step (and the part's share of the process's CPU).
 */
final class ProfileReport {
  private final BenchmarkCommand bench;
  private final List<ProfileRow> rows;
  private final List<ProfileRow> measured;
  private final String loadAtStart;
  private final boolean perfFound;

  ProfileReport(BenchmarkCommand bench, List<ProfileRow> rows, String loadAtStart, boolean perfFound) {
    this.bench = bench;
    this.rows = rows;
    this.measured = rows.stream().filter(r -> r.failed == null).toList();
    this.loadAtStart = loadAtStart;
    this.perfFound = perfFound;
  }

  void print() {
    bench.section("Where an agent step's time goes, by part",
        "Epstein simulations with CoT (2 LLM calls per agent step, the rules model at L = 0), " + bench.steps
        + " steps, on each server, each worker configuration (plain: tracing and the execution journal off, "
        + "their defaults; instrumented: tracing exported over OTLP/HTTP to a sink in the benchmark's process, "
        + "and the execution journal on) and each shape (agents per workflow: 1, a workflow per agent step; "
        + "more, group steps). " + (bench.warmupAgentSteps > 0 ? "Each worker first ran " + bench.warmupAgentSteps
            + " agent steps per shape, unmeasured. " : "Cold JVMs: no warm-up. ")
        + "The worker's JVM (and the in-memory server's) records JFR (`settings=profile`: a Java execution "
        + "sample every 10 ms); each thread's CPU time over the run (from /proc) is split by that thread's own "
        + "samples, each sample going to the part of the first frame from its top that a rule knows; the "
        + "garbage collectors', JIT compilers' and JFR's threads are parts of their own. The dev server (a Go "
        + "program) is sampled with perf" + (perfFound ? "" : " (not here: perf or go was not found)")
        + " and its frames named with `go tool addr2line`, its own pprof being out of reach (the CLI has no flag "
        + "for it); its metrics give its persistence calls. Load average (1 min) at the start: " + loadAtStart
        + "; at the end of each run in the first table.");
    bench.table("| server / worker / agents per workflow | agents | agent steps | wall (s) | agent steps/s "
        + "| worker CPU ms per agent step | server CPU ms per agent step | load average |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |", rows.stream().map(this::summary).toList());
    if (measured.isEmpty()) {
      return;
    }
    bench.paragraph("The worker's CPU ms per agent step, by part (its share of the worker's CPU in brackets):");
    partTable(measured, r -> r.workerParts, r -> r.workerCpuMs, true);
    bench.paragraph("The worker's allocations, KB per agent step by part (JFR's allocation samples, "
        + "`jdk.ObjectAllocationSample`, weighed):");
    partTable(measured, r -> scale(r.workerAllocated, 1.0 / 1024), r -> sum(r.workerAllocated) / 1024, false);
    List<ProfileRow> inMemory = measured.stream().filter(r -> r.kind == BenchmarkServer.Kind.IN_MEMORY).toList();
    if (!inMemory.isEmpty()) {
      bench.paragraph("The in-memory server's CPU ms per agent step, by part (JFR, as the worker's):");
      partTable(inMemory, r -> r.serverParts, r -> r.serverCpuMs, true);
    }
    List<ProfileRow> dev = measured.stream().filter(r -> r.kind == BenchmarkServer.Kind.DEV_SERVER).toList();
    if (!dev.isEmpty()) {
      devServer(dev);
    }
    bench.paragraph("Rules (a sample's part is that of the first frame from its top that starts with one of "
        + "these; other frames, the JDK's, Guava's, Go's runtime and standard library, are looked through to "
        + "their callers). Java: " + StackRules.JAVA.describe() + ". Go: " + StackRules.GO.describe()
        + "; a stack with any of " + String.join(", ", StackRules.GO_GC_FUNCTIONS) + " is Go GC. JVM threads "
        + "by name: `GC Thread`, `G1 ...` GC; `C1/C2 CompilerThread` JIT compilers; `JFR ...` JFR.");
    deciding("The worker's most sampled deciding frames (all its runs together; part | frame):",
        merged(measured, r -> r.workerDeciding));
    deciding("The in-memory server's most sampled deciding frames:", merged(inMemory, r -> r.serverDeciding));
    deciding("The dev server's most sampled deciding functions (perf):",
        merged(dev, r -> r.go == null ? Map.of() : r.go.deciding()));
  }

  private String summary(ProfileRow r) {
    if (r.failed != null) {
      return "| " + r.label(false) + " | " + r.agents + " | did not finish: " + r.failed + " | | | | | |";
    }
    return String.format(Locale.ROOT, "| %s | %d | %d | %.1f | %.0f | %.2f | %.2f%s | %s |", r.label(false), r.agents,
        r.agentSteps, r.wall, r.agentSteps / r.wall, r.perStep(r.workerCpuMs), r.perStep(r.serverCpuMs),
        r.cliCpuMs >= 0 ? String.format(Locale.ROOT, " (CLI %.2f)", r.perStep(r.cliCpuMs)) : "", r.loadAverage);
  }

  /** The dev server: its Go process's CPU by part (perf), the JVM that supervises it, its persistence calls. */
  private void devServer(List<ProfileRow> dev) {
    bench.paragraph("The dev server's CPU ms per agent step, by part: the Temporal CLI's process by its perf samples, "
        + "and the `dev-server` JVM that started it; then its persistence calls from its metrics "
        + "(`persistence_latency`: wall time summed over the calls, which overlap and wait for SQLite's lock, "
        + "so not CPU):");
    List<String> headers = new ArrayList<>();
    Set<String> parts = new LinkedHashSet<>();
    for (ProfileRow r : dev) {
      headers.add(column(r));
      if (r.go != null) {
        parts.addAll(r.go.byPart().keySet());
      }
    }
    List<String> ordered = new ArrayList<>(parts);
    ordered.sort(Comparator.comparingDouble((String p) -> -dev.stream().mapToDouble(r -> goMs(r, p)).sum()));
    List<String> lines = new ArrayList<>();
    for (String p : ordered) {
      lines.add("| " + p + " | " + dev.stream().map(r -> cell(r.perStep(goMs(r, p)), goMs(r, p) / r.cliCpuMs))
          .collect(Collectors.joining(" | ")) + " |");
    }
    lines.add("| the Temporal CLI's process, total | " + dev.stream().map(r -> r.go == null
        ? String.format(Locale.ROOT, "%.2f (%s)", r.perStep(r.cliCpuMs), r.noGoProfile)
        : String.format(Locale.ROOT, "%.2f (%d samples)", r.perStep(r.cliCpuMs), r.go.samples()))
        .collect(Collectors.joining(" | ")) + " |");
    lines.add("| the `dev-server` JVM | " + dev.stream().map(r -> String.format(Locale.ROOT, "%.2f",
        r.perStep(r.serverCpuMs - r.cliCpuMs))).collect(Collectors.joining(" | ")) + " |");
    lines.add("| persistence calls per agent step | " + dev.stream().map(r -> r.persistence == null ? "no metrics"
        : String.format(Locale.ROOT, "%.1f", r.perStep(r.persistence.values().stream().mapToDouble(v -> v[1]).sum())))
        .collect(Collectors.joining(" | ")) + " |");
    lines.add("| persistence ms per agent step (wall) | " + dev.stream().map(r -> r.persistence == null ? "no metrics"
        : String.format(Locale.ROOT, "%.2f", r.perStep(r.persistence.values().stream().mapToDouble(v -> v[0]).sum())))
        .collect(Collectors.joining(" | ")) + " |");
    bench.table("| part | " + String.join(" | ", headers) + " |", "| --- |" + " ---: |".repeat(headers.size()), lines);
    for (ProfileRow r : dev) {
      if (r.persistence != null && !r.persistence.isEmpty()) {
        bench.paragraph(column(r) + ": persistence by operation, ms (wall) and calls per agent step: "
            + r.persistence.entrySet().stream().sorted(Comparator.comparingDouble(e -> -e.getValue()[0])).limit(8)
                .map(e -> String.format(Locale.ROOT, "%s %.2f ms / %.2f", e.getKey(), r.perStep(e.getValue()[0]),
                    r.perStep(e.getValue()[1])))
                .collect(Collectors.joining(", ")) + ".");
      }
    }
  }

  private static double goMs(ProfileRow r, String part) {
    if (r.go == null || r.go.samples() == 0) {
      return 0;
    }
    return r.cliCpuMs * r.go.byPart().getOrDefault(part, 0) / r.go.samples();
  }

  /** A table of {@code parts} (ms or bytes of each row's whole run) per agent step, a column per row. */
  private void partTable(List<ProfileRow> columns, Function<ProfileRow, Map<String, Double>> parts,
      Function<ProfileRow, Double> total, boolean shares) {
    Map<String, Double> sum = new HashMap<>();
    for (ProfileRow r : columns) {
      parts.apply(r).forEach((p, v) -> sum.merge(p, r.perStep(v), Double::sum));
    }
    List<String> ordered = new ArrayList<>(sum.keySet());
    ordered.sort(Comparator.comparingDouble((String p) -> -sum.get(p)));
    List<String> lines = new ArrayList<>();
    for (String p : ordered) {
      lines.add("| " + p + " | " + columns.stream().map(r -> {
        double v = parts.apply(r).getOrDefault(p, 0.0);
        return shares ? cell(r.perStep(v), v / total.apply(r)) : String.format(Locale.ROOT, "%.1f", r.perStep(v));
      }).collect(Collectors.joining(" | ")) + " |");
    }
    lines.add("| total | " + columns.stream().map(r -> String.format(Locale.ROOT, shares ? "%.2f" : "%.1f",
        r.perStep(total.apply(r)))).collect(Collectors.joining(" | ")) + " |");
    bench.table("| part | " + columns.stream().map(this::column).collect(Collectors.joining(" | ")) + " |",
        "| --- |" + " ---: |".repeat(columns.size()), lines);
  }

  private String column(ProfileRow r) {
    return r.label(bench.agents.size() > 1);
  }

  private static String cell(double msPerStep, double share) {
    return String.format(Locale.ROOT, "%.2f (%.0f%%)", msPerStep, Double.isFinite(share) ? share * 100 : 0);
  }

  private void deciding(String text, Map<String, Integer> counts) {
    if (counts.isEmpty()) {
      return;
    }
    double total = counts.values().stream().mapToInt(Integer::intValue).sum();
    bench.paragraph(text + " " + counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(15)
        .map(e -> String.format(Locale.ROOT, "`%s` %.1f%%", e.getKey(), 100 * e.getValue() / total))
        .collect(Collectors.joining(", ")) + ".");
  }

  private static Map<String, Integer> merged(List<ProfileRow> rows, Function<ProfileRow, Map<String, Integer>> counts) {
    Map<String, Integer> all = new HashMap<>();
    rows.forEach(r -> counts.apply(r).forEach((k, v) -> all.merge(k, v, Integer::sum)));
    return all;
  }

  private static Map<String, Double> scale(Map<String, Double> m, double factor) {
    Map<String, Double> scaled = new HashMap<>();
    m.forEach((k, v) -> scaled.put(k, v * factor));
    return scaled;
  }

  private static double sum(Map<String, Double> m) {
    return m.values().stream().mapToDouble(Double::doubleValue).sum();
  }
}
