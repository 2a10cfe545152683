package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.Intervention;
import io.durableagents.workflows.simulation.InterventionRequest;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Interventions: a parameter changed from a step on by an update, applied at the boundary before it,
 * carried across continue-as-new and marked in the result; the validator refuses an unknown or fixed
 * parameter, a bad value and a past step before anything reaches the history.
 */
class InterventionTest {
  private static TestWorkflowEnvironment env;

  @BeforeAll
  static void start() {
    env = TestWorkers.start(Builtins.plugin().build());
  }

  @AfterAll
  static void close() {
    env.close();
  }

  private static SimulationInput input() {
    return new SimulationInput("epstein", 8, 3, EpsteinParameters.DEFAULTS.withAgents(30, 3), null, null, null)
        .withContinueAsNewEvery(2);
  }

  private static SimulationWorkflow started(String id, SimulationInput input) {
    SimulationWorkflow sim = env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
    // started paused: the pause signal comes with the start
    io.temporal.client.BatchRequest start = env.getWorkflowClient().newSignalWithStartRequest();
    start.add(sim::run, input);
    start.add(sim::pause);
    env.getWorkflowClient().signalWithStart(start);
    return env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class, id);
  }

  private static SimulationResult result(String id) {
    return env.getWorkflowClient().newUntypedWorkflowStub(id).getResult(SimulationResult.class);
  }

  @Test
  void aChangeAppliesFromItsStepAcrossContinueAsNewAndIsMarkedInTheResult() {
    SimulationWorkflow plain = started("plain", input());
    plain.resume();
    SimulationResult reference = result("plain");

    SimulationWorkflow sim = started("intervened", input());
    Intervention scheduled = sim.intervene(new InterventionRequest(Map.of("legitimacy", "0.05"), 5, "crackdown"));
    assertEquals(5, scheduled.atStep());
    assertEquals(1, scheduled.number());
    assertTrue(!scheduled.applied());
    sim.resume();
    SimulationResult changed = result("intervened");
    assertTrue(changed.runs() > 2, "continued as new before step 5: " + changed.runs());
    assertEquals(reference.perStep().subList(0, 4), changed.perStep().subList(0, 4), "steps 1-4 as before");
    assertNotEquals(reference.perStep().subList(4, 8), changed.perStep().subList(4, 8), "low legitimacy from step 5");
    assertEquals(1, changed.interventions().size());
    Intervention applied = changed.interventions().get(0);
    assertTrue(applied.applied());
    assertEquals(5, applied.atStep());
    assertEquals("legitimacy 0.5 -> 0.05", applied.describe());
    assertEquals("crackdown", applied.note());
    assertTrue(reference.interventions().isEmpty());
  }

  @Test
  void theValidatorRefusesBadChangesBeforeTheyReachTheHistory() {
    SimulationWorkflow sim = started("refused", input().withSteps(100));
    assertRefused(() -> sim.intervene(new InterventionRequest(Map.of("nope", "1"), null, null)),
        "scenario epstein has no parameter 'nope'; those that can change during a run: vision, legitimacy, "
            + "active_threshold, arrest_probability_constant, max_jail_term");
    assertRefused(() -> sim.intervene(new InterventionRequest(Map.of("citizens", "3"), null, null)),
        "parameter 'citizens' of scenario epstein is fixed when the world is made");
    assertRefused(() -> sim.intervene(new InterventionRequest(Map.of("legitimacy", "2"), null, null)),
        "legitimacy");
    assertRefused(() -> sim.intervene(new InterventionRequest(Map.of("legitimacy", "high"), null, null)),
        "legitimacy");
    assertRefused(() -> sim.intervene(new InterventionRequest(Map.of("legitimacy", "0.2"), 0, null)),
        "step 0 is past: the run has completed step 0; the first step that can change is 1");
    assertRefused(() -> sim.intervene(new InterventionRequest(Map.of("legitimacy", "0.2"), 101, null)),
        "step 101 is after the run's last step, 100");
    assertRefused(() -> sim.intervene(new InterventionRequest(Map.of(), null, null)), "no parameter to change");
    Intervention ok = sim.intervene(new InterventionRequest(Map.of("max_jail_term", "3"), null, null));
    assertEquals(1, ok.atStep());
    assertEquals(List.of(ok), sim.interventions());
    sim.stop();
    result("refused");
    long accepted = env.getWorkflowClient().fetchHistory("refused").getEvents().stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED).count();
    assertEquals(1, accepted, "only the accepted update is in the history");
  }

  private static void assertRefused(Runnable update, String message) {
    WorkflowUpdateException e = assertThrows(WorkflowUpdateException.class, update::run);
    String text = String.valueOf(e.getCause().getMessage());
    assertTrue(text.contains(message), text + "\nexpected: " + message);
  }
}
