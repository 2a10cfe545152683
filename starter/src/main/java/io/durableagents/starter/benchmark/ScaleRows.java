package io.durableagents.starter.benchmark;

import static io.durableagents.starter.benchmark.BenchmarkStatistics.median;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The benchmark's scale rows summarised across rows. A row's runs are keyed {@code server|configuration|
 * latency|agents|agents per workflow}; from them come each shape's growth with the agent count and the
 * rows of the two servers side by side ({@link ServerComparison}).
 */
final class ScaleRows {
  private ScaleRows() {}

  /**
   * For each configuration, latency and group size measured at several agent counts: the median agent
   * steps per second at each count and its ratio to the smallest count's (1.00 = no cost per agent from
   * scale). Rows of one agent count repeated in a run (500,10000,500) are one median.
   */
  static List<String> growthLines(Map<String, List<ScaleRun>> runs) {
    Map<String, java.util.TreeMap<Integer, Double>> byShape = new LinkedHashMap<>();
    Set<String> configurations = new HashSet<>();
    for (String key : runs.keySet()) {
      configurations.add(key.substring(0, nthLastBar(key, 3)));
    }
    for (Map.Entry<String, List<ScaleRun>> e : runs.entrySet()) {
      // configuration | latency | agents | agents per workflow
      String key = e.getKey();
      String[] k = key.substring(nthLastBar(key, 3) + 1).split("\\|");
      String shape = k[2] + " per workflow, L = " + k[0] + " ms"
          + (configurations.size() > 1 ? " (" + key.substring(0, nthLastBar(key, 3)) + ")" : "");
      byShape.computeIfAbsent(shape, x -> new java.util.TreeMap<>())
          .put(Integer.parseInt(k[1]), median(e.getValue().stream().map(ScaleRun::agentStepsPerSecond).toList()));
    }
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, java.util.TreeMap<Integer, Double>> e : byShape.entrySet()) {
      if (e.getValue().size() < 2) {
        continue;
      }
      double base = e.getValue().firstEntry().getValue();
      StringBuilder b = new StringBuilder("Agent steps per second against the smallest agent count, "
          + e.getKey() + ":");
      String sep = " ";
      for (Map.Entry<Integer, Double> n : e.getValue().entrySet()) {
        b.append(String.format(Locale.ROOT, "%s%,d agents %.0f (%.2f)", sep, n.getKey(), n.getValue(),
            base == 0 ? 0 : n.getValue() / base));
        sep = ", ";
      }
      lines.add(b.append('.').toString());
    }
    if (!lines.isEmpty()) {
      lines.add("");
    }
    return lines;
  }

  /** The index of the {@code n}th '|' from the end of {@code key}. */
  static int nthLastBar(String key, int n) {
    int i = key.length();
    for (int found = 0; found < n; found++) {
      i = key.lastIndexOf('|', i - 1);
    }
    return i;
  }

  /** The scale rows measured on both servers: what {@link ServerComparison} prints side by side. */
  static ServerComparison comparison(Map<String, List<ScaleRun>> runs, Map<String, AgentStepShape> shapes,
      Map<String, List<Double>> databaseBytes) {
    ServerComparison c = new ServerComparison();
    for (Map.Entry<String, List<ScaleRun>> e : runs.entrySet()) {
      String key = e.getKey();
      BenchmarkServer.Kind kind = BenchmarkServer.Kind.parse(key.substring(0, key.indexOf('|')));
      String[] k = key.substring(nthLastBar(key, 3) + 1).split("\\|"); // latency | agents | per workflow
      String jvm = key.contains("sticky=off") ? ", sticky off" : "";
      String row = String.format(Locale.ROOT, "%,d agents, %s, L = %s ms%s%s", Integer.parseInt(k[1]),
          k[2].equals("1") ? "a workflow per agent step" : "groups of " + k[2], k[0],
          configurationsMeasured(runs) > 1 ? ", " + key.substring(key.indexOf('|') + 1, nthLastBar(key, 3)) : "", jvm);
      List<ScaleRun> m = e.getValue();
      AgentStepShape shape = shapes.get(key);
      c.add(row, kind, new ServerComparison.Measured(median(m.stream().map(ScaleRun::agentStepsPerSecond).toList()),
          median(m.stream().map(ScaleRun::workerCpuMs).toList()), median(m.stream().map(ScaleRun::serverCpuMs).toList()),
          shape == null ? -1 : shape.perAgentStep(shape.events()),
          shape == null ? -1 : shape.perAgentStep(shape.workflowTasks()),
          databaseBytes.containsKey(key) ? median(databaseBytes.get(key)) : -1));
    }
    return c;
  }

  /** How many worker configurations (JVM, sticky, pollers) the scale rows span. */
  private static long configurationsMeasured(Map<String, List<ScaleRun>> runs) {
    return runs.keySet().stream().map(k -> k.substring(k.indexOf('|') + 1, nthLastBar(k, 3))).distinct().count();
  }
}
