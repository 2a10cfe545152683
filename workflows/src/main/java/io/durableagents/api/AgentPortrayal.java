package io.durableagents.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How a view draws one agent, as Mesa's {@code agent_portrayal} returns it: where it is on the grid (or
 * nowhere, in a world without one), its colour, its shape and an optional label, with the attributes a
 * view lists when the agent is clicked. Built from {@link #of} and the {@code with...} methods:
 *
 * <pre>{@code
 * AgentPortrayal.of("citizen-3", "citizen").at(4, 7)
 *     .withColor(active ? "#FE6100" : "#648FFF")
 *     .withShape(AgentPortrayal.Shape.CIRCLE)
 *     .withAttribute("hardship", 0.42);
 * }</pre>
 *
 * @param id the agent's id
 * @param role its role
 * @param x its column, from 0 at the left (null: not on a grid)
 * @param y its row, from 0 (null: not on a grid)
 * @param color a CSS colour ({@code #648FFF}, {@code black})
 * @param shape its shape
 * @param label a short text drawn on or beside it (null: none)
 * @param attributes what a view lists for the agent, in this order (numbers, text, booleans)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AgentPortrayal(
    String id,
    String role,
    Integer x,
    Integer y,
    String color,
    Shape shape,
    String label,
    Map<String, Object> attributes) {

  /** The colour of an agent whose portrayal sets none. */
  public static final String DEFAULT_COLOR = "#7f7f7f";

  /** The shapes a view draws. */
  public enum Shape {
    CIRCLE,
    SQUARE,
    TRIANGLE,
    DIAMOND,
    CROSS;

    /** The shape's name in JSON: {@code circle}, {@code square}, ... */
    @JsonValue
    public String jsonName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public AgentPortrayal {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("an agent portrayal needs the agent's id");
    }
    if ((x == null) != (y == null)) {
      throw new IllegalArgumentException("agent " + id + "'s portrayal has x=" + x + " and y=" + y
          + ": give both or neither");
    }
    color = color == null || color.isBlank() ? DEFAULT_COLOR : color;
    shape = shape == null ? Shape.CIRCLE : shape;
    attributes = attributes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
  }

  /** An agent drawn as a grey circle, on no grid, with no label and no attributes. */
  public static AgentPortrayal of(String id, String role) {
    return new AgentPortrayal(id, role, null, null, null, null, null, null);
  }

  /** This portrayal in cell ({@code x}, {@code y}) of the world's grid. */
  public AgentPortrayal at(int x, int y) {
    return new AgentPortrayal(id, role, x, y, color, shape, label, attributes);
  }

  /** This portrayal in {@code color}, a CSS colour. */
  public AgentPortrayal withColor(String color) {
    return new AgentPortrayal(id, role, x, y, color, shape, label, attributes);
  }

  /** This portrayal drawn as {@code shape}. */
  public AgentPortrayal withShape(Shape shape) {
    return new AgentPortrayal(id, role, x, y, color, shape, label, attributes);
  }

  /** This portrayal with {@code label} drawn beside the agent. */
  public AgentPortrayal withLabel(String label) {
    return new AgentPortrayal(id, role, x, y, color, shape, label, attributes);
  }

  /** This portrayal with one more attribute (or {@code name} set anew), listed after the others. */
  public AgentPortrayal withAttribute(String name, Object value) {
    Map<String, Object> more = new LinkedHashMap<>(attributes);
    more.put(name, value);
    return new AgentPortrayal(id, role, x, y, color, shape, label, more);
  }
}
