package io.durableagents.examples.boltzmann;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/** A cell of the grid. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Cell(int x, int y) {
  /** As {@code [x, y]}, the way observations show positions. */
  public List<Integer> asList() {
    return List.of(x, y);
  }

  /** The cell {@code [x, y]} of an observation, or null when {@code value} is not one. */
  static Cell of(Object value) {
    if (value instanceof List<?> xy && xy.size() == 2
        && xy.get(0) instanceof Number x && xy.get(1) instanceof Number y) {
      return new Cell(x.intValue(), y.intValue());
    }
    return null;
  }

  /** The neighbouring cell in direction {@code heading} on a {@code width} x {@code height} torus. */
  Cell step(Heading heading, int width, int height) {
    return new Cell(Math.floorMod(x + heading.dx, width), Math.floorMod(y + heading.dy, height));
  }

  /** The Chebyshev distance on a {@code width} x {@code height} torus: 1 for every neighbouring cell. */
  int distance(Cell other, int width, int height) {
    int dx = Math.abs(x - other.x);
    int dy = Math.abs(y - other.y);
    return Math.max(Math.min(dx, width - dx), Math.min(dy, height - dy));
  }
}
