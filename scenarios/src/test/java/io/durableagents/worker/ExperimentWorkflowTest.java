package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.api.Json;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.experiment.ExperimentBudget;
import io.durableagents.workflows.experiment.ExperimentInput;
import io.durableagents.workflows.experiment.ExperimentResult;
import io.durableagents.workflows.experiment.ExperimentRun;
import io.durableagents.workflows.experiment.ExperimentRunOutcome;
import io.durableagents.workflows.experiment.ExperimentWorkflow;
import io.durableagents.workflows.experiment.RunFailurePolicy;
import io.durableagents.workflows.experiment.RunStatus;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Experiments: every run a child simulation with the input its grid point and seed make, each the same
 * as a simulation started alone with that input; failed runs reported (skipped, retried or stopping the
 * experiment), runs the budget does not allow reported as not started, stop and pause for all runs.
 */
class ExperimentWorkflowTest {
  private static TestWorkflowEnvironment env;
  private static WorkflowClient client;
  private static DurableAgentsPlugin plugin;

  @BeforeAll
  static void start() {
    plugin = Builtins.plugin().build();
    env = TestWorkers.start(plugin);
    client = env.getWorkflowClient();
  }

  @AfterAll
  static void close() {
    env.close();
  }

  static SimulationInput base() {
    return new SimulationInput("epstein", 3, 7, EpsteinParameters.DEFAULTS.withAgents(6, 2),
        AgentOptions.newBuilder().setStrategy(Strategy.COT).build(), null, null);
  }

