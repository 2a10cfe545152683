package io.durableagents.examples.boltzmann;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.durableagents.api.InvalidParameterException;
import io.durableagents.api.Param;

/**
 * The parameters of the Boltzmann wealth model, declared once: the command line's {@code --param
 * name=value}, {@code help simulate --scenario boltzmann-wealth} and the checks all come from here.
 * Names are the components' in snake_case ({@code startingWealth} is {@code starting_wealth}).
 *
 * <p>The defaults keep Mesa's tutorial's density of one person a cell (its 100 people on 10 x 10) on a
 * smaller grid, so that a run with a real LLM stays cheap.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BoltzmannParameters(
    @Param(value = "how many people", min = 1, max = 100_000) int agents,
    @Param(value = "grid width (a torus: its edges wrap around)", min = 1, max = 1000) int width,
    @Param(value = "grid height (a torus)", min = 1, max = 1000) int height,
    @Param(value = "units of money each person starts with", min = 0, max = 1_000_000) int startingWealth,
    @Param(value = "how many people one cell holds; a move into a full cell is blocked", min = 1, max = 1000)
        int cellCapacity) {

  public static final BoltzmannParameters DEFAULTS = new BoltzmannParameters(25, 5, 5, 1, 4);

  /**
   * Checks what the ranges above cannot: every person fits on the grid, and the money in the world
   * fits in an {@code int}.
   *
   * @throws InvalidParameterException naming the parameter, its value and what is allowed
   */
  void check() {
    long room = (long) width * height * cellCapacity;
    if (agents > room) {
      throw new InvalidParameterException("agents", agents,
          "at most width x height x cell_capacity = " + room);
    }
    long money = (long) agents * startingWealth;
    if (money > Integer.MAX_VALUE) {
      throw new InvalidParameterException("starting_wealth", startingWealth,
          "at most " + Integer.MAX_VALUE / agents + " for " + agents + " agents");
    }
  }
}
