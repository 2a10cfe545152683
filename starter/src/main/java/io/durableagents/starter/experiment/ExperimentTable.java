package io.durableagents.starter.experiment;

import io.durableagents.starter.run.CountColumns;
import io.durableagents.starter.run.Numbers;
import io.durableagents.workflows.experiment.ExperimentRunOutcome;
import io.durableagents.workflows.experiment.ExperimentRunResult;
import io.durableagents.workflows.experiment.RunStatus;
import io.durableagents.workflows.simulation.StepCounts;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The table of an experiment: a line per run as it ends, the summary that groups the runs by the grid's
 * values without the seed (for every count the scenario declares, and the LLM calls and tokens: mean,
 * standard deviation, min..max and n over the seeds), and the CSV files: {@code --csv} in Mesa's {@code
 * batch_run} layout (tidy, one row per run and step), {@code --runs-csv} one row per run at its end.
 *
 * <pre>{@code
 * ExperimentTable table = ExperimentTable.of(result.runs(), CountColumns.declared(base));
 * table.printSummary(System.out);
 * table.writeCsv(Path.of("sweep.csv"));
 * }</pre>
 */
public final class ExperimentTable {
  /** Mean, sample standard deviation (0 for one value), min, max and n of some numbers. */
  public record Stat(double mean, double sd, double min, double max, int n) {
    static Stat of(List<Double> values) {
      int n = values.size();
      double sum = 0;
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      for (double v : values) {
        sum += v;
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
      double mean = sum / n;
      double squares = 0;
      for (double v : values) {
        squares += (v - mean) * (v - mean);
      }
      return new Stat(mean, n > 1 ? Math.sqrt(squares / (n - 1)) : 0, min, max, n);
    }

    /** {@code 4.333 ± 1.528 [3..6]}. */
    String describe() {
      return format(mean) + " ± " + format(sd) + " [" + format(min) + ".." + format(max) + "]";
    }
  }

  /** The runs with one point of the grid (every seed), and their statistics by column. */
  public record Group(Map<String, String> values, int runs, Map<String, Stat> stats) {}

  private final List<ExperimentRunOutcome> outcomes;
  private final List<String> dimensions;
  private final List<String> counts;

  private ExperimentTable(List<ExperimentRunOutcome> outcomes, List<String> dimensions, List<String> counts) {
    this.outcomes = outcomes;
    this.dimensions = dimensions;
    this.counts = counts;
  }

  /** The table of {@code outcomes}, its count columns in {@code declared}'s order (then any others). */
  public static ExperimentTable of(List<ExperimentRunOutcome> outcomes, CountColumns declared) {
    Set<String> dims = new LinkedHashSet<>();
    for (ExperimentRunOutcome o : outcomes) {
      dims.addAll(o.values().keySet());
      if (o.result() != null) {
        declared.add(o.result().finalCounts());
        for (StepCounts s : o.result().perStep()) {
          declared.add(s.counts());
        }
      }
    }
    return new ExperimentTable(outcomes, List.copyOf(dims), declared.names());
  }

  /** The grid's dimensions (parameter names, {@code strategy}, {@code model}), in order. */
  public List<String> dimensions() {
    return dimensions;
  }

  /** The scenario's counts, in its order. */
  public List<String> counts() {
    return counts;
  }

