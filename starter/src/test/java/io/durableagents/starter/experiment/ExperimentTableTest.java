package io.durableagents.starter.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.durableagents.starter.run.CountColumns;
import io.durableagents.workflows.experiment.ExperimentRunOutcome;
import io.durableagents.workflows.experiment.ExperimentRunResult;
import io.durableagents.workflows.experiment.RunStatus;
import io.durableagents.workflows.simulation.StepCounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summary's statistics by grid point over seeds, the CSV's quoting, and the numbers' format. */
class ExperimentTableTest {
  @TempDir
  Path dir;

  static ExperimentRunOutcome run(int index, String legitimacy, long seed, RunStatus status, Integer active) {
    Map<String, Number> counts = new LinkedHashMap<>();
    if (active != null) {
      counts.put("active", active);
    }
    ExperimentRunResult result = active == null ? null : new ExperimentRunResult(1, false,
        List.of(new StepCounts(1, counts, 10L, 100L)), counts, 5, 10, 100, 0, List.of());
    return new ExperimentRunOutcome(index, "exp/run-00" + index, Map.of("legitimacy", legitimacy), seed, status, 1,
        active == null ? "Failed: it said \"no\", twice" : null, result);
  }

  @Test
  void groupsAreTheGridPointsWithoutTheSeedAndCountOnlyRunsWithAResult() throws Exception {
    ExperimentTable table = ExperimentTable.of(List.of(run(1, "0.3", 1, RunStatus.COMPLETED, 2),
        run(2, "0.3", 2, RunStatus.COMPLETED, 4), run(3, "0.3", 3, RunStatus.COMPLETED, 9),
        run(4, "0.7", 1, RunStatus.FAILED, null)), CountColumns.none());
    List<ExperimentTable.Group> groups = table.groups();
    assertEquals(2, groups.size());
    ExperimentTable.Stat active = groups.get(0).stats().get("active");
    assertEquals(5.0, active.mean(), 1e-9);
    assertEquals(Math.sqrt(13), active.sd(), 1e-9); // ((9 + 1 + 16) / 2)
    assertEquals(2.0, active.min());
    assertEquals(9.0, active.max());
    assertEquals(3, active.n());
    assertEquals(0, groups.get(1).runs());
    // a stopped run's fewer steps are not averaged with the completed runs'
    ExperimentTable stopped = ExperimentTable.of(List.of(run(1, "0.3", 1, RunStatus.COMPLETED, 2),
        run(2, "0.3", 2, RunStatus.STOPPED, 100)), CountColumns.none());
    assertEquals(2.0, stopped.groups().get(0).stats().get("active").mean());
    assertEquals(1, stopped.groups().get(0).runs());
    Path file = dir.resolve("runs.csv");
    table.writeRunsCsv(file);
    List<String> lines = Files.readAllLines(file);
    assertEquals("run_id,run,legitimacy,seed,status,attempts,reason,steps,active,llm_calls,tokens,agent_steps,"
        + "failed_agent_steps", lines.get(0));
    assertEquals("exp/run-004,4,0.7,1,FAILED,1,\"Failed: it said \"\"no\"\", twice\",,,,,,", lines.get(4));
  }

  @Test
  void numbersAreWholeOrFourSignificantDigitsInPlainNotation() {
    assertEquals("22264", ExperimentTable.format(22264));
    assertEquals("22260", ExperimentTable.format(22264.67));
    assertEquals("1.667", ExperimentTable.format(5.0 / 3));
    assertEquals("0.5", ExperimentTable.format(0.5));
  }
}
