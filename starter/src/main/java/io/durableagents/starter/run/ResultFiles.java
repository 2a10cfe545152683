package io.durableagents.starter.run;

import io.durableagents.workflows.simulation.Intervention;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.StepCounts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Writes a simulation's data collector output: the per-step variables as CSV, and as a PNG line chart
 * drawn with XChart.
 *
 * <pre>{@code
 * ResultFiles.writeCsv(result, Path.of("runs/sim.csv"));
 * ResultFiles.writeChart(result, Path.of("runs/sim.png"));
 * }</pre>
 */
final class ResultFiles {
  static final int CHART_WIDTH = 900;
  static final int CHART_HEIGHT = 500;

  private ResultFiles() {}

  /**
   * Writes {@code step,<variable>...,llm_calls,tokens} with a row per step (LLM calls and tokens so far
   * at the end of that step; empty in runs recorded before they existed), and {@code
   * failed_agent_steps} (so far) when any agent step of the run failed for good and was skipped, and
   * {@code intervention} (what changed from that step, {@code legitimacy 0.5 -> 0.3}) when the run had any.
   */
  static void writeCsv(SimulationResult r, Path file) throws IOException {
    writeCsv(r, file, variables(r));
  }

  /** As {@link #writeCsv(SimulationResult, Path)}, with the variables in the order of {@code variables}. */
  static void writeCsv(SimulationResult r, Path file, List<String> variables) throws IOException {
    StringBuilder sb = new StringBuilder("step");
    for (String v : variables) {
      sb.append(',').append(v);
    }
    boolean failures = r.failedAgentSteps() > 0;
    Map<Integer, String> changes = interventions(r);
    sb.append(",llm_calls,tokens").append(failures ? ",failed_agent_steps" : "")
        .append(changes.isEmpty() ? "" : ",intervention").append('\n');
    for (StepCounts s : r.perStep()) {
      sb.append(s.step());
      for (String v : variables) {
        Number value = s.counts().get(v);
        sb.append(',').append(value == null ? "" : value.toString());
      }
      sb.append(',').append(s.llmCalls() == null ? "" : s.llmCalls())
          .append(',').append(s.tokens() == null ? "" : s.tokens());
      if (failures) {
        sb.append(',').append(s.failedAgentSteps() == null ? 0 : s.failedAgentSteps());
      }
      if (!changes.isEmpty()) {
        String change = changes.get(s.step());
        sb.append(',').append(change == null ? "" : '"' + change.replace("\"", "\"\"") + '"');
      }
      sb.append('\n');
    }
    createParent(file);
    Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
  }

  /** Draws every per-step variable against the step as a PNG line chart. */
  static void writeChart(SimulationResult r, Path file) throws IOException {
    writeChart(r, file, variables(r));
  }

  /** As {@link #writeChart(SimulationResult, Path)}, the series in the order of {@code variables}. */
  static void writeChart(SimulationResult r, Path file, List<String> variables) throws IOException {
    // no display is needed to draw into an image
    System.setProperty("java.awt.headless", "true");
    XYChart chart = new XYChartBuilder().width(CHART_WIDTH).height(CHART_HEIGHT)
        .title(r.scenario() + " " + r.simulationId() + " (seed " + r.seed() + ")")
        .xAxisTitle("step").yAxisTitle("value").build();
    chart.getStyler().setMarkerSize(0);
    List<Double> steps = new ArrayList<>();
    for (StepCounts s : r.perStep()) {
      steps.add((double) s.step());
    }
    for (String v : variables) {
      List<Double> values = new ArrayList<>();
      for (StepCounts s : r.perStep()) {
        Number value = s.counts().get(v);
        values.add(value == null ? Double.NaN : value.doubleValue());
      }
      if (!steps.isEmpty()) {
        chart.addSeries(v, steps, values).setMarker(SeriesMarkers.NONE);
      }
    }
    // each intervention: a vertical line at its step, named in the legend
    double low = Double.POSITIVE_INFINITY;
    double high = Double.NEGATIVE_INFINITY;
    for (StepCounts s : r.perStep()) {
      for (String v : variables) {
        Number value = s.counts().get(v);
        if (value != null) {
          low = Math.min(low, value.doubleValue());
          high = Math.max(high, value.doubleValue());
        }
      }
    }
    if (low <= high) {
      for (Map.Entry<Integer, String> change : interventions(r).entrySet()) {
        chart.addSeries("step " + change.getKey() + ": " + change.getValue(),
            List.of((double) change.getKey(), (double) change.getKey()), List.of(low, high))
            .setMarker(SeriesMarkers.DIAMOND);
      }
    }
    createParent(file);
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  /** What the applied interventions changed, by the step they applied from. */
  static Map<Integer, String> interventions(SimulationResult r) {
    Map<Integer, String> byStep = new java.util.TreeMap<>();
    for (Intervention v : r.interventions()) {
      if (v.applied()) {
        byStep.merge(v.atStep(), v.describe(), (a, b) -> a + "; " + b);
      }
    }
    return byStep;
  }

  /** The variables in the order the scenario records them. */
  private static List<String> variables(SimulationResult r) {
    List<String> variables = new ArrayList<>();
    for (StepCounts s : r.perStep()) {
      for (String key : s.counts().keySet()) {
        if (!variables.contains(key)) {
          variables.add(key);
        }
      }
    }
    return variables;
  }

  private static void createParent(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
  }
}
