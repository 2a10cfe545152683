package io.durableagents.starter.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.simulation.PlanCounts;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.StepCounts;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The data collector's files: the per-step CSV and the PNG chart, and the summary's numbers. */
class ResultFilesTest {
  @TempDir
  Path dir;

  private static Map<String, Number> counts(int active, int quiet, int jailed) {
    Map<String, Number> m = new LinkedHashMap<>();
    m.put("active", active);
    m.put("quiet", quiet);
    m.put("jailed", jailed);
    return m;
  }

  private static final SimulationResult RESULT = new SimulationResult("sim-epstein-42-x", "epstein", 42, 3,
      List.of(new StepCounts(1, counts(4, 16, 0), 50L, 22670L),
          new StepCounts(2, counts(3, 16, 1), 100L, 48434L),
          new StepCounts(3, counts(0, 16, 4), 148L, 73285L)),
      counts(0, 16, 4), 74, 148, 0, new TokenUsage(70000, 3285), PlanCounts.ZERO, true, 2);

  @Test
  void theCsvHasARowPerStepWithTheScenariosVariablesInOrder() throws Exception {
    Path csv = dir.resolve("out/run.csv");
    ResultFiles.writeCsv(RESULT, csv);
    assertEquals(List.of("step,active,quiet,jailed,llm_calls,tokens", "1,4,16,0,50,22670",
        "2,3,16,1,100,48434", "3,0,16,4,148,73285"), Files.readAllLines(csv));
  }

  @Test
  void aRunWithFailedAgentStepsHasTheirCountInTheCsv() throws Exception {
    SimulationResult failing = new SimulationResult("sim-x", "epstein", 42, 2,
        List.of(new StepCounts(1, counts(4, 16, 0), 50L, 22670L, null),
            new StepCounts(2, counts(3, 16, 1), 100L, 48434L, 3L)),
        counts(3, 16, 1), 50, 100, 0, new TokenUsage(1, 1), PlanCounts.ZERO, false, 1, List.of(), 3);
    Path csv = dir.resolve("failing.csv");
    ResultFiles.writeCsv(failing, csv);
    assertEquals(List.of("step,active,quiet,jailed,llm_calls,tokens,failed_agent_steps", "1,4,16,0,50,22670,0",
        "2,3,16,1,100,48434,3"), Files.readAllLines(csv));
  }

  @Test
  void theChartIsAPngWithALinePerVariable() throws Exception {
    Path png = dir.resolve("run.png");
    ResultFiles.writeChart(RESULT, png);
    byte[] head = Arrays.copyOf(Files.readAllBytes(png), 8);
    assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, head);
    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(ResultFiles.CHART_WIDTH, image.getWidth());
    assertEquals(ResultFiles.CHART_HEIGHT, image.getHeight());
    // the three series are drawn in colour: more than a handful of distinct colours
    java.util.Set<Integer> colours = new java.util.HashSet<>();
    for (int x = 0; x < image.getWidth(); x += 3) {
      for (int y = 0; y < image.getHeight(); y += 3) {
        colours.add(image.getRGB(x, y));
      }
    }
    assertTrue(colours.size() > 5, "colours: " + colours.size());
  }

  @Test
  void theSummaryShowsCallsAndTokensPerAgentStepAndAStop() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new SimulationRunner(null, new PrintStream(bytes, true)).printSummary(RESULT);
    String text = bytes.toString();
    assertTrue(text.contains("Stopped sim-epstein-42-x: 3 steps"), text);
    assertTrue(text.contains("in 2 runs (continue-as-new)"), text);
    assertTrue(text.contains("LLM calls: 148 (2.00 per agent step)"), text);
    assertTrue(text.contains("Tokens: 70000 in, 3285 out (990 per agent step)"), text);
    assertEquals("452.7k", SimulationRunner.compact(452734));
    assertEquals("1.1M", SimulationRunner.compact(1_081_700));
    assertEquals("9999", SimulationRunner.compact(9999));
  }
}
