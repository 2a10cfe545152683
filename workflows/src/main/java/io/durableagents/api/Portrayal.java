package io.durableagents.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a view draws a world after a step: a grid with each agent in its cell, or, for a world without
 * a grid, a table of its agents. What {@link ScenarioWorld#portrayal()} returns; Mesa's {@code
 * agent_portrayal} applied to every agent, with the grid's size.
 *
 * <pre>{@code
 * @Override
 * public Portrayal portrayal() {
 *   List<AgentPortrayal> drawn = new ArrayList<>();
 *   for (Person p : people.values()) {
 *     drawn.add(AgentPortrayal.of(p.id(), "person").at(p.cell().x(), p.cell().y())
 *         .withColor(p.wealth() == 0 ? "#d62728" : "#2ca02c"));
 *   }
 *   return Portrayal.grid(parameters.width(), parameters.height(), drawn);
 * }
 * }</pre>
 *
 * @param grid the grid's size, or null when the world has none (a view shows a table)
 * @param agents every agent, in the world's agent order
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Portrayal(Grid grid, List<AgentPortrayal> agents) {

  /**
   * A grid of {@code width} columns and {@code height} rows.
   *
   * @param width the number of columns (x from 0 to width - 1)
   * @param height the number of rows (y from 0 to height - 1)
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Grid(int width, int height) {
    public Grid {
      if (width < 1 || height < 1) {
        throw new IllegalArgumentException("a portrayal's grid must be at least 1 x 1, was " + width + " x " + height);
      }
    }
  }

  /** The colours of {@link #table(ScenarioWorld)}, one per role in order of appearance (Mesa's tab10). */
  public static final List<String> ROLE_COLORS = List.of("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
      "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf");

  public Portrayal {
    agents = agents == null ? List.of() : List.copyOf(agents);
    for (AgentPortrayal a : agents) {
      if (grid != null && a.x() != null
          && (a.x() < 0 || a.x() >= grid.width() || a.y() < 0 || a.y() >= grid.height())) {
        throw new IllegalArgumentException("agent " + a.id() + " is drawn at [" + a.x() + ", " + a.y()
            + "], outside the " + grid.width() + " x " + grid.height() + " grid");
      }
    }
  }

  /** A grid of {@code width} x {@code height} cells with {@code agents} in theirs. */
  public static Portrayal grid(int width, int height, List<AgentPortrayal> agents) {
    return new Portrayal(new Grid(width, height), agents);
  }

  /** {@code agents} in a table: a world without a grid. */
  public static Portrayal table(List<AgentPortrayal> agents) {
    return new Portrayal(null, agents);
  }

  /**
   * The portrayal of a world that gives none of its own: a table of its agents with their roles, a
   * colour per role ({@link #ROLE_COLORS}) and whether each takes the next step.
   */
  public static Portrayal table(ScenarioWorld world) {
    Map<String, String> colors = new LinkedHashMap<>();
    List<AgentPortrayal> agents = new ArrayList<>();
    for (String id : world.agentIds()) {
      String role = world.roleOf(id);
      String color = colors.computeIfAbsent(role, r -> ROLE_COLORS.get(colors.size() % ROLE_COLORS.size()));
      agents.add(AgentPortrayal.of(id, role).withColor(color).withAttribute("can_act", world.canAct(id)));
    }
    return table(agents);
  }
}
