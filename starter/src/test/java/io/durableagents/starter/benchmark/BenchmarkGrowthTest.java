package io.durableagents.starter.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scale part's growth lines: each agent count's median throughput against the smallest count's. */
class BenchmarkGrowthTest {
  private static ScaleRun run(double agentStepsPerSecond) {
    return new ScaleRun(1, agentStepsPerSecond, 0, 0, 0, 0, 0);
  }

  @Test
  void eachCountIsSetAgainstTheSmallestOfItsShapeAndRepeatedCountsAreOneMedian() {
    Map<String, List<ScaleRun>> runs = new LinkedHashMap<>();
    // 500,10000,500 in one run: the two 500 rows share a key
    runs.put("jdk17|0|500|50", List.of(run(480), run(600), run(540)));
    runs.put("jdk17|0|10000|50", List.of(run(405)));
    runs.put("jdk17|0|2000|1", List.of(run(400)));
    runs.put("jdk17|1000|500|50", List.of(run(190)));
    List<String> lines = ScaleRows.growthLines(runs);
    assertEquals(List.of(
        "Agent steps per second against the smallest agent count, 50 per workflow, L = 0 ms: "
            + "500 agents 540 (1.00), 10,000 agents 405 (0.75).",
        ""), lines);
  }

  @Test
  void configurationsAreNamedOnlyWhenThereAreSeveral() {
    Map<String, List<ScaleRun>> runs = new LinkedHashMap<>();
    runs.put("a|0|50|1", List.of(run(100)));
    runs.put("a|0|100|1", List.of(run(50)));
    runs.put("b|0|50|1", List.of(run(200)));
    runs.put("b|0|100|1", List.of(run(220)));
    assertEquals(List.of(
        "Agent steps per second against the smallest agent count, 1 per workflow, L = 0 ms (a): "
            + "50 agents 100 (1.00), 100 agents 50 (0.50).",
        "Agent steps per second against the smallest agent count, 1 per workflow, L = 0 ms (b): "
            + "50 agents 200 (1.00), 100 agents 220 (1.10).",
        ""), ScaleRows.growthLines(runs));
  }
}
