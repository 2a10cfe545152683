package io.durableagents.workflows.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.simulation.StepCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The table an experiment returns: its rows while they fit in one payload, its runs' totals always. */
class ExperimentTableTest {
  private static ExperimentRunOutcome ended(int index, int steps) {
    List<StepCounts> rows = new ArrayList<>();
    for (int s = 1; s <= steps; s++) {
      rows.add(new StepCounts(s, Map.of("active", s), (long) s, 10L * s));
    }
    return new ExperimentRunOutcome(index, "exp/run-" + index, Map.of("legitimacy", "0.5"), (long) index,
        RunStatus.COMPLETED, 1, null, new ExperimentRunResult(steps, false, rows, Map.of("active", steps), 4L * steps,
            steps, 10L * steps, 0, null));
  }

  @Test
  void rowsUpToTheBoundStayAndBeyondItOnlyTheTotals() {
    List<ExperimentRunOutcome> runs = List.of(ended(1, 30), ended(2, 30),
        new ExperimentRunOutcome(3, null, Map.of(), 3L, RunStatus.NOT_STARTED, 0, "budget", null));
    List<ExperimentRunOutcome> fits = ExperimentWorkflowImpl.table(runs, 60);
    assertFalse(ExperimentWorkflowImpl.tooManyRows(runs, 60));
    assertEquals(30, fits.get(0).result().perStep().size());

    assertTrue(ExperimentWorkflowImpl.tooManyRows(runs, 59));
    List<ExperimentRunOutcome> totals = ExperimentWorkflowImpl.table(runs, 59);
    assertEquals(3, totals.size());
    assertTrue(totals.get(0).result().perStep().isEmpty());
    assertEquals(Map.of("active", 30), totals.get(0).result().finalCounts());
    assertEquals(300, totals.get(1).result().tokens());
    assertEquals("budget", totals.get(2).reason());
  }
}
