package io.durableagents.examples.boltzmann;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The world on its own: placement, moves, gifts, conservation of money, the Gini coefficient, snapshots. */
class BoltzmannWorldTest {
  private static final BoltzmannScenario SCENARIO = new BoltzmannScenario();

  /** A world of the given people (id, x, y, wealth) on a 5 x 5 torus holding 2 a cell. */
  private static BoltzmannWorld world(Object[]... people) {
    List<Person> list = new ArrayList<>();
    for (Object[] p : people) {
      list.add(new Person((String) p[0], new Cell((int) p[1], (int) p[2]), (int) p[3]));
    }
    return BoltzmannWorld.restore(new BoltzmannSnapshot(new BoltzmannParameters(list.size(), 5, 5, 1, 2), list));
  }

  private static WorldAction move(String id, String direction) {
    return new WorldAction(id, "call-1", BoltzmannScenario.MOVE,
        Json.MAPPER.createObjectNode().put(BoltzmannScenario.DIRECTION, direction));
  }

  private static WorldAction give(String id, String recipient) {
    ObjectNode args = Json.MAPPER.createObjectNode().put(BoltzmannScenario.RECIPIENT_ID, recipient);
    return new WorldAction(id, "call-2", BoltzmannScenario.GIVE_MONEY, args);
  }

  private static int total(BoltzmannWorld w) {
    return w.people().stream().mapToInt(Person::wealth).sum();
  }

  @Test
  void createPlacesEveryoneWithTheStartingWealthAndNoCellOverCapacity() {
    BoltzmannParameters p = new BoltzmannParameters(18, 3, 3, 7, 2);  // the grid exactly full
    BoltzmannWorld w = BoltzmannWorld.create(p, new SeededRandom(11));
    assertEquals(18, w.agentIds().size());
    assertEquals("person-0", w.agentIds().get(0));
    Map<Cell, Integer> perCell = new LinkedHashMap<>();
    for (Person person : w.people()) {
      assertEquals(7, person.wealth());
      perCell.merge(person.cell(), 1, Integer::sum);
    }
    assertEquals(9, perCell.size());
    perCell.values().forEach(n -> assertEquals(2, n));
    assertEquals(w.people(), BoltzmannWorld.create(p, new SeededRandom(11)).people(), "the same seed, the same world");
  }

  @Test
  void aMoveGoesToTheNeighbouringCellAcrossTheEdges() {
    BoltzmannWorld w = world(new Object[] {"person-0", 0, 0, 1});
    assertEquals("move west: moved to [4, 0]", w.apply(move("person-0", "west"), new SeededRandom(1)));
    assertEquals("move south_west: moved to [3, 4]", w.apply(move("person-0", "SouthWest"), new SeededRandom(1)));
    assertEquals("move north_east: moved to [4, 0]", w.apply(move("person-0", "north-east"), new SeededRandom(1)));
    assertEquals(new Cell(4, 0), w.person("person-0").cell());
  }

  @Test
  void aMoveIntoAFullCellOrWithABadDirectionChangesNothingAndSaysWhy() {
    BoltzmannWorld w = world(new Object[] {"person-0", 1, 1, 1}, new Object[] {"person-1", 2, 1, 1},
        new Object[] {"person-2", 2, 1, 1});
    assertEquals("move east: blocked, cell [2, 1] is full (2 people)", w.apply(move("person-0", "east"), null));
    assertEquals("move: direction must be one of north, north_east, east, south_east, south, south_west, west, "
        + "north_west, was 'up'", w.apply(move("person-0", "up"), null));
    assertEquals(new Cell(1, 1), w.person("person-0").cell());
  }

  @Test
  void aGiftMovesOneUnitToACellmateWhoHearsOfIt() {
    BoltzmannWorld w = world(new Object[] {"person-0", 1, 1, 2}, new Object[] {"person-1", 1, 1, 0});
    assertEquals("give_money person-1: gave 1 unit of money, you have 1 left", w.apply(give("person-0", "person-1"), null));
    assertEquals(1, w.person("person-0").wealth());
    assertEquals(1, w.person("person-1").wealth());
    assertEquals(Map.of("person-1", List.of("person-0 gave you 1 unit of money")), w.drainMessages());
    assertTrue(w.drainMessages().isEmpty(), "drained once");
  }

  @Test
  void aGiftOutsideTheCellWithoutMoneyToOneselfOrToNobodyIsRefusedAndChangesNothing() {
    BoltzmannWorld w = world(new Object[] {"person-0", 1, 1, 1}, new Object[] {"person-1", 2, 1, 5},
        new Object[] {"person-2", 1, 1, 0});
    assertEquals("give_money person-1: refused, person-1 is not in your cell [1, 1]",
        w.apply(give("person-0", "person-1"), null));
    assertEquals("give_money: you have no money to give", w.apply(give("person-2", "person-0"), null));
    assertEquals("give_money: you cannot give money to yourself", w.apply(give("person-0", "person-0"), null));
    assertEquals("give_money: there is nobody with id 'person-9'", w.apply(give("person-0", "person-9"), null));
    assertEquals("teleport: not an action of this world", w.apply(new WorldAction("person-0", "c", "teleport", null), null));
    assertEquals(List.of(1, 5, 0), w.people().stream().map(Person::wealth).toList());
    assertTrue(w.drainMessages().isEmpty());
  }

