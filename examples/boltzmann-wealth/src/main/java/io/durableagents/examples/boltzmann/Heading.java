package io.durableagents.examples.boltzmann;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The eight directions of {@code move}: the cells of Mesa's Moore neighbourhood. North is +y. The
 * constants are lower case because they are the values the model sees in the action's JSON schema.
 */
public enum Heading {
  north(0, 1),
  north_east(1, 1),
  east(1, 0),
  south_east(1, -1),
  south(0, -1),
  south_west(-1, -1),
  west(-1, 0),
  north_west(-1, 1);

  public final int dx;
  public final int dy;

  Heading(int dx, int dy) {
    this.dx = dx;
    this.dy = dy;
  }

  /**
   * The heading called {@code value}, ignoring case, spaces, dashes and underscores ({@code NorthEast},
   * {@code north-east}); null when there is none.
   */
  public static Heading parse(String value) {
    if (value == null) {
      return null;
    }
    String wanted = value.replaceAll("[\\s_-]", "").toLowerCase(Locale.ROOT);
    for (Heading h : values()) {
      if (h.name().replace("_", "").equals(wanted)) {
        return h;
      }
    }
    return null;
  }

  /** The names, comma separated. */
  public static String allowed() {
    return Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "));
  }
}
