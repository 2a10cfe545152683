package io.durableagents.scenarios.negotiation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.durableagents.api.AgentPortrayal;
import io.durableagents.api.Portrayal;
import io.durableagents.api.SeededRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The negotiation as a view shows it: sellers and buyers on its grid, where they stand, with their money. */
class NegotiationPortrayalTest {
  @Test
  void showsSellersAndBuyersOnTheGridWhereTheyStandWithTheirMoney() {
    NegotiationWorld world = NegotiationWorld.create(NegotiationParameters.DEFAULTS, new SeededRandom(3));
    Portrayal shown = world.portrayal();
    assertEquals(new Portrayal.Grid(NegotiationParameters.DEFAULTS.width(), NegotiationParameters.DEFAULTS.height()),
        shown.grid());
    assertEquals(world.agentIds(), shown.agents().stream().map(AgentPortrayal::id).toList());
    AgentPortrayal seller = shown.agents().stream().filter(a -> a.role().equals("seller")).findFirst().orElseThrow();
    assertEquals(AgentPortrayal.Shape.SQUARE, seller.shape());
    assertEquals(world.agent(seller.id()).brand(), seller.label());
    assertEquals(0, seller.attributes().get("sales"));
    AgentPortrayal buyer = shown.agents().stream().filter(a -> a.role().equals("buyer")).findFirst().orElseThrow();
    assertEquals(world.agent(buyer.id()).budget(), buyer.attributes().get("budget"));
    assertEquals(List.of(world.agent(buyer.id()).position().x(), world.agent(buyer.id()).position().y()),
        List.of(buyer.x(), buyer.y()), "drawn where it stands");
    assertEquals(List.of("", ""), List.of(shown.stateOf(seller), shown.stateOf(buyer)), "their roles say it all");
    assertEquals("brand", shown.legend().get(0).label(), "the legend names a seller's label");
  }
}
