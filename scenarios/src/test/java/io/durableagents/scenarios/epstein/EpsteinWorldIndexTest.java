package io.durableagents.scenarios.epstein;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.api.Json;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import io.durableagents.scenarios.grid.Direction;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The world's cell index gives what a scan of every agent gives: the same observations (neighbours in
 * the same order, arrest probabilities) and the same outcomes of moves and arrests, step after step.
 */
class EpsteinWorldIndexTest {

  @ParameterizedTest(name = "{0}x{1}, {2} citizens, {3} cops, vision {4}")
  @CsvSource({"40, 40, 700, 100, 5", "12, 9, 60, 20, 3", "7, 7, 30, 10, 4", "20, 20, 350, 49, 1"})
  void theIndexSeesWhatAScanSees(int width, int height, int citizens, int cops, int vision) {
    EpsteinParameters p = new EpsteinParameters(width, height, citizens, cops, vision, 0.5, 0.1, 2.3, 4);
    EpsteinWorld created = EpsteinWorld.create(p, new SeededRandom(3));
    EpsteinWorld indexed = EpsteinWorld.restore(p, created.agents());
    EpsteinWorld scanned = EpsteinWorld.unindexed(p, created.agents());
    SeededRandom ra = new SeededRandom(9);
    SeededRandom rb = new SeededRandom(9);
    Random actions = new Random(5);
    Direction[] directions = Direction.values();
    int moved = 0;
    int blocked = 0;
    for (int step = 1; step <= 6; step++) {
      for (String id : indexed.agentIds()) {
        assertEquals(Json.MAPPER.valueToTree(scanned.observe(id, step)),
            Json.MAPPER.valueToTree(indexed.observe(id, step)), id + " at step " + step);
      }
      for (String id : indexed.agentIds()) {
        WorldAction action;
        if (id.startsWith("cop") && actions.nextBoolean()) {
          String target = "citizen-" + actions.nextInt(citizens);
          action = new WorldAction(id, "c", EpsteinScenario.ARREST_CITIZEN,
              Json.MAPPER.createObjectNode().put("citizen_id", target));
        } else if (actions.nextInt(4) == 0) {
          action = new WorldAction(id, "c", EpsteinScenario.CHANGE_STATE,
              Json.MAPPER.createObjectNode().put("state", actions.nextBoolean() ? "active" : "quiet"));
        } else {
          action = new WorldAction(id, "c", EpsteinScenario.MOVE_ONE_STEP, Json.MAPPER.createObjectNode()
              .put("direction", directions[actions.nextInt(directions.length)].name()));
        }
        String a = indexed.apply(action, ra);
        assertEquals(scanned.apply(action, rb), a, id + " " + action.tool() + " at step " + step);
        moved += a.contains(": moved to") ? 1 : 0;
        blocked += a.contains(": blocked") ? 1 : 0;
      }
      indexed.endStep(step, ra);
      scanned.endStep(step, rb);
      assertEquals(scanned.counts(), indexed.counts());
      assertEquals(scanned.agents(), indexed.agents());
    }
    assertTrue(moved > 0 && blocked > 0, moved + " moves, " + blocked + " blocked");
  }
}
