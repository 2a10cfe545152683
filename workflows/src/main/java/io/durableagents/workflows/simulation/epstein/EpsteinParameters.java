package io.durableagents.workflows.simulation.epstein;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The parameters of Epstein's civil violence model (Epstein 2002), with Mesa-LLM's reference
 * example's sizes as defaults: 20 citizens and 5 cops on a 10x10 torus, vision 5.
 *
 * <p>The default legitimacy is 0.5, not the 0.82 of Mesa's classic example: that value suits its
 * 40x40 grid, where few cops are in sight. On the 10x10 grid with vision 5 every citizen sees all 5
 * cops, the estimated arrest probability is near 1, and at 0.82 nobody ever rebels.
 *
 * @param width grid width
 * @param height grid height
 * @param citizens how many citizens
 * @param cops how many cops
 * @param vision the vision radius (Moore neighbourhood)
 * @param legitimacy L, the regime's perceived legitimacy in [0, 1]; grievance = hardship x (1 - L)
 * @param activeThreshold T: a citizen turns active when grievance - net risk > T
 * @param arrestProbabilityConstant k in P = 1 - exp(-k x round(cops / actives)) (Mesa: 2.3)
 * @param maxJailTerm an arrest jails for a uniform number of steps in [0, maxJailTerm]
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record EpsteinParameters(
    int width,
    int height,
    int citizens,
    int cops,
    int vision,
    double legitimacy,
    double activeThreshold,
    double arrestProbabilityConstant,
    int maxJailTerm) {

  public static final EpsteinParameters DEFAULTS =
      new EpsteinParameters(10, 10, 20, 5, 5, 0.5, 0.1, 2.3, 30);

  public EpsteinParameters {
    require(width > 0 && height > 0, "grid width and height must be positive");
    require(citizens >= 0 && cops >= 0, "citizens and cops must be >= 0");
    require(citizens + cops <= width * height,
        "citizens + cops (" + (citizens + cops) + ") must fit on the grid (" + width * height + ")");
    require(vision >= 1, "vision must be >= 1");
    require(legitimacy >= 0 && legitimacy <= 1, "legitimacy must be in [0, 1]");
    require(maxJailTerm >= 0, "maxJailTerm must be >= 0");
  }

  /** These parameters with other numbers of citizens and cops. */
  public EpsteinParameters withAgents(int citizens, int cops) {
    return new EpsteinParameters(width, height, citizens, cops, vision, legitimacy,
        activeThreshold, arrestProbabilityConstant, maxJailTerm);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("epstein: " + message);
    }
  }
}
