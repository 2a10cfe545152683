package io.durableagents.scenarios.negotiation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole state of a {@link NegotiationWorld}, as {@link NegotiationWorld#snapshot()} takes it at a
 * step boundary: the parameters, every agent in the world's order, and the messages delivered at the
 * last step's end (shown in the recipients' next observation). Carried across continue-as-new and
 * answered by the simulation's {@code world} query.
 *
 * @param parameters the negotiation parameters
 * @param agents every agent, in the world's order (sellers, then buyers)
 * @param inbox the messages delivered at the last step's end, by recipient id
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record NegotiationSnapshot(
    NegotiationParameters parameters, List<NegotiationAgent> agents, Map<String, List<String>> inbox) {
  public NegotiationSnapshot {
    agents = agents == null ? List.of() : List.copyOf(agents);
    inbox = inbox == null ? Map.of() : new LinkedHashMap<>(inbox);
  }
}
