package io.durableagents.scenarios.negotiation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.durableagents.api.AgentPortrayal;
import io.durableagents.api.Portrayal;
import io.durableagents.api.SeededRandom;
import org.junit.jupiter.api.Test;

/** The negotiation as a view shows it: a table of sellers and buyers, no grid. */
class NegotiationPortrayalTest {
  @Test
  void showsSellersAndBuyersInATableWithTheirMoney() {
    NegotiationWorld world = NegotiationWorld.create(NegotiationParameters.DEFAULTS, new SeededRandom(3));
    Portrayal shown = world.portrayal();
    assertNull(shown.grid(), "no grid: the view shows a table");
    assertEquals(world.agentIds(), shown.agents().stream().map(AgentPortrayal::id).toList());
    AgentPortrayal seller = shown.agents().stream().filter(a -> a.role().equals("seller")).findFirst().orElseThrow();
    assertEquals(AgentPortrayal.Shape.SQUARE, seller.shape());
    assertEquals(world.agent(seller.id()).brand(), seller.label());
    assertEquals(0, seller.attributes().get("sales"));
    AgentPortrayal buyer = shown.agents().stream().filter(a -> a.role().equals("buyer")).findFirst().orElseThrow();
    assertEquals(world.agent(buyer.id()).budget(), buyer.attributes().get("budget"));
    assertNull(buyer.x(), "no cell on a table");
  }
}
