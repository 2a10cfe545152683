package io.durableagents.scenarios.epstein;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * The whole state of an {@link EpsteinWorld}, as {@link EpsteinWorld#snapshot()} takes it: the
 * parameters and every agent in the world's order. Carried across continue-as-new and answered by the
 * simulation's {@code world} query.
 *
 * @param parameters the civil violence parameters
 * @param agents every agent, in the world's order (citizens, then cops)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record EpsteinSnapshot(EpsteinParameters parameters, List<EpsteinAgent> agents) {
  public EpsteinSnapshot {
    agents = agents == null ? List.of() : List.copyOf(agents);
  }
}