  /**
   * {@code run 003  legitimacy=0.5, seed=43  COMPLETED  active=3 quiet=150 jailed=7  calls 240  tokens
   * 168000}: a run as it stands, with its final counts once it has a result, or why it failed.
   */
  public String line(ExperimentRunOutcome o) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "run %03d  ", o.index()));
    String what = describe(o);
    sb.append(what.isEmpty() ? "-" : what).append("  ").append(o.status());
    if (o.attempts() > 1) {
      sb.append(" (").append(o.attempts()).append(" attempts)");
    }
    ExperimentRunResult r = o.result();
    if (r != null) {
      sb.append("  step ").append(r.steps());
      StringBuilder c = new StringBuilder();
      for (String name : counts) {
        Number v = r.finalCounts().get(name);
        if (v != null) {
          c.append(c.length() == 0 ? "" : " ").append(name).append('=').append(Numbers.format(v));
        }
      }
      sb.append("  ").append(c).append("  calls ").append(r.llmCalls()).append("  tokens ").append(r.tokens());
      if (r.failedAgentSteps() > 0) {
        sb.append("  failed agent steps ").append(r.failedAgentSteps());
      }
    }
    if (o.reason() != null && (o.status() == RunStatus.FAILED || o.status() == RunStatus.NOT_STARTED)) {
      // the experiment's reasons for a run not started begin "not started: ", which the status says
      sb.append(": ").append(o.reason().replaceFirst("^not started: ", ""));
    }
    return sb.toString();
  }

  /** {@code legitimacy=0.5, seed=43}. */
  static String describe(ExperimentRunOutcome o) {
    StringBuilder sb = new StringBuilder();
    o.values().forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=').append(v));
    if (o.seed() != null) {
      sb.append(sb.length() == 0 ? "" : ", ").append("seed=").append(o.seed());
    }
    return sb.toString();
  }

  /**
   * The runs that completed (every step: a stopped run's shorter rows are not compared with them), grouped
   * by their grid values without the
   * seed, in the grid's order: for every count, {@code llm_calls} and {@code tokens}, the statistics of
   * the runs' final values.
   */
  public List<Group> groups() {
    Map<Map<String, String>, List<ExperimentRunResult>> byPoint = new LinkedHashMap<>();
    for (ExperimentRunOutcome o : outcomes) {
      List<ExperimentRunResult> results = byPoint.computeIfAbsent(o.values(), k -> new ArrayList<>());
      if (o.status() == RunStatus.COMPLETED && o.result() != null) {
        results.add(o.result());
      }
    }
    List<Group> groups = new ArrayList<>();
    byPoint.forEach((values, results) -> {
      Map<String, Stat> stats = new LinkedHashMap<>();
      if (!results.isEmpty()) {
        for (String name : counts) {
          List<Double> v = new ArrayList<>();
          results.forEach(r -> {
            Number n = r.finalCounts().get(name);
            if (n != null) {
              v.add(n.doubleValue());
            }
          });
          if (!v.isEmpty()) {
            stats.put(name, Stat.of(v));
          }
        }
        stats.put("llm_calls", Stat.of(results.stream().map(r -> (double) r.llmCalls()).toList()));
        stats.put("tokens", Stat.of(results.stream().map(r -> (double) r.tokens()).toList()));
      }
      groups.add(new Group(values, results.size(), stats));
    });
    return groups;
  }

  /**
   * The summary: a block per point of the grid with mean ± sd [min..max] of every final count over its
   * seeds and n, then the runs that failed or were not started, with why.
   */
  public void printSummary(PrintStream out) {
    out.println("Summary (final counts over seeds: mean ± sd [min..max], n completed runs):");
    for (Group g : groups()) {
      StringBuilder head = new StringBuilder("  ");
      g.values().forEach((k, v) -> head.append(head.length() == 2 ? "" : ", ").append(k).append('=').append(v));
      if (g.values().isEmpty()) {
        head.append("all runs");
      }
      head.append("  n=").append(g.runs());
      out.println(head);
      if (g.stats().isEmpty()) {
        out.println("    (no completed run)");
      }
      g.stats().forEach((name, s) -> out.println("    " + name + " " + s.describe()));
    }
    List<ExperimentRunOutcome> missing = outcomes.stream()
        .filter(o -> o.status() == RunStatus.STOPPED || o.status() == RunStatus.FAILED
            || o.status() == RunStatus.NOT_STARTED).toList();
    if (!missing.isEmpty()) {
      out.println("Stopped, failed or not started (" + missing.size() + "; not in the summary):");
      for (ExperimentRunOutcome o : missing) {
        out.println("  " + line(o));
      }
    }
  }

  /**
   * Mesa's {@code batch_run} layout: one header, then one row per run and step ({@code run_id, run,
   * <dimensions>, seed, step, <counts>, llm_calls, tokens}); runs without a result have no rows (the runs
   * CSV says why).
   */
  public void writeCsv(Path file) throws IOException {
    List<String> header = new ArrayList<>(List.of("run_id", "run"));
    header.addAll(dimensions);
    header.addAll(List.of("seed", "step"));
    header.addAll(counts);
    header.addAll(List.of("llm_calls", "tokens"));
    try (Writer w = writer(file)) {
      row(w, header);
      for (ExperimentRunOutcome o : outcomes) {
        if (o.result() == null) {
          continue;
        }
        for (StepCounts s : o.result().perStep()) {
          List<String> cells = start(o);
          cells.add(Integer.toString(s.step()));
          for (String name : counts) {
            cells.add(Numbers.format(s.counts().get(name)));
          }
          cells.add(s.llmCalls() == null ? "" : s.llmCalls().toString());
          cells.add(s.tokens() == null ? "" : s.tokens().toString());
          row(w, cells);
        }
      }
    }
  }

  /**
   * One row per run at its end: {@code run_id, run, <dimensions>, seed, status, attempts, reason, steps,
   * <final counts>, llm_calls, tokens, agent_steps, failed_agent_steps}; every run, whatever became of it.
   */
  public void writeRunsCsv(Path file) throws IOException {
    List<String> header = new ArrayList<>(List.of("run_id", "run"));
    header.addAll(dimensions);
    header.addAll(List.of("seed", "status", "attempts", "reason", "steps"));
    header.addAll(counts);
    header.addAll(List.of("llm_calls", "tokens", "agent_steps", "failed_agent_steps"));
    try (Writer w = writer(file)) {
      row(w, header);
      for (ExperimentRunOutcome o : outcomes) {
        List<String> cells = start(o);
        ExperimentRunResult r = o.result();
        cells.add(o.status().name());
        cells.add(Integer.toString(o.attempts()));
        cells.add(o.reason() == null ? "" : o.reason());
        cells.add(r == null ? "" : Integer.toString(r.steps()));
        for (String name : counts) {
          cells.add(r == null ? "" : Numbers.format(r.finalCounts().get(name)));
        }
        cells.add(r == null ? "" : Long.toString(r.llmCalls()));
        cells.add(r == null ? "" : Long.toString(r.tokens()));
        cells.add(r == null ? "" : Long.toString(r.agentSteps()));
        cells.add(r == null ? "" : Long.toString(r.failedAgentSteps()));
        row(w, cells);
      }
    }
  }

  private List<String> start(ExperimentRunOutcome o) {
    List<String> cells = new ArrayList<>();
    cells.add(o.runId() == null ? "" : o.runId());
    cells.add(Integer.toString(o.index()));
    for (String d : dimensions) {
      cells.add(o.values().getOrDefault(d, ""));
    }
    cells.add(o.seed() == null ? "" : o.seed().toString());
    return cells;
  }

  private static Writer writer(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    return Files.newBufferedWriter(file, StandardCharsets.UTF_8);
  }

  /** A CSV row (RFC 4180: a cell with a comma, quote or line break is quoted, its quotes doubled). */
  private static void row(Writer w, List<String> cells) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String c = cells.get(i);
      if (i > 0) {
        sb.append(',');
      }
      if (c.contains(",") || c.contains("\"") || c.contains("\n") || c.contains("\r")) {
        sb.append('"').append(c.replace("\"", "\"\"")).append('"');
      } else {
        sb.append(c);
      }
    }
    w.write(sb.append('\n').toString());
  }

  /** Whole numbers as they are; others with 4 significant digits, in plain notation below 10^15. */
  static String format(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    if (Math.abs(d) >= 1e15 || (Math.abs(d) < 1e-4 && d != 0)) {
      return String.format(Locale.ROOT, "%.4g", d);
    }
    // rounded as the run lines' counts are (Numbers.format), then written plainly: 22264.67 is 22260
    return new java.math.BigDecimal(String.format(Locale.ROOT, "%.4g", d)).stripTrailingZeros().toPlainString();
  }

  /** Whether any run has a result (a summary has something to say). */
  public boolean anyResult() {
    return outcomes.stream().anyMatch(o -> o.result() != null || o.status().ended());
  }
}
