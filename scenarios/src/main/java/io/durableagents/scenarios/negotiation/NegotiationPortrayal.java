package io.durableagents.scenarios.negotiation;

import io.durableagents.api.AgentPortrayal;
import io.durableagents.api.Portrayal;
import java.util.ArrayList;
import java.util.List;

/**
 * How a view shows the negotiation: a table of its agents (no grid is drawn; where an agent stands is
 * one of its attributes), sellers green squares with their brand, sales and revenue, buyers blue
 * circles with their budget left and what they bought.
 */
final class NegotiationPortrayal {
  static final String SELLER_COLOR = "#2ca02c";
  static final String BUYER_COLOR = "#1f77b4";

  private NegotiationPortrayal() {}

  static Portrayal of(NegotiationWorld world) {
    List<AgentPortrayal> shown = new ArrayList<>();
    for (NegotiationAgent a : world.agents()) {
      AgentPortrayal p = AgentPortrayal.of(a.id(), a.role());
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
      p = p.withAttribute("position", "[" + a.position().x() + ", " + a.position().y() + "]");
      shown.add(p);
    }
    return Portrayal.table(shown);
  }
}
