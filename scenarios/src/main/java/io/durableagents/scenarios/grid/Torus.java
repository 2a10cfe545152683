package io.durableagents.scenarios.grid;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** A width by height grid whose edges wrap around, as Mesa's {@code torus=True} grids. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Torus(int width, int height) {
  public Torus {
    if (width <= 0 || height <= 0) {
      throw new IllegalArgumentException("grid must be at least 1x1, was " + width + "x" + height);
    }
  }

  /** The cell one step from {@code from} in {@code direction}, wrapping at the edges. */
  public GridPosition step(GridPosition from, Direction direction) {
    return new GridPosition(
        Math.floorMod(from.x() + direction.dx, width),
        Math.floorMod(from.y() + direction.dy, height));
  }

  /** The Chebyshev (Moore) distance on the torus. */
  public int distance(GridPosition a, GridPosition b) {
    int dx = Math.abs(a.x() - b.x());
    int dy = Math.abs(a.y() - b.y());
    dx = Math.min(dx, width - dx);
    dy = Math.min(dy, height - dy);
    return Math.max(dx, dy);
  }
}
