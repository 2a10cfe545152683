package io.durableagents.scenarios.epstein;

import io.durableagents.api.AgentPortrayal;
import io.durableagents.api.Portrayal;
import java.util.ArrayList;
import java.util.List;

/**
 * How a view draws the civil violence world, in the colours of Mesa's Epstein example: quiet citizens
 * blue circles, active ones orange circles, jailed ones grey squares labelled with the steps left of
 * their sentence, cops black triangles, each in its cell of the torus; its legend says so.
 */
final class EpsteinPortrayal {
  static final String QUIET_COLOR = "#648FFF";
  static final String ACTIVE_COLOR = "#FE6100";
  static final String JAILED_COLOR = "#808080";
  static final String COP_COLOR = "#000000";

  /** What each colour and shape means, for the view's legend and the agents' state. */
  static final List<Portrayal.LegendEntry> LEGEND = List.of(
      Portrayal.LegendEntry.of(EpsteinScenario.CITIZEN, QUIET_COLOR, AgentPortrayal.Shape.CIRCLE, EpsteinScenario.QUIET),
      Portrayal.LegendEntry.of(EpsteinScenario.CITIZEN, ACTIVE_COLOR, AgentPortrayal.Shape.CIRCLE, EpsteinScenario.ACTIVE),
      Portrayal.LegendEntry.of(EpsteinScenario.CITIZEN, JAILED_COLOR, AgentPortrayal.Shape.SQUARE, EpsteinScenario.JAILED)
          .withLabel("sentence"),
      Portrayal.LegendEntry.of(EpsteinScenario.COP, COP_COLOR, AgentPortrayal.Shape.TRIANGLE, null));

  private EpsteinPortrayal() {}

  static Portrayal of(EpsteinWorld world) {
    List<AgentPortrayal> drawn = new ArrayList<>();
    for (EpsteinAgent a : world.agents()) {
      AgentPortrayal p = AgentPortrayal.of(a.id(), a.role()).at(a.position().x(), a.position().y());
      if (a.isCop()) {
        p = p.withColor(COP_COLOR).withShape(AgentPortrayal.Shape.TRIANGLE);
      } else {
        p = p.withAttribute("condition", a.condition())
            .withAttribute("hardship", a.hardship())
            .withAttribute("risk_aversion", a.riskAversion())
            .withAttribute("grievance", world.grievance(a));
        if (a.isJailed()) {
          p = p.withColor(JAILED_COLOR).withShape(AgentPortrayal.Shape.SQUARE)
              .withLabel(String.valueOf(a.jailSentence()))
              .withAttribute("jail_sentence", a.jailSentence());
        } else {
          p = p.withColor(a.isActive() ? ACTIVE_COLOR : QUIET_COLOR);
        }
      }
      drawn.add(p);
    }
    return Portrayal.grid(world.parameters().width(), world.parameters().height(), drawn).withLegend(LEGEND);
  }
}
