package io.durableagents.examples.boltzmann;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.RuleDecision;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Mesa's rules as the policy plays them from observations, deterministic per agent and step; and the
 * problems the scenario finds in planned actions.
 */
class BoltzmannRulePolicyTest {
  private static final BoltzmannRulePolicy POLICY = new BoltzmannRulePolicy();
  private static final BoltzmannScenario SCENARIO = new BoltzmannScenario();

  /** The observation a world of these people (id, x, y, wealth) on a 5 x 5 torus, 2 a cell, gives person-0. */
  private static Observation observe(int step, Object[]... people) {
    List<Person> list = new ArrayList<>();
    for (Object[] p : people) {
      list.add(new Person((String) p[0], new Cell((int) p[1], (int) p[2]), (int) p[3]));
    }
    BoltzmannWorld w = BoltzmannWorld.restore(new BoltzmannSnapshot(new BoltzmannParameters(list.size(), 5, 5, 1, 2), list));
    // through JSON, as the rules model reads it from the prompt
    return Json.MAPPER.convertValue(w.observe("person-0", step), Observation.class);
  }

  private static RuleDecision decide(Observation o) {
    return POLICY.decide(BoltzmannScenario.PERSON, o.step(), o.selfState(), o.localState()).orElseThrow();
  }

  @Test
  void itMovesToARandomNeighbouringCellAndGivesToSomeoneThere() {
    Observation o = observe(1, new Object[] {"person-0", 2, 2, 3}, new Object[] {"person-1", 1, 1, 0},
        new Object[] {"person-2", 3, 3, 0}, new Object[] {"person-3", 1, 3, 0});
    RuleDecision d = decide(o);
    assertEquals(BoltzmannScenario.MOVE, d.actions().get(0).tool());
    Heading heading = Heading.parse(d.actions().get(0).arguments().get("direction").asText());
    Cell target = new Cell(2, 2).step(heading, 5, 5);
    List<String> there = o.localState().entrySet().stream()
        .filter(e -> target.asList().equals(e.getValue().get("position"))).map(Map.Entry::getKey).toList();
    if (there.isEmpty()) {
      assertEquals(1, d.actions().size(), d.toString());
    } else {
      assertEquals(BoltzmannScenario.GIVE_MONEY, d.actions().get(1).tool());
      assertTrue(there.contains(d.actions().get(1).arguments().get("recipient_id").asText()), d.toString());
    }
    assertEquals(d, decide(o), "the same observation, the same decision");
  }

  @Test
  void overManyStepsItGoesEverywhereAndGivesToEveryoneItCan() {
    // person-0 in [2, 2] with someone in each of the 8 cells around it
    List<Object[]> people = new ArrayList<>();
    people.add(new Object[] {"person-0", 2, 2, 5});
    int i = 1;
    for (Heading h : Heading.values()) {
      Cell c = new Cell(2, 2).step(h, 5, 5);
      people.add(new Object[] {"person-" + i++, c.x(), c.y(), 0});
    }
    Set<String> directions = new TreeSet<>();
    Set<String> recipients = new TreeSet<>();
    for (int step = 1; step <= 200; step++) {
      RuleDecision d = decide(observe(step, people.toArray(new Object[0][])));
      assertEquals(2, d.actions().size(), "a move and a gift: " + d);
      directions.add(d.actions().get(0).arguments().get("direction").asText());
      recipients.add(d.actions().get(1).arguments().get("recipient_id").asText());
    }
    assertEquals(8, directions.size(), directions.toString());
    assertEquals(8, recipients.size(), recipients.toString());
  }

