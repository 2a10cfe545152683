package io.durableagents.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.ExecutionJournal;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.testing.TestWorkflowEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check passes for an undisturbed run, and fails when the journal shows a completed activity run
 * again: an attempt started twice, or an attempt after the one that completed.
 */
class ExecutionJournalCheckTest {
  @Test
  void findsACompletedActivityThatRanAgain(@TempDir Path dir) throws Exception {
    Path journal = dir.resolve("journal.log");
    DurableAgentsPlugin plugin = Builtins.plugin()
        .addWorkerInterceptors(new ExecutionJournal(journal)).build();
    try (TestWorkflowEnvironment env = DurableAgentsTestEnvironment.start(plugin)) {
      DurableAgentsTestEnvironment.simulation(env.getWorkflowClient(), "testkit-journal")
          .run(SimulationInput.of("epstein", 2, 9).withParameters(EpsteinParameters.DEFAULTS.withAgents(3, 1)));

      ExecutionJournalCheck.Report report =
          ExecutionJournalCheck.assertNoCompletedActivityRanAgain(env.getWorkflowClient(), "testkit-journal", journal);
      assertEquals(ExecutionJournalCheck.completedExecutions(journal), report.activities());
      assertEquals(0, report.retriedInFlight());
      assertEquals(1, report.workerProcesses());

      List<String> lines = Files.readAllLines(journal);
      String start = lines.stream().filter(l -> l.split("\t")[1].equals("start")).findFirst().orElseThrow();
      Files.writeString(journal, start + "\n", StandardOpenOption.APPEND);
      AssertionError twice = assertThrows(AssertionError.class, () ->
          ExecutionJournalCheck.assertNoCompletedActivityRanAgain(env.getWorkflowClient(), "testkit-journal", journal));
      assertTrue(twice.getMessage().contains("started twice"), twice.getMessage());

      Files.write(journal, lines);
      String[] f = start.split("\t");
      f[4] = "2";
      Files.writeString(journal, String.join("\t", f) + "\n", StandardOpenOption.APPEND);
      AssertionError again = assertThrows(AssertionError.class, () ->
          ExecutionJournalCheck.assertNoCompletedActivityRanAgain(env.getWorkflowClient(), "testkit-journal", journal));
      assertTrue(again.getMessage().startsWith("ran again after it completed"), again.getMessage());
    }
  }
}
