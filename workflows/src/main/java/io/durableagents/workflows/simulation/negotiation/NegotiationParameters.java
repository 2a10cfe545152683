package io.durableagents.workflows.simulation.negotiation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

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
    int width, int height, int sellers, int buyers, int vision, int lowBudget, int highBudget) {

  public static final NegotiationParameters DEFAULTS = new NegotiationParameters(5, 5, 2, 5, 5, 50, 100);

  public NegotiationParameters {
    require(width > 0 && height > 0, "grid width and height must be positive");
    require(sellers >= 1, "sellers must be >= 1");
    require(buyers >= 0, "buyers must be >= 0");
    require(sellers + buyers <= width * height,
        "sellers + buyers (" + (sellers + buyers) + ") must fit on the grid (" + width * height + ")");
    require(vision >= 1, "vision must be >= 1");
    require(lowBudget >= 0 && highBudget >= 0, "budgets must be >= 0");
  }

  /** These parameters with other numbers of sellers and buyers. */
  public NegotiationParameters withAgents(int sellers, int buyers) {
    return new NegotiationParameters(width, height, sellers, buyers, vision, lowBudget, highBudget);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("negotiation: " + message);
    }
  }
}
