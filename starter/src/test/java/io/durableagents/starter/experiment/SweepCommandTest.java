package io.durableagents.starter.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.CliFailuresTest;
import io.durableagents.starter.Failures;
import io.durableagents.workflows.experiment.ExperimentInput;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code sweep} before anything starts: the grid's values (lists, exact ranges, seeds, crossed), the
 * dry run's table and estimate, and every bad input failing in one line with exit 2 and no Temporal (the
 * address points nowhere: a sweep that got as far as connecting would fail with exit 4 instead).
 */
class SweepCommandTest {
  /** No Temporal here: nothing may get as far as connecting. */
  private static final Map<String, String> NOWHERE = Map.of("TEMPORAL_ADDRESS", "127.0.0.1:1");

  static CliFailuresTest.Run sweep(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "sweep";
    System.arraycopy(args, 0, all, 1, args.length);
    return CliFailuresTest.run(NOWHERE, all);
  }

  @Test
  void rangesAreComputedExactlyAndInclusive() {
    assertEquals(List.of("0.1", "0.3", "0.5", "0.7", "0.9"), SweepGrid.values("--param x", "0.1:0.9:0.2"));
    assertEquals(List.of("10", "11", "12"), SweepGrid.values("--param x", "10:12"));
    assertEquals(List.of("0.30", "0.35", "0.40"), SweepGrid.values("--param x", "0.30:0.40:0.05"));
    // lists, ranges inside lists, each value once
    assertEquals(List.of("1", "5", "6", "7"), SweepGrid.values("--param x", "1,5:7,5"));
    // a step that does not land on the stop stops before it
    assertEquals(List.of("0.0", "0.3", "0.6", "0.9"), SweepGrid.values("--param x", "0:1:0.3"));
    assertEquals(List.of("true", "false"), SweepGrid.values("--param x", "true,false"));
  }

  @Test
  void seedsAreACountAListOrARange() {
    assertEquals(List.of(42L, 43L, 44L), SweepGrid.seeds("3", 42));
    assertEquals(List.of(1L, 5L, 9L), SweepGrid.seeds("1,5,9", 42));
    assertEquals(List.of(3L, 4L, 5L), SweepGrid.seeds("3:5", 42));
    assertThrows(IllegalArgumentException.class, () -> SweepGrid.seeds("0", 42));
    assertThrows(IllegalArgumentException.class, () -> SweepGrid.seeds("1.5,2", 42));
  }

  @Test
  void dimensionsAreCrossedTheFirstSlowest() {
    Map<String, List<String>> dims = new LinkedHashMap<>();
    dims.put("a", List.of("1", "2"));
    dims.put("b", List.of("x", "y", "z"));
    List<Map<String, String>> points = SweepGrid.cross(dims);
    assertEquals(6, points.size());
    assertEquals(Map.of("a", "1", "b", "x"), points.get(0));
    assertEquals(Map.of("a", "1", "b", "z"), points.get(2));
    assertEquals(Map.of("a", "2", "b", "x"), points.get(3));
  }

  @Test
  void aDryRunPrintsTheRunsAndTheEstimateAndStartsNothing() {
    CliFailuresTest.Run r = sweep("--dry-run", "--steps", "5", "--citizens", "10", "--cops", "2",
        "--param", "legitimacy=0.5:0.7:0.1", "--strategies", "cot", "--strategies", "citizen=rewoo,cop=react",
        "--seeds", "2", "--seed", "7");
    assertEquals(0, r.exitCode(), r.out() + r.err());
    String[] lines = r.out().split("\\R");
    assertTrue(lines[0].matches("run\\s+legitimacy\\s+strategy\\s+seed\\s+est\\. calls\\s+est\\. tokens"), lines[0]);
    // 3 legitimacies x 2 strategies x 2 seeds, the seed fastest
    assertTrue(lines[1].matches("001\\s+0\\.5\\s+cot\\s+7\\s+120\\s+\\d+"), lines[1]);
    assertTrue(lines[2].matches("002\\s+0\\.5\\s+cot\\s+8\\s+120\\s+\\d+"), lines[2]);
    // 12 agents x 5 steps: CoT 2 calls an agent step; ReWOO (TTL 1) and ReAct 1
    assertTrue(lines[3].matches("003\\s+0\\.5\\s+citizen=rewoo,cop=react\\s+7\\s+60\\s+\\d+"), lines[3]);
    assertTrue(lines[13].startsWith("12 runs of epstein, 5 steps each. Estimate: up to ~120 LLM calls"), lines[13]);
    assertTrue(lines[13].contains("~1080 calls"), lines[13]);
    assertTrue(r.out().contains("Dry run: nothing was started."));
    assertEquals("", r.err().strip(), "no Temporal was asked: " + r.err());
  }

