package io.durableagents.scenarios.grid;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The eight directions of {@code move_one_step}, after Mesa-LLM. North is +y. */
public enum Direction {
  North(0, 1),
  South(0, -1),
  East(1, 0),
  West(-1, 0),
  NorthEast(1, 1),
  NorthWest(-1, 1),
  SouthEast(1, -1),
  SouthWest(-1, -1);

  public final int dx;
  public final int dy;

  Direction(int dx, int dy) {
    this.dx = dx;
    this.dy = dy;
  }

  /** Parses a direction name, ignoring case, spaces, dashes and underscores; null if unknown. */
  public static Direction parse(String value) {
    if (value == null) {
      return null;
    }
    String v = value.replaceAll("[\\s_-]", "");
    for (Direction d : values()) {
      if (d.name().equalsIgnoreCase(v)) {
        return d;
      }
    }
    return null;
  }

  /** The names, comma separated. */
  public static String allowed() {
    return Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "));
  }
}
