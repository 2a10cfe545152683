package io.durableagents.workflows.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.api.Json;
import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.scenarios.epstein.EpsteinWorld;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Changes of parameters during a run: checked when asked, applied at the boundary before their step. */
class InterventionsTest {
  private static final Scenario<?> EPSTEIN = Builtins.registry().get("epstein");
  private static final EpsteinParameters SMALL = EpsteinParameters.DEFAULTS.withAgents(3, 1);
  private static final SimulationInput INPUT = new SimulationInput("epstein", 10, 7, SMALL, null, null, null);

  private static InterventionRequest request(Map<String, String> values, Integer atStep) {
    return new InterventionRequest(values, atStep, null);
  }

  private static String refusal(Runnable check) {
    return assertThrows(IllegalArgumentException.class, check::run).getMessage();
  }

  @Test
  void anInterventionIsForTheFirstStepThatCanChangeUnlessItSaysWhich() {
    Interventions interventions = new Interventions();
    Intervention next = interventions.check(request(Map.of("legitimacy", "0.2"), null), EPSTEIN, INPUT, 3,
        false, false);
    assertEquals(4, next.atStep());
    assertEquals(1, next.number());
    assertFalse(next.applied());
    interventions.add(next);
    // a running step keeps the values it started with
    Intervention later = interventions.check(request(Map.of("max_jail_term", "3"), null), EPSTEIN, INPUT, 3,
        true, false);
    assertEquals(5, later.atStep());
    assertEquals(2, later.number(), "numbered in the order asked");
    assertEquals(7, interventions.check(request(Map.of("vision", "2"), 7), EPSTEIN, INPUT, 3, false, false)
        .atStep());
  }

  @Test
  void aStepPastRunningOrAfterTheLastAndARunThatIsOverAreRefused() {
    Interventions interventions = new Interventions();
    Map<String, String> values = Map.of("legitimacy", "0.2");
    assertEquals("step 3 is past: the run has completed step 3; the first step that can change is 4",
        refusal(() -> interventions.check(request(values, 3), EPSTEIN, INPUT, 3, false, false)));
    assertEquals("step 4 is running; the first step that can change is 5",
        refusal(() -> interventions.check(request(values, 4), EPSTEIN, INPUT, 3, true, false)));
    assertEquals("step 11 is after the run's last step, 10",
        refusal(() -> interventions.check(request(values, 11), EPSTEIN, INPUT, 3, false, false)));
    assertEquals("the simulation is over",
        refusal(() -> interventions.check(request(values, null), EPSTEIN, INPUT, 10, false, true)));
  }

  @Test
  void onlyParametersThatCanChangeDuringARunAndAllowedValuesAreTaken() {
    assertEquals("no parameter to change", refusal(() -> Interventions.checkedParameters(EPSTEIN, Map.of())));
    assertEquals("scenario epstein has no parameter 'nope'; those that can change during a run: vision, "
            + "legitimacy, active_threshold, arrest_probability_constant, max_jail_term",
        refusal(() -> Interventions.checkedParameters(EPSTEIN, Map.of("nope", "1"))));
    assertTrue(refusal(() -> Interventions.checkedParameters(EPSTEIN, Map.of("citizens", "3")))
        .startsWith("parameter 'citizens' of scenario epstein is fixed when the world is made"));
    assertTrue(refusal(() -> Interventions.checkedParameters(EPSTEIN, Map.of("legitimacy", "2")))
        .contains("legitimacy"));
    // an alias is taken under the parameter's name, in its JSON type
    assertEquals("{\"max_jail_term\":3}",
        Interventions.checkedParameters(EPSTEIN, Map.of("maxJailTerm", "3")).toString());
  }

  @Test
  void theInterventionsDueAreAppliedToTheWorldAndTheInputAndTheLaterOnesWait() {
    Interventions interventions = new Interventions();
    interventions.add(interventions.check(request(Map.of("legitimacy", "0.2"), 2), EPSTEIN, INPUT, 0, false,
        false));
    interventions.add(interventions.check(request(Map.of("max_jail_term", "3"), 5), EPSTEIN, INPUT, 0, false,
        false));
    ScenarioWorld world = EpsteinWorld.create(SMALL, new SeededRandom(7));

    Interventions.Applied before = interventions.applyDue(1, EPSTEIN, world, INPUT);
    assertSame(world, before.world(), "nothing due before step 2");
    assertSame(INPUT, before.input());

    Interventions.Applied applied = interventions.applyDue(2, EPSTEIN, world, INPUT);
    assertEquals(0.2, applied.input().parameters().get("legitimacy").asDouble());
    assertEquals(0.2, applied.world().observe("citizen-0", 2).selfState().get("legitimacy"));
    List<Intervention> all = interventions.all();
    assertEquals("legitimacy 0.5 -> 0.2", all.get(0).describe());
    assertTrue(all.get(0).applied());
    assertFalse(all.get(1).applied(), "max_jail_term waits for step 5");

    Interventions.Applied again = interventions.applyDue(3, EPSTEIN, applied.world(), applied.input());
    assertSame(applied.world(), again.world(), "an intervention is applied once");
  }

  @Test
  void theInterventionsOfAContinuedRunAreTakenUpInOrder() {
    Intervention carried = new Intervention(1, 4, Json.MAPPER.createObjectNode().put("vision", 2), null, false,
        "wider");
    Interventions interventions = new Interventions();
    interventions.restore(List.of(carried));
    assertEquals(List.of(carried), interventions.all());
    assertEquals(2, interventions.check(request(Map.of("vision", "3"), null), EPSTEIN, INPUT, 3, false, false)
        .number());
  }
}
