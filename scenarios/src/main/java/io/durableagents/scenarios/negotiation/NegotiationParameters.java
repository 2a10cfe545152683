package io.durableagents.scenarios.negotiation;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.durableagents.api.InvalidParameterException;
import io.durableagents.api.Param;

/**
 * The parameters of the negotiation scenario, with Mesa-LLM's negotiation example's sizes as
 * defaults: 2 sellers and 5 buyers on a 5x5 grid (not a torus), vision 5; buyers have a budget of 50
 * (the first {@code buyers - buyers / 2}) or 100 (the others).
 *
 * @param width grid width
 * @param height grid height
 * @param sellers how many sellers (the first two are Mesa-LLM's brand A and brand B)
 * @param buyers how many buyers
 * @param vision the vision radius (Chebyshev distance): whom an agent sees and can speak to
 * @param lowBudget the budget of the first {@code buyers - buyers / 2} buyers
 * @param highBudget the budget of the other buyers
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record NegotiationParameters(
    @Param(value = "grid width (no wrap-around)", min = 1, max = 1000) int width,
    @Param(value = "grid height (no wrap-around)", min = 1, max = 1000) int height,
    @Param(value = "how many sellers (the first two are brand A and brand B)", min = 1, max = 1_000_000)
        int sellers,
    @Param(value = "how many buyers", min = 0, max = 1_000_000) int buyers,
    @Param(value = "vision radius: whom an agent sees and can speak to", min = 1, max = 1000) int vision,
    @JsonAlias("lowBudget")
    @Param(value = "the budget of the first buyers - buyers / 2 buyers", min = 0, max = 1_000_000_000)
        int lowBudget,
    @JsonAlias("highBudget")
    @Param(value = "the budget of the other buyers", min = 0, max = 1_000_000_000) int highBudget) {

  public static final NegotiationParameters DEFAULTS = new NegotiationParameters(5, 5, 2, 5, 5, 50, 100);

  /** These parameters with other numbers of sellers and buyers. */
  public NegotiationParameters withAgents(int sellers, int buyers) {
    return new NegotiationParameters(width, height, sellers, buyers, vision, lowBudget, highBudget);
  }

  /**
   * Checks what the ranges of the components cannot: that every agent fits on the grid.
   *
   * @throws InvalidParameterException naming the parameter
   */
  void check() {
    if ((long) sellers + buyers > (long) width * height) {
      throw new InvalidParameterException("buyers", buyers,
          "sellers + buyers at most width x height = " + width * height + " (sellers: " + sellers + ")");
    }
  }
}