  @Test
  void moneyIsConservedWhateverTheActions() {
    BoltzmannWorld w = BoltzmannWorld.create(new BoltzmannParameters(30, 4, 4, 3, 3), new SeededRandom(5));
    SeededRandom random = new SeededRandom(99);
    List<String> ids = w.agentIds();
    for (int i = 0; i < 5_000; i++) {
      String actor = ids.get(random.nextInt(ids.size()));
      w.apply(random.nextInt(2) == 0
          ? move(actor, Heading.values()[random.nextInt(8)].name())
          : give(actor, ids.get(random.nextInt(ids.size()))), random);
      assertEquals(90, total(w));
    }
    assertTrue(w.people().stream().allMatch(p -> p.wealth() >= 0), "nobody goes into debt");
    assertTrue(w.counts().get(BoltzmannScenario.GINI).doubleValue() > 0.2, "random gifts make wealth unequal");
  }

  @Test
  void giniIsMesasCoefficient() {
    assertEquals(0.0, BoltzmannWorld.gini(List.of(3, 3, 3, 3)));
    assertEquals(0.0, BoltzmannWorld.gini(List.of(0, 0, 0)), "nobody has anything");
    assertEquals(0.25, BoltzmannWorld.gini(List.of(4, 1, 3, 2)), 1e-12);
    assertEquals(0.75, BoltzmannWorld.gini(List.of(0, 0, 0, 10)), 1e-12, "one has all: (n - 1) / n");
  }

  @Test
  void countsAreTheGiniAsADoubleTheTotalAndTheRichest() {
    BoltzmannWorld w = world(new Object[] {"person-0", 1, 1, 4}, new Object[] {"person-1", 1, 1, 1},
        new Object[] {"person-2", 0, 0, 3}, new Object[] {"person-3", 0, 0, 2});
    Map<String, Number> counts = w.counts();
    assertEquals(List.of("gini", "total_wealth", "richest_wealth"), List.copyOf(counts.keySet()));
    assertInstanceOf(Double.class, counts.get("gini"));
    assertEquals(0.25, counts.get("gini").doubleValue(), 1e-12);
    assertEquals(10, counts.get("total_wealth"));
    assertEquals(4, counts.get("richest_wealth"));
  }

  @Test
  void aPersonSeesItsNeighbourhoodAndWhoSharesItsCell() {
    BoltzmannWorld w = world(new Object[] {"person-0", 0, 0, 2}, new Object[] {"person-1", 0, 0, 1},
        new Object[] {"person-2", 4, 4, 3}, new Object[] {"person-3", 2, 2, 9});
    Observation o = w.observe("person-0", 3);
    assertEquals(3, o.step());
    assertEquals(List.of(0, 0), o.selfState().get("position"));
    assertEquals(2, o.selfState().get("wealth"));
    assertEquals(List.of("person-1"), o.selfState().get("cellmates"));
    assertEquals(List.of("person-1", "person-2"), List.copyOf(o.localState().keySet()),
        "[4, 4] is a neighbour across both edges; [2, 2] is two cells away");
    assertEquals(Map.of("position", List.of(4, 4), "wealth", 3), o.localState().get("person-2"));
  }

  @Test
  void aRestoredSnapshotBehavesExactlyAsTheWorldThatTookIt() {
    BoltzmannWorld original = BoltzmannWorld.create(new BoltzmannParameters(20, 4, 4, 2, 3), new SeededRandom(3));
    ScenarioWorld restored = SCENARIO.restore(Json.MAPPER.valueToTree(original.snapshot()));
    assertEquals(original.agentIds(), restored.agentIds());
    SeededRandom a = new SeededRandom(8);
    SeededRandom b = new SeededRandom(8);
    List<String> ids = original.agentIds();
    for (int i = 0; i < 300; i++) {
      String actor = ids.get(i % ids.size());
      WorldAction action = i % 2 == 0 ? move(actor, Heading.values()[i % 8].name())
          : give(actor, ids.get((i * 7) % ids.size()));
      assertEquals(original.apply(action, a), restored.apply(action, b));
    }
    assertEquals(original.counts(), restored.counts());
    for (String id : ids) {
      assertEquals(original.observe(id, 9), restored.observe(id, 9));
    }
    assertEquals(original.drainMessages(), restored.drainMessages());
  }
}
