package io.durableagents.scenarios.epstein;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.AgentPortrayal;
import io.durableagents.api.Json;
import io.durableagents.api.Portrayal;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.scenarios.grid.GridPosition;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The civil violence world as a view draws it: the torus, each agent in its cell, Mesa's colours. */
class EpsteinPortrayalTest {
  private static final EpsteinParameters P = new EpsteinParameters(10, 8, 3, 1, 2, 0.5, 0.1, 2.3, 4);

  private static EpsteinAgent citizen(String id, int x, int y, String state, int sentence) {
    return new EpsteinAgent(id, EpsteinScenario.CITIZEN, new GridPosition(x, y), state, 0.6, 0.2, sentence);
  }

  @Test
  void drawsCitizensByConditionAndCopsAsBlackTrianglesInTheirCells() {
    EpsteinWorld world = EpsteinWorld.restore(P, List.of(
        citizen("citizen-0", 1, 2, EpsteinScenario.QUIET, 0),
        citizen("citizen-1", 3, 4, EpsteinScenario.ACTIVE, 0),
        citizen("citizen-2", 9, 7, EpsteinScenario.JAILED, 3),
        new EpsteinAgent("cop-0", EpsteinScenario.COP, new GridPosition(0, 0), EpsteinScenario.COP, 0, 0, 0)));

    Portrayal drawn = ((ScenarioWorld) world).portrayal();

    assertEquals(new Portrayal.Grid(10, 8), drawn.grid());
    assertEquals(List.of("citizen-0", "citizen-1", "citizen-2", "cop-0"),
        drawn.agents().stream().map(AgentPortrayal::id).toList());
    AgentPortrayal quiet = drawn.agents().get(0);
    assertEquals(List.of(1, 2, "#648FFF", AgentPortrayal.Shape.CIRCLE),
        List.of(quiet.x(), quiet.y(), quiet.color(), quiet.shape()));
    assertEquals("quiet", quiet.attributes().get("condition"));
    assertEquals(0.6 * (1 - 0.5), (double) quiet.attributes().get("grievance"), 1e-12);
    assertEquals("#FE6100", drawn.agents().get(1).color());
    AgentPortrayal jailed = drawn.agents().get(2);
    assertEquals(List.of(9, 7, "#808080", AgentPortrayal.Shape.SQUARE, "3"),
        List.of(jailed.x(), jailed.y(), jailed.color(), jailed.shape(), jailed.label()));
    AgentPortrayal cop = drawn.agents().get(3);
    assertEquals(List.of("cop", "#000000", AgentPortrayal.Shape.TRIANGLE),
        List.of(cop.role(), cop.color(), cop.shape()));
    assertNull(cop.label());
    assertEquals(List.of("quiet", "active", "jailed (sentence 3)", ""),
        drawn.agents().stream().map(drawn::stateOf).toList(), "the legend names each state");
  }

  @Test
  void isTheSameForTheSameWorldAndReadsAsTheViewsJson() {
    EpsteinWorld world = EpsteinWorld.create(EpsteinParameters.DEFAULTS, new SeededRandom(7));
    EpsteinWorld restored = EpsteinWorld.restore(Json.MAPPER.convertValue(
        Json.MAPPER.valueToTree(world.snapshot()), EpsteinSnapshot.class));
    assertEquals(world.portrayal(), restored.portrayal());

    JsonNode json = Json.MAPPER.valueToTree(world.portrayal());
    assertEquals(EpsteinParameters.DEFAULTS.width(), json.at("/grid/width").asInt());
    JsonNode first = json.at("/agents/0");
    assertEquals("circle", first.get("shape").asText());
    assertEquals("citizen-0", first.get("id").asText());
    assertEquals(world.portrayal(), Json.MAPPER.convertValue(json, Portrayal.class));
  }
}
