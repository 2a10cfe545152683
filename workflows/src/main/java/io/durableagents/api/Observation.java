package io.durableagents.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.Map;

/**
 * What an agent sees at one simulation step, after Mesa-LLM's {@code Observation(step, self_state,
 * local_state)}.
 *
 * @param step the simulation step
 * @param selfState the agent's own attributes, hidden ones (names starting with {@code _}) included
 * @param localState the agents within its vision radius, keyed by agent id, each with only its public
 *     attributes: a neighbour never sees another's {@code _}-prefixed attributes; in JSON a table
 *     ({@link ObservationJson})
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonSerialize(using = ObservationJson.Serializer.class)
@JsonDeserialize(using = ObservationJson.Deserializer.class)
public record Observation(
    int step, Map<String, Object> selfState, Map<String, Map<String, Object>> localState) {

  public Observation {
    selfState = selfState == null ? Map.of() : selfState;
    localState = localState == null ? Map.of() : localState;
  }
}
