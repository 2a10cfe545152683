package io.durableagents.scenarios.epstein;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.durableagents.api.InvalidParameterException;
import io.durableagents.api.Param;

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
    @Param(value = "grid width (a torus)", min = 1, max = 1000) int width,
    @Param(value = "grid height (a torus)", min = 1, max = 1000) int height,
    @Param(value = "how many citizens", min = 0, max = 1_000_000) int citizens,
    @Param(value = "how many cops", min = 0, max = 1_000_000) int cops,
    @Param(value = "vision radius (Moore neighbourhood)", min = 1, max = 1000, adjustable = true) int vision,
    @Param(value = "the regime's perceived legitimacy L; grievance = hardship x (1 - L)", min = 0, max = 1, adjustable = true)
        double legitimacy,
    @JsonAlias("activeThreshold")
    @Param(value = "T: a citizen turns active when grievance - net risk > T", min = 0, max = 1, adjustable = true)
        double activeThreshold,
    @JsonAlias("arrestProbabilityConstant")
    @Param(value = "k in P(arrest) = 1 - exp(-k x round(cops / actives))", min = 0, max = 100, adjustable = true)
        double arrestProbabilityConstant,
    @JsonAlias("maxJailTerm")
    @Param(value = "an arrest jails for a uniform number of steps in [0, max_jail_term]", min = 0,
        max = 1_000_000, adjustable = true)
        int maxJailTerm) {

  public static final EpsteinParameters DEFAULTS =
      new EpsteinParameters(10, 10, 20, 5, 5, 0.5, 0.1, 2.3, 30);

  /** These parameters with other numbers of citizens and cops. */
  public EpsteinParameters withAgents(int citizens, int cops) {
    return new EpsteinParameters(width, height, citizens, cops, vision, legitimacy,
        activeThreshold, arrestProbabilityConstant, maxJailTerm);
  }

  /**
   * Checks what the ranges of the components cannot: that every agent fits on the grid.
   *
   * @throws InvalidParameterException naming the parameter
   */
  void check() {
    if ((long) citizens + cops > (long) width * height) {
      throw new InvalidParameterException("citizens", citizens,
          "citizens + cops at most width x height = " + width * height + " (cops: " + cops + ")");
    }
  }
}