  @Test
  void theEstimateGoesIntoTheExperimentSoTheBudgetHoldsBeforeARunEnds() {
    io.durableagents.starter.run.SimulationOptions options = new io.durableagents.starter.run.SimulationOptions();
    picocli.CommandLine line = new picocli.CommandLine(new Object() {
      @picocli.CommandLine.Mixin
      io.durableagents.starter.run.SimulationOptions o = options;
    });
    line.parseArgs("--steps", "4", "--citizens", "5", "--cops", "1", "--param", "vision=2,3");
    SweepPlan plan = SweepPlan.of(options, new SweepPlan.Grid(options.takeParameters(), "1,2", List.of(), List.of()),
        io.durableagents.starter.LocalCatalog.get());
    ExperimentInput input = plan.input("t", 2, null, null, null, null, null);
    assertEquals(4, input.runs().size());
    assertEquals(48L, input.estimatedCallsPerRun()); // 6 agents x 4 steps x 2 calls
    assertEquals(6, input.agentsPerRun()); // each run's workflow task timeout is sized by its agents
    assertEquals(Map.of("vision", "2"), input.runs().get(0).values());
    assertEquals(1L, input.runs().get(0).seed());
    assertEquals(2, input.runs().get(0).parameters().get("vision").asInt());
    assertNull(input.runs().get(0).agentOptions(), "no strategy or model crossed in: the base's");
    assertEquals(5, input.base().parameters().get("citizens").asInt(), "single values go into the base");
  }

  @Test
  void strategiesAndModelsCrossedInGiveEachRunItsOwnAgentOptions() {
    io.durableagents.starter.run.SimulationOptions options = new io.durableagents.starter.run.SimulationOptions();
    picocli.CommandLine line = new picocli.CommandLine(new Object() {
      @picocli.CommandLine.Mixin
      io.durableagents.starter.run.SimulationOptions o = options;
    });
    line.parseArgs("--steps", "2", "--citizens", "4", "--cops", "1");
    SweepPlan plan = SweepPlan.of(options, new SweepPlan.Grid(options.takeParameters(), null,
        List.of("cot", "citizen=rewoo,cop=react"), List.of("rules", "rules+5ms")), io.durableagents.starter.LocalCatalog.get());
    assertEquals(List.of("strategy", "model"), plan.dimensions());
    assertEquals(4, plan.runs().size());
    var cotSlow = plan.runs().get(1);
    assertEquals(Map.of("strategy", "cot", "model", "rules+5ms"), cotSlow.values());
    assertEquals(io.durableagents.workflows.agent.Strategy.COT, cotSlow.agentOptions().strategy());
    assertEquals("rules+5ms", cotSlow.agentOptions().model());
    assertTrue(cotSlow.roleOptions().isEmpty());
    var mixed = plan.runs().get(2);
    assertEquals(io.durableagents.workflows.agent.Strategy.REWOO, mixed.roleOptions().get("citizen").strategy());
    assertEquals(io.durableagents.workflows.agent.Strategy.REACT, mixed.roleOptions().get("cop").strategy());
    assertEquals("rules", mixed.roleOptions().get("cop").model());
    assertEquals(42L, mixed.seed(), "without --seeds every run has --seed");
    // the simulation of a run is simulate's with those options
    var input = mixed.inputFrom(plan.base(), null);
    assertEquals(io.durableagents.workflows.agent.Strategy.REWOO, input.optionsFor("citizen").strategy());
  }

