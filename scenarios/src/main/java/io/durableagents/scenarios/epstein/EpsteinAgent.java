package io.durableagents.scenarios.epstein;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.durableagents.scenarios.grid.GridPosition;

/**
 * One agent of the civil violence model: a citizen or a cop.
 *
 * @param id agent id ({@code citizen-3}, {@code cop-0})
 * @param role {@link EpsteinScenario#CITIZEN} or {@link EpsteinScenario#COP}
 * @param position its cell
 * @param condition a citizen's {@code quiet}, {@code active} or {@code jailed}; a cop's {@code cop}
 * @param hardship H, uniform in [0, 1)
 * @param riskAversion R, uniform in [0, 1)
 * @param jailSentence steps left in jail
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record EpsteinAgent(
    String id,
    String role,
    GridPosition position,
    String condition,
    double hardship,
    double riskAversion,
    int jailSentence) {

  @JsonIgnore
  public boolean isCitizen() {
    return EpsteinScenario.CITIZEN.equals(role);
  }

  @JsonIgnore
  public boolean isCop() {
    return EpsteinScenario.COP.equals(role);
  }

  @JsonIgnore
  public boolean isActive() {
    return EpsteinScenario.ACTIVE.equals(condition);
  }

  @JsonIgnore
  public boolean isJailed() {
    return EpsteinScenario.JAILED.equals(condition);
  }

  public EpsteinAgent withPosition(GridPosition p) {
    return new EpsteinAgent(id, role, p, condition, hardship, riskAversion, jailSentence);
  }

  public EpsteinAgent withCondition(String c) {
    return new EpsteinAgent(id, role, position, c, hardship, riskAversion, jailSentence);
  }

  public EpsteinAgent withJail(String c, int sentence) {
    return new EpsteinAgent(id, role, position, c, hardship, riskAversion, sentence);
  }
}