  @Test
  void withoutMoneyItOnlyMovesAndIntoFullCellsItDoesNotMove() {
    RuleDecision broke = decide(observe(2, new Object[] {"person-0", 2, 2, 0}, new Object[] {"person-1", 2, 2, 4}));
    assertEquals(List.of(BoltzmannScenario.MOVE), broke.actions().stream().map(RuleDecision.Action::tool).toList());

    // every cell around [2, 2] holds 2 people already
    List<Object[]> crowd = new ArrayList<>();
    crowd.add(new Object[] {"person-0", 2, 2, 1});
    int i = 1;
    for (Heading h : Heading.values()) {
      Cell c = new Cell(2, 2).step(h, 5, 5);
      crowd.add(new Object[] {"person-" + i++, c.x(), c.y(), 0});
      crowd.add(new Object[] {"person-" + i++, c.x(), c.y(), 0});
    }
    RuleDecision stuck = decide(observe(3, crowd.toArray(new Object[0][])));
    assertTrue(stuck.actions().isEmpty(), "nowhere to go, nobody in its own cell: " + stuck);
  }

  @Test
  void aReWooPlanGivesNowToACellmateThenMoves() {
    Observation o = observe(4, new Object[] {"person-0", 2, 2, 1}, new Object[] {"person-1", 2, 2, 0});
    RuleDecision d = decide(o);
    List<RuleDecision.Action> plan = POLICY.plan(BoltzmannScenario.PERSON, 4, o.selfState(), o.localState(), d, 3);
    assertEquals(List.of("give_money", "move", "move"), plan.stream().map(RuleDecision.Action::tool).toList());
    assertEquals("person-1", plan.get(0).arguments().get("recipient_id").asText());
    assertEquals(List.of("move"), POLICY.plan(BoltzmannScenario.PERSON, 4, o.selfState(), Map.of(), d, 1)
        .stream().map(RuleDecision.Action::tool).toList(), "alone, it moves");
  }

  @Test
  void itHasNoRuleForOtherRoles() {
    Observation o = observe(1, new Object[] {"person-0", 0, 0, 1});
    assertTrue(POLICY.decide("cop", 1, o.selfState(), o.localState()).isEmpty());
  }

  @Test
  void aPlannedGiftToSomeoneWhoLeftTheCellOrAMoveIntoAFullCellIsAProblem() {
    JsonNode toOne = Json.MAPPER.createObjectNode().put("recipient_id", "person-1");
    Observation together = observe(5, new Object[] {"person-0", 2, 2, 1}, new Object[] {"person-1", 2, 2, 0});
    assertNull(SCENARIO.plannedActionProblem(together, BoltzmannScenario.GIVE_MONEY, toOne));

    Observation apart = observe(5, new Object[] {"person-0", 2, 2, 1}, new Object[] {"person-1", 3, 2, 0});
    assertEquals("give_money person-1: is at [3, 2], not in your cell [2, 2]",
        SCENARIO.plannedActionProblem(apart, BoltzmannScenario.GIVE_MONEY, toOne));
    Observation gone = observe(5, new Object[] {"person-0", 2, 2, 1}, new Object[] {"person-1", 4, 4, 0});
    assertEquals("give_money person-1: no longer within sight",
        SCENARIO.plannedActionProblem(gone, BoltzmannScenario.GIVE_MONEY, toOne));
    Observation broke = observe(5, new Object[] {"person-0", 2, 2, 0}, new Object[] {"person-1", 2, 2, 0});
    assertEquals("give_money: you have no money left",
        SCENARIO.plannedActionProblem(broke, BoltzmannScenario.GIVE_MONEY, toOne));

    JsonNode east = Json.MAPPER.createObjectNode().put("direction", "east");
    Observation full = observe(5, new Object[] {"person-0", 2, 2, 1}, new Object[] {"person-1", 3, 2, 0},
        new Object[] {"person-2", 3, 2, 0});
    assertEquals("move east: cell [3, 2] is now full", SCENARIO.plannedActionProblem(full, BoltzmannScenario.MOVE, east));
    assertNull(SCENARIO.plannedActionProblem(apart, BoltzmannScenario.MOVE, east));
  }
}