  private static void assertOneLine(CliFailuresTest.Run r, String start) {
    assertEquals(Failures.USAGE, r.exitCode(), r.out() + r.err());
    List<String> lines = r.errLines();
    assertTrue(lines.get(0).startsWith("sweep: " + start), "first line: " + lines.get(0) + "\nexpected: " + start);
    assertTrue(lines.size() <= 2, "a cause and a hint at most:\n" + r.err());
    CliFailuresTest.assertNoTrace(r);
  }

  @Test
  void badInputFailsInOneLineBeforeAnythingStarts() {
    assertOneLine(sweep("--param", "nonsense=1,2"), "--param: ");
    assertTrue(sweep("--param", "nonsense=1,2").err().contains("nonsense"));
    assertOneLine(sweep("--param", "legitimacy=0.9:0.1:0.2"), "--param legitimacy: '0.9:0.1:0.2' is empty");
    assertOneLine(sweep("--param", "legitimacy=0.1:0.9:0"), "--param legitimacy: the step of '0.1:0.9:0' must be above 0");
    assertOneLine(sweep("--param", "legitimacy=0.5,,0.7"), "--param legitimacy: an empty value");
    // a value the scenario's own check refuses, among good ones
    CliFailuresTest.Run refused = sweep("--param", "legitimacy=0.5,7");
    assertOneLine(refused, "--param: ");
    assertTrue(refused.err().contains("legitimacy") && refused.err().contains("7"), refused.err());
    assertOneLine(sweep("--seeds", "0"), "--seeds: 0 seeds");
    assertOneLine(sweep("--seeds", "a,b"), "--seeds: 'a' is not a whole number");
    assertOneLine(sweep("--param", "vision=1:101"), "the grid makes 101 runs, more than 100");
    assertOneLine(sweep("--param", "vision=1:50", "--seeds", "41", "--yes"), "the grid makes 2050 runs, more than the 2000");
    assertOneLine(sweep("--strategies", "cot", "--strategy", "react"), "--strategy and --strategies: give one");
    assertOneLine(sweep("--strategies", "plan-and-pray"), "--strategy: ");
    assertOneLine(sweep("--models", "nosuch"), "--model 'nosuch' is not one of");
    assertOneLine(sweep("--max-concurrent-runs", "0"), "--max-concurrent-runs must be >= 1");
    assertOneLine(sweep("--budget-calls", "0"), "--budget-calls must be >= 1");
    assertOneLine(sweep("--on-run-failure", "ignore"), "--on-run-failure: 'ignore' is not one of skip, retry, stop");
    assertOneLine(sweep("--run-retries", "2"), "--run-retries needs --on-run-failure retry");
    assertOneLine(sweep("--at-step", "3"), "--at-step needs --from");
    assertOneLine(sweep("--from", "sim-x"), "--from needs --at-step");
    assertOneLine(sweep("--budget-calls", "10", "--steps", "5"), "the budget of 10 calls is less than one run");
    assertOneLine(sweep("--id", " x"), "--id has leading or trailing spaces");
  }

  @Test
  void moreThanAHundredRunsStartWithYesOnly() {
    // with --yes the count is accepted and it gets as far as connecting (no Temporal here: exit 4)
    CliFailuresTest.Run r = sweep("--param", "vision=1:101", "--yes");
    assertEquals(Failures.UNAVAILABLE, r.exitCode(), r.out() + r.err());
    // a dry run of them needs no --yes
    assertEquals(0, sweep("--param", "vision=1:101", "--dry-run").exitCode());
  }

  @Test
  void theHelpSaysHowSweepReadsTheOptionsItSharesWithSimulate() {
    CliFailuresTest.Run r = CliFailuresTest.run(Map.of(), "help", "sweep");
    assertEquals(0, r.exitCode(), r.err());
    String help = r.out().replaceAll("\\s+", " ");
    assertTrue(help.contains("computed exactly (legitimacy=0.1:0.9:0.2 is 0.1, 0.3, 0.5, 0.7, 0.9"), help);
    assertTrue(help.contains("The experiment's workflow id (default: exp-<scenario>-<random>)"), help);
    assertTrue(help.contains("--seeds"), help);
  }
}
