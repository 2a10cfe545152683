package io.durableagents.scenarios.grid;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/** A cell of a grid. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record GridPosition(int x, int y) {
  /** As {@code [x, y]}, the way Mesa prints positions. */
  public List<Integer> asList() {
    return List.of(x, y);
  }
}
