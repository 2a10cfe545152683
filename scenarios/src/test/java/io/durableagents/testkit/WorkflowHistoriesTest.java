package io.durableagents.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestWorkflowEnvironment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A history recorded to a file replays against the plugin's workflows; one that no longer fits fails. */
class WorkflowHistoriesTest {
  static final DurableAgentsPlugin PLUGIN = Builtins.plugin().build();

  @Test
  void aRecordedHistoryReplaysAndAMismatchFails(@TempDir Path dir) throws Exception {
    Path file;
    try (TestWorkflowEnvironment env = DurableAgentsTestEnvironment.start(PLUGIN)) {
      DurableAgentsTestEnvironment.simulation(env.getWorkflowClient(), "testkit-replay")
          .run(SimulationInput.of("epstein", 2, 5).withParameters(EpsteinParameters.DEFAULTS.withAgents(3, 1)));
      file = WorkflowHistories.record(env.getWorkflowClient(), "testkit-replay", dir.resolve("histories"));
    }
    assertEquals("testkit-replay.json", file.getFileName().toString());
    assertEquals("a%2Fb.json", WorkflowHistories.fileName("a/b"));
    WorkflowExecutionHistory history = WorkflowHistories.read(file);
    assertEquals("testkit-replay", history.getWorkflowExecution().getWorkflowId());
    WorkflowHistories.replay(PLUGIN, history);
    assertEquals(1, WorkflowHistories.readAll(file.getParent()).size());

    // Replayed as another workflow, the simulation starts its agents' steps under other ids than the
    // history recorded: Temporal's non-determinism check catches it.
    Exception e = assertThrows(Exception.class,
        () -> WorkflowHistories.replay(PLUGIN, WorkflowHistories.read(file, "another-id")));
    assertTrue(String.valueOf(e.getMessage()).contains("another-id"), e.toString());
  }

  @Test
  void aDirectoryWithoutHistoriesIsAnError(@TempDir Path dir) {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> WorkflowHistories.readAll(dir));
    assertTrue(e.getMessage().startsWith("no recorded histories"), e.getMessage());
  }
}
