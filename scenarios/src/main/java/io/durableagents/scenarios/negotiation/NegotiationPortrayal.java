package io.durableagents.scenarios.negotiation;

import io.durableagents.api.AgentPortrayal;
import io.durableagents.api.Portrayal;
import java.util.ArrayList;
import java.util.List;

/**
 * How a view shows the negotiation: its grid (one agent a cell), sellers green squares at their stands
 * with their brand, sales and revenue, buyers blue circles where they stand, with their budget left and
 * what they bought.
 */
final class NegotiationPortrayal {
  static final String SELLER_COLOR = "#2ca02c";
  static final String BUYER_COLOR = "#1f77b4";

  /** The legend: the roles say what the agents are; a seller's label is its brand. */
  static final List<Portrayal.LegendEntry> LEGEND = List.of(
      Portrayal.LegendEntry.of(NegotiationScenario.SELLER, SELLER_COLOR, AgentPortrayal.Shape.SQUARE, null)
          .withLabel("brand"),
      Portrayal.LegendEntry.of(NegotiationScenario.BUYER, BUYER_COLOR, AgentPortrayal.Shape.CIRCLE, null));

  private NegotiationPortrayal() {}

  static Portrayal of(NegotiationWorld world) {
    List<AgentPortrayal> shown = new ArrayList<>();
    for (NegotiationAgent a : world.agents()) {
      AgentPortrayal p = AgentPortrayal.of(a.id(), a.role()).at(a.position().x(), a.position().y());
      if (a.isSeller()) {
        p = p.withColor(SELLER_COLOR).withShape(AgentPortrayal.Shape.SQUARE).withLabel(a.brand())
            .withAttribute("brand", a.brand())
            .withAttribute("traits", String.join(", ", a.traits()))
            .withAttribute("sales", a.sales())
            .withAttribute("revenue", a.revenue());
      } else {
        List<String> bought = new ArrayList<>();
        for (NegotiationPurchase purchase : a.purchases()) {
          bought.add(purchase.product() + " from " + purchase.seller());
        }
        p = p.withColor(BUYER_COLOR).withAttribute("budget", a.budget())
            .withAttribute("purchases", String.join("; ", bought));
      }
      shown.add(p);
    }
    return Portrayal.grid(world.parameters().width(), world.parameters().height(), shown).withLegend(LEGEND);
  }
}
