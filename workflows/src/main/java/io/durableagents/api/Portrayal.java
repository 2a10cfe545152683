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
 * <p>A legend ({@link #withLegend}) says what each colour and shape means, and what a label counts; a
 * view shows it beside the grid, and an agent's state ({@code jailed (sentence 3)}) in its table. Without
 * one, a view makes one of the roles drawn in each colour and shape.
 *
 * @param grid the grid's size, or null when the world has none (a view shows a table)
 * @param agents every agent, in the world's agent order
 * @param legend what each colour and shape means (empty: the view names the roles)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Portrayal(Grid grid, List<AgentPortrayal> agents, List<LegendEntry> legend) {

  /**
   * What the agents drawn in one colour and shape are, as a legend says it:
   *
   * <pre>{@code
   * LegendEntry.of("citizen", "#808080", AgentPortrayal.Shape.SQUARE, "jailed").withLabel("sentence")
   * }</pre>
   *
   * <p>reads "a grey square is a jailed citizen; its label is its sentence", and a jailed citizen labelled
   * {@code 3} is shown as {@code jailed (sentence 3)}.
   *
   * @param role the role of the agents drawn so (null: any role)
   * @param color their CSS colour, as their {@link AgentPortrayal#color()} gives it
   * @param shape their shape
   * @param meaning what they are ({@code "jailed"}; null: their role says it all)
   * @param label what their label is ({@code "sentence"}; null: they have none, or it needs no name)
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record LegendEntry(String role, String color, AgentPortrayal.Shape shape, String meaning, String label) {
    public LegendEntry {
      if (color == null || color.isBlank()) {
        throw new IllegalArgumentException("a legend entry needs the colour it explains");
      }
      shape = shape == null ? AgentPortrayal.Shape.CIRCLE : shape;
    }

    /** Agents of {@code role} drawn in {@code color} and {@code shape} are {@code meaning}. */
    public static LegendEntry of(String role, String color, AgentPortrayal.Shape shape, String meaning) {
      return new LegendEntry(role, color, shape, meaning, null);
    }

    /** This entry, whose agents' label is their {@code label} ({@code "sentence"}, {@code "wealth"}). */
    public LegendEntry withLabel(String label) {
      return new LegendEntry(role, color, shape, meaning, label);
    }

    /** Whether {@code agent} is drawn as this entry says (its role, colour and shape). */
    public boolean explains(AgentPortrayal agent) {
      return (role == null || role.equals(agent.role())) && color.equalsIgnoreCase(agent.color())
          && shape == agent.shape();
    }

    /**
     * How a view names the state of {@code agent}, drawn as this entry says: {@code jailed (sentence 3)},
     * {@code jailed}, or empty when this entry has no meaning (its role says it all).
     */
    public String stateOf(AgentPortrayal agent) {
      if (meaning == null) {
        return "";
      }
      if (agent.label() == null || agent.label().isBlank()) {
        return meaning;
      }
      return meaning + " (" + (label == null ? "" : label + " ") + agent.label() + ")";
    }
  }

  /** A portrayal without a legend: a view names the roles. */
  public Portrayal(Grid grid, List<AgentPortrayal> agents) {
    this(grid, agents, List.of());
  }

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
    legend = legend == null ? List.of() : List.copyOf(legend);
    for (AgentPortrayal a : agents) {
      if (grid != null && a.x() != null
          && (a.x() < 0 || a.x() >= grid.width() || a.y() < 0 || a.y() >= grid.height())) {
        throw new IllegalArgumentException("agent " + a.id() + " is drawn at [" + a.x() + ", " + a.y()
            + "], outside the " + grid.width() + " x " + grid.height() + " grid");
      }
    }
  }

  /** This portrayal with {@code entries} as its legend, in the order a view lists them. */
  public Portrayal withLegend(List<LegendEntry> entries) {
    return new Portrayal(grid, agents, entries);
  }

  /**
   * How a view names {@code agent}'s state: the first legend entry that explains it ({@link
   * LegendEntry#stateOf}), else its label, else empty.
   */
  public String stateOf(AgentPortrayal agent) {
    for (LegendEntry entry : legend) {
      if (entry.explains(agent)) {
        return entry.stateOf(agent);
      }
    }
    return agent.label() == null ? "" : agent.label();
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
