package io.durableagents.scenarios.epstein;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import io.durableagents.scenarios.grid.GridPosition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EpsteinWorldTest {
  private static final EpsteinParameters P = new EpsteinParameters(10, 10, 3, 1, 2, 0.5, 0.1, 2.3, 4);

  private static EpsteinWorld world(EpsteinAgent... agents) {
    return EpsteinWorld.restore(P, List.of(agents));
  }

  private static EpsteinAgent citizen(String id, int x, int y, String state, double hardship, double risk) {
    return new EpsteinAgent(id, EpsteinScenario.CITIZEN, new GridPosition(x, y), state, hardship, risk, 0);
  }

  private static EpsteinAgent cop(String id, int x, int y) {
    return new EpsteinAgent(id, EpsteinScenario.COP, new GridPosition(x, y), EpsteinScenario.COP, 0, 0, 0);
  }

  private static WorldAction action(String agent, String tool, String args) {
    return new WorldAction(agent, "c", tool, Json.tryParse(args));
  }

  @Test
  void createsTheReferenceExampleOnDistinctCells() {
    EpsteinWorld w = EpsteinWorld.create(EpsteinParameters.DEFAULTS, new SeededRandom(1));
    assertEquals(25, w.agentIds().size());
    assertEquals(20, w.agents().stream().filter(EpsteinAgent::isCitizen).count());
    assertEquals(5, w.agents().stream().filter(EpsteinAgent::isCop).count());
    assertEquals(25, w.agents().stream().map(EpsteinAgent::position).distinct().count());
    assertEquals(Map.of("active", 0, "quiet", 20, "jailed", 0), w.counts());
  }

  @Test
  void theSameSeedGivesTheSameWorld() {
    EpsteinWorld a = EpsteinWorld.create(EpsteinParameters.DEFAULTS, new SeededRandom(7));
    EpsteinWorld b = EpsteinWorld.create(EpsteinParameters.DEFAULTS, new SeededRandom(7));
    EpsteinWorld c = EpsteinWorld.create(EpsteinParameters.DEFAULTS, new SeededRandom(8));
    assertEquals(a.agents(), b.agents());
    assertNotEquals(a.agents(), c.agents());
  }

  @Test
  void neighboursSeeOnlyPublicAttributesWithinVision() {
    EpsteinWorld w = world(citizen("citizen-0", 0, 0, "quiet", 0.8, 0.2),
        citizen("citizen-1", 2, 2, "active", 0.1, 0.1), citizen("citizen-2", 5, 5, "quiet", 0.1, 0.1),
        cop("cop-0", 9, 9));
    Observation o = w.observe("citizen-0", 4);
    assertEquals(4, o.step());
    assertEquals(0.4, o.selfState().get("_grievance"));
    assertTrue(o.selfState().containsKey("_risk_aversion"), "an agent sees its own hidden attributes");
    assertEquals(List.of("citizen-1", "cop-0"), List.copyOf(o.localState().keySet()),
        "vision 2 on a torus: (2,2) and (9,9) are in sight, (5,5) is not");
    for (Map<String, Object> neighbour : o.localState().values()) {
      assertFalse(neighbour.keySet().stream().anyMatch(k -> k.startsWith("_")), neighbour.toString());
    }
    assertEquals("active", o.localState().get("citizen-1").get("state"));
  }

  @Test
  void arrestProbabilityFollowsEpstein() {
    // one cop, one active neighbour plus itself: round(1/2) = 0 (half to even), so P = 0
    EpsteinWorld w = world(citizen("citizen-0", 0, 0, "quiet", 0.8, 0.2),
        citizen("citizen-1", 1, 1, "active", 0.1, 0.1), cop("cop-0", 1, 0));
    assertEquals(0.0, w.estimatedArrestProbability(w.agent("citizen-0")), 1e-9);
    // one cop, no active neighbour: round(1/1) = 1, P = 1 - exp(-2.3)
    EpsteinWorld w2 = world(citizen("citizen-0", 0, 0, "quiet", 0.8, 0.2), cop("cop-0", 1, 0));
    assertEquals(1 - Math.exp(-2.3), w2.estimatedArrestProbability(w2.agent("citizen-0")), 1e-9);
    // G = 0.8 * 0.5 = 0.4; N = 0.2 * 0.8997 = 0.18; G - N = 0.22 > 0.1
    assertTrue(w2.wouldBeActive(w2.agent("citizen-0")));
  }

  @Test
  void movesWrapAroundAndAreBlockedByTakenCells() {
    EpsteinWorld w = world(citizen("citizen-0", 0, 9, "quiet", 0.1, 0.1), citizen("citizen-1", 1, 0, "quiet", 0.1, 0.1));
    SeededRandom r = new SeededRandom(1);
    assertEquals("move_one_step NorthEast: blocked, cell [1, 0] is taken by citizen-1",
        w.apply(action("citizen-0", "move_one_step", "{\"direction\":\"NorthEast\"}"), r));
    assertEquals(new GridPosition(0, 9), w.agent("citizen-0").position());
    assertTrue(w.apply(action("citizen-0", "move_one_step", "{\"direction\":\"North\"}"), r).contains("moved to [0, 0]"));
    assertTrue(w.apply(action("citizen-0", "move_one_step", "{\"direction\":\"Up\"}"), r).contains("must be one of"));
  }

  @Test
  void copsArrestOnlyActiveCitizensInSightAndJailRunsDown() {
    EpsteinWorld w = world(citizen("citizen-0", 1, 1, "active", 0.9, 0.1),
        citizen("citizen-1", 2, 2, "quiet", 0.1, 0.1), citizen("citizen-2", 6, 6, "active", 0.9, 0.1),
        cop("cop-0", 0, 0));
    SeededRandom r = new SeededRandom(3);
    assertTrue(w.apply(action("cop-0", "arrest_citizen", "{\"citizen_id\":\"citizen-1\"}"), r).contains("is quiet"));
    assertTrue(w.apply(action("cop-0", "arrest_citizen", "{\"citizen_id\":\"citizen-2\"}"), r).contains("out of your vision"));
    assertTrue(w.apply(action("citizen-1", "arrest_citizen", "{\"citizen_id\":\"citizen-0\"}"), r).contains("only cops"));
    String arrested = w.apply(action("cop-0", "arrest_citizen", "{\"citizen_id\":\"citizen-0\"}"), r);
    assertTrue(arrested.startsWith("arrest_citizen: arrested citizen-0, jailed for "), arrested);
    assertTrue(w.apply(action("cop-0", "arrest_citizen", "{\"citizen_id\":\"citizen-0\"}"), r).contains("already in jail"));
    assertFalse(w.canAct("citizen-0"));
    assertEquals(Map.of("active", 1, "quiet", 1, "jailed", 1), w.counts());
    int sentence = w.agent("citizen-0").jailSentence();
    assertTrue(sentence >= 0 && sentence <= P.maxJailTerm());
    for (int i = 0; i <= sentence; i++) {
      assertFalse(w.canAct("citizen-0"));
      w.endStep(i, r);
    }
    assertTrue(w.canAct("citizen-0"), "released after its sentence");
    assertEquals("quiet", w.agent("citizen-0").condition());
  }

  @Test
  void changeStateIsForCitizensAndChecksItsArgument() {
    EpsteinWorld w = world(citizen("citizen-0", 1, 1, "quiet", 0.9, 0.1), cop("cop-0", 0, 0));
    SeededRandom r = new SeededRandom(3);
    assertEquals("change_state: you are now active", w.apply(action("citizen-0", "change_state", "{\"state\":\"active\"}"), r));
    assertTrue(w.apply(action("citizen-0", "change_state", "{\"state\":\"angry\"}"), r).contains("must be 'active' or 'quiet'"));
    assertTrue(w.apply(action("cop-0", "change_state", "{\"state\":\"active\"}"), r).contains("only citizens"));
  }

  @Test
  void aPlannedMoveIntoACellNowTakenOrAnArrestWithoutTargetIsInvalidated() {
    EpsteinWorld w = world(citizen("citizen-0", 0, 0, "quiet", 0.8, 0.2),
        citizen("citizen-1", 0, 1, "active", 0.1, 0.1), citizen("citizen-2", 9, 9, "quiet", 0.1, 0.1),
        cop("cop-0", 1, 0));
    EpsteinScenario scenario = new EpsteinScenario();
    Observation citizen = w.observe("citizen-0", 2);
    String blocked = scenario.plannedActionProblem(citizen, EpsteinScenario.MOVE_ONE_STEP,
        Json.tryParse("{\"direction\":\"North\"}"));
    assertTrue(blocked != null && blocked.contains("citizen-1"), String.valueOf(blocked));
    // South of (0,0) on the torus is (0,9): free.
    assertEquals(null, scenario.plannedActionProblem(citizen, EpsteinScenario.MOVE_ONE_STEP,
        Json.tryParse("{\"direction\":\"South\"}")));

    Observation cop = w.observe("cop-0", 2);
    assertEquals(null, scenario.plannedActionProblem(cop, EpsteinScenario.ARREST_CITIZEN,
        Json.tryParse("{\"citizen_id\":\"citizen-1\"}")));
    String quiet = scenario.plannedActionProblem(cop, EpsteinScenario.ARREST_CITIZEN,
        Json.tryParse("{\"citizen_id\":\"citizen-0\"}"));
    assertTrue(quiet != null && quiet.contains("not active"), String.valueOf(quiet));
    String gone = scenario.plannedActionProblem(cop, EpsteinScenario.ARREST_CITIZEN,
        Json.tryParse("{\"citizen_id\":\"citizen-7\"}"));
    assertTrue(gone != null && gone.contains("no longer within vision"), String.valueOf(gone));
  }

  @Test
  void aSnapshotReadBackFromJsonBehavesExactlyAsTheWorldItWasTakenFrom() throws Exception {
    EpsteinWorld original = EpsteinWorld.create(EpsteinParameters.DEFAULTS, new SeededRandom(9));
    original.apply(action("citizen-0", "change_state", "{\"state\":\"active\"}"), new SeededRandom(1));
    String json = Json.write(original.snapshot());
    assertFalse(json.contains("\"citizen\":"), "no derived properties in the snapshot: " + json);
    EpsteinWorld restored = EpsteinWorld.restore(Json.MAPPER.readValue(json, EpsteinSnapshot.class));
    assertEquals(original.agentIds(), restored.agentIds());
    assertEquals(original.agents(), restored.agents());
    assertEquals(original.counts(), restored.counts());
    SeededRandom a = new SeededRandom(5);
    SeededRandom b = new SeededRandom(5);
    for (String id : original.agentIds()) {
      assertEquals(original.observe(id, 3), restored.observe(id, 3));
      WorldAction move = action(id, "move_one_step", "{\"direction\":\"North\"}");
      assertEquals(original.apply(move, a), restored.apply(move, b));
    }
    assertEquals(Json.write(original.snapshot()), Json.write(restored.snapshot()));
    assertTrue(original.drainMessages().isEmpty(), "Epstein delivers no messages to others");
  }
}