  static ObjectNode params(String name, Object value) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.set(name, Json.MAPPER.valueToTree(value));
    return node;
  }

  /** legitimacy 0.3 and 0.8 crossed with seeds 1 and 2. */
  static List<ExperimentRun> grid() {
    List<ExperimentRun> runs = new ArrayList<>();
    int index = 1;
    for (double legitimacy : new double[] {0.3, 0.8}) {
      for (long seed : new long[] {1, 2}) {
        runs.add(new ExperimentRun(index++, Map.of("legitimacy", String.valueOf(legitimacy)), seed,
            params("legitimacy", legitimacy), null, null, null));
      }
    }
    return runs;
  }

  static ExperimentWorkflow stub(String id) {
    return client.newWorkflowStub(ExperimentWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
  }

  static SimulationResult alone(String id, SimulationInput input) {
    return client.newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build()).run(input);
  }

  @Test
  void everyRunIsTheSimulationItsGridPointAndSeedMake() {
    ExperimentResult result = stub("exp-grid").run(new ExperimentInput("legitimacy", base(), grid(), 2, null,
        null, null, null, null, null, null));
    assertEquals(4, result.runs().size());
    assertEquals(4, result.count(RunStatus.COMPLETED));
    long calls = 0;
    for (ExperimentRunOutcome run : result.runs()) {
      assertEquals("exp-grid/run-00" + run.index(), run.runId());
      assertEquals(1, run.attempts());
      assertNull(run.reason());
      assertEquals(3, run.result().steps());
      assertEquals(3, run.result().perStep().size());
      // the same as the simulation of that input started alone
      ExperimentRun planned = grid().get(run.index() - 1);
      SimulationResult alone = alone("alone-" + run.index(), planned.inputFrom(base(), null));
      assertEquals(alone.perStep(), run.result().perStep(), "run " + run.index());
      assertEquals(alone.finalCounts(), run.result().finalCounts());
      assertEquals(alone.llmCalls(), run.result().llmCalls());
      assertEquals(alone.seed(), planned.seed());
      assertEquals(alone.usage().total(), run.result().tokens());
      calls += run.result().llmCalls();
    }
    assertEquals(calls, result.llmCalls());
    assertTrue(calls > 0, "the rules model's calls are counted");
    // grid points differ: legitimacy changes the outcome
    assertTrue(!result.runs().get(0).result().finalCounts().equals(result.runs().get(2).result().finalCounts())
        || !result.runs().get(0).result().perStep().equals(result.runs().get(2).result().perStep()));
  }

  @Test
  void aFailedRunIsReportedInItsRowAndTheOthersGoOn() {
    List<ExperimentRun> runs = new ArrayList<>(grid().subList(0, 2));
    // a value the scenario's check refuses: that simulation fails at once, naming it
    runs.add(1, new ExperimentRun(3, Map.of("legitimacy", "7"), 1L, params("legitimacy", 7), null, null, null));
    ExperimentResult skipped = stub("exp-skip").run(new ExperimentInput(null, base(), runs, 1, null,
        RunFailurePolicy.SKIP, null, null, null, null, null));
    ExperimentRunOutcome failed = skipped.runs().get(1);
    assertEquals(RunStatus.FAILED, failed.status());
    assertTrue(failed.reason().contains("legitimacy"), failed.reason());
    assertEquals(1, failed.attempts());
    assertEquals(2, skipped.count(RunStatus.COMPLETED));

    ExperimentResult retried = stub("exp-retry").run(new ExperimentInput(null, base(), runs, 1, null,
        RunFailurePolicy.RETRY, 2, null, null, null, null));
    ExperimentRunOutcome again = retried.runs().get(1);
    assertEquals(RunStatus.FAILED, again.status());
    assertEquals(3, again.attempts());
    assertEquals("exp-retry/run-003-retry-2", again.runId());
    assertEquals(2, retried.count(RunStatus.COMPLETED));

    ExperimentResult stopped = stub("exp-stop-on-failure").run(new ExperimentInput(null, base(), runs, 1, null,
        RunFailurePolicy.STOP, null, null, null, null, null));
    assertEquals(RunStatus.COMPLETED, stopped.runs().get(0).status());
    assertEquals(RunStatus.FAILED, stopped.runs().get(1).status());
    assertEquals(RunStatus.NOT_STARTED, stopped.runs().get(2).status());
    assertTrue(stopped.runs().get(2).reason().contains("run 3 failed"), stopped.runs().get(2).reason());
  }

  @Test
  void noRunStartsThatCouldPassTheBudget() {
    SimulationResult one = alone("budget-probe", grid().get(0).inputFrom(base(), null));
    long perRun = one.llmCalls();
    // room for two runs of this size and a half
    ExperimentResult result = stub("exp-budget").run(new ExperimentInput(null, base(), grid(), 1,
        new ExperimentBudget(perRun * 5 / 2, null), null, null, perRun, null, null, null));
    assertEquals(2, result.count(RunStatus.COMPLETED), result.runs().toString());
    assertEquals(2, result.count(RunStatus.NOT_STARTED));
    for (ExperimentRunOutcome run : result.runs()) {
      if (run.status() == RunStatus.NOT_STARTED) {
        assertTrue(run.reason().contains("budget of " + (perRun * 5 / 2) + " calls"), run.reason());
        assertNull(run.runId());
      }
    }
    assertTrue(result.llmCalls() <= perRun * 5 / 2);
  }

  @Test
  void stopEndsTheRunningRunsAndStartsNoOther() {
    ExperimentWorkflow experiment = stub("exp-stopped");
    SimulationInput longer = base().withSteps(50);
    WorkflowClient.start(experiment::run, new ExperimentInput(null, longer, grid(), 1, null, null, null, null,
        null, null, null));
    // once the first run has started, stop the experiment
    SimulationWorkflow first = client.newWorkflowStub(SimulationWorkflow.class, "exp-stopped/run-001");
    waitFor(() -> {
      try {
        return first.progress() != null && first.progress().step() >= 1;
      } catch (RuntimeException e) {
        return false;
      }
    });
    experiment.stop();
    ExperimentResult result = WorkflowStub.fromTyped(experiment).getResult(ExperimentResult.class);
    assertTrue(result.stopped());
    ExperimentRunOutcome run1 = result.runs().get(0);
    assertEquals(RunStatus.STOPPED, run1.status());
    assertTrue(run1.result().steps() < 50);
    assertEquals(run1.result().steps(), run1.result().perStep().size());
    for (ExperimentRunOutcome later : result.runs().subList(1, 4)) {
      assertEquals(RunStatus.NOT_STARTED, later.status());
      assertTrue(later.reason().contains("stopped"), later.reason());
    }
  }

  @Test
  void pauseHoldsEveryRunAndResumeGoesOn() {
    ExperimentWorkflow experiment = stub("exp-paused");
    WorkflowClient.start(experiment::run, new ExperimentInput(null, base().withSteps(20), grid().subList(0, 2), 2,
        null, null, null, null, null, null, null));
    SimulationWorkflow first = client.newWorkflowStub(SimulationWorkflow.class, "exp-paused/run-001");
    waitFor(() -> {
      try {
        return first.progress() != null && first.progress().step() >= 1;
      } catch (RuntimeException e) {
        return false;
      }
    });
    experiment.pause();
    waitFor(() -> first.progress().paused());
    assertTrue(experiment.progress().paused());
    experiment.resume();
    ExperimentResult result = WorkflowStub.fromTyped(experiment).getResult(ExperimentResult.class);
    assertEquals(2, result.count(RunStatus.COMPLETED));
    assertEquals(20, result.runs().get(0).result().steps());
  }

  @Test
  void whatIfsGoOnFromARecordedStepWithTheirValues() throws Exception {
    SimulationInput input = base().withSteps(6);
    SimulationResult reference = alone("whatif-ref", input);
    SimulationReplay replay = new SimulationReplay(client, plugin);
    try {
      Checkpoint at3 = replay.stateAfter(client, "whatif-ref", 3);
      JsonNode low = params("legitimacy", 0.2);
      List<ExperimentRun> runs = List.of(
          new ExperimentRun(1, Map.of(), null, null, null, null, null),
          new ExperimentRun(2, Map.of("legitimacy", "0.2"), null, null, low, null, null));
      ExperimentResult result = stub("exp-whatif").run(new ExperimentInput(null, at3.input(), runs, 2, null, null,
          null, null, null, "whatif-ref", 3));
      assertEquals(2, result.count(RunStatus.COMPLETED));
      // unchanged, it repeats the recorded run's later steps exactly
      List<io.durableagents.workflows.simulation.StepCounts> rows = result.runs().get(0).result().perStep();
      assertEquals(List.of(4, 5, 6), rows.stream().map(r -> r.step()).toList());
      long callsBy3 = reference.perStep().get(2).llmCalls();
      for (int i = 0; i < 3; i++) {
        assertEquals(reference.perStep().get(3 + i).counts(), rows.get(i).counts());
        assertEquals(reference.perStep().get(3 + i).llmCalls() - callsBy3, rows.get(i).llmCalls());
      }
      // the first 3 steps cost no call: only steps 4-6 are paid
      assertEquals(reference.llmCalls() - callsBy3, result.runs().get(0).result().llmCalls());
      SimulationResult changed = client.newUntypedWorkflowStub("exp-whatif/run-002").getResult(SimulationResult.class);
      assertEquals(1, changed.interventions().size());
      assertEquals(4, changed.interventions().get(0).atStep());
      assertTrue(changed.interventions().get(0).applied());
    } finally {
      replay.close();
    }
  }

  @Test
  void anExperimentWithoutRunsFailsAtOnceNamingIt() {
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, () -> stub("exp-empty").run(
        new ExperimentInput(null, base(), List.of(), null, null, null, null, null, null, null, null)));
    ApplicationFailure cause = (ApplicationFailure) e.getCause();
    assertEquals("InvalidExperiment", cause.getType());
    assertTrue(cause.getOriginalMessage().contains("runs must hold at least one run"));
  }

  static void waitFor(java.util.function.BooleanSupplier condition) {
    long end = System.nanoTime() + 60_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("condition not met within 60 s");
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }
}
