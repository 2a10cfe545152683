package io.durableagents.examples.boltzmann;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.testkit.DurableAgentsTestEnvironment;
import io.durableagents.testkit.ExecutionJournalCheck;
import io.durableagents.testkit.KillNineHarness;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.WorkerSettings;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.TestWorkflowEnvironment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The example's own worker ({@link BoltzmannWorker}) in a child JVM, killed with {@code kill -9} in the
 * middle of a run and replaced: the run ends exactly as an undisturbed one with the same seed, and no
 * activity that had completed ran again.
 */
class BoltzmannKillNineTest {
  /** Each call of the rules model takes 10 ms, as a (very fast) model would: calls are in flight at the kill. */
  static final Map<String, String> WORKER_ENV = Map.of(WorkerSettings.RULES_DELAY_MS, "10");

  static final DurableAgentsPlugin PLUGIN = DurableAgentsPlugin.newBuilder()
      .registerScenario(new BoltzmannScenario(), new BoltzmannActions(), new BoltzmannRulePolicy())
      .build();

  @Test
  void aWorkerKilledMidRunIsReplacedAndTheRunEndsAsIfNothingHappened() throws Exception {
    SimulationInput input = SimulationInput.of(BoltzmannScenario.NAME, 6, 7)
        .withParameters(new BoltzmannParameters(10, 3, 3, 3, 4));
    try (KillNineHarness harness = KillNineHarness.start(Path.of("target", "kill-nine"))) {
      WorkflowClient client = harness.client();
      KillNineHarness.ChildWorker first = harness.startWorker(BoltzmannWorker.class, WORKER_ENV);

      // While the worker's JVM starts: the undisturbed run, in this JVM, on Temporal's test environment
      SimulationResult reference;
      try (TestWorkflowEnvironment env = DurableAgentsTestEnvironment.start(PLUGIN)) {
        reference = DurableAgentsTestEnvironment.simulation(env.getWorkflowClient(), "boltzmann-reference").run(input);
      }
      long calls = reference.llmCalls();

      SimulationWorkflow crash = DurableAgentsTestEnvironment.simulation(client, "boltzmann-crash");
      WorkflowClient.start(crash::run, input);
      // in the middle of a step, when calls are in flight (a step ends on a multiple of the agents)
      harness.awaitCompletedActivities(calls / 2 + 3, Duration.ofSeconds(60));
      first.kill();
      long doneAtKill = harness.completedActivities();
      assertTrue(doneAtKill < calls, "the kill landed mid-run: " + doneAtKill + " of " + calls + " calls done");

      harness.startWorker(BoltzmannWorker.class, WORKER_ENV);
      SimulationResult crashed = client.newUntypedWorkflowStub("boltzmann-crash")
          .getResult(90, TimeUnit.SECONDS, SimulationResult.class);

      assertEquals(reference.perStep(), crashed.perStep());
      assertEquals(reference.finalCounts(), crashed.finalCounts());
      assertEquals(reference.llmCalls(), crashed.llmCalls());
      assertEquals(reference.usage(), crashed.usage());
      ExecutionJournalCheck.Report report = harness.assertNoCompletedActivityRanAgain("boltzmann-crash");
      assertEquals(2, report.workerProcesses(), "both workers ran activities of the run");
      assertEquals(calls, report.activities(), "one activity per LLM call");
      System.out.printf("kill -9 after %d of %d calls; %s%n", doneAtKill, calls, report);
    }
  }
}
