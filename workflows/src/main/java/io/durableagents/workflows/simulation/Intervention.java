package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A change of parameters during a run: scheduled by the {@code intervene} update (or a fork's {@code
 * --param}), applied at the boundary before {@code atStep}, and kept in the state across
 * continue-as-new and in the result, so the per-step data, the CSV and the chart mark where it came.
 *
 * @param number its number in this simulation, from 1
 * @param atStep the first step that runs with the new values
 * @param parameters the new values by name (checked, in the parameters' JSON types)
 * @param previous the values they replaced, by name (set once applied)
 * @param applied whether it has been applied
 * @param note why, if the requester said
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Intervention(int number, int atStep, JsonNode parameters, JsonNode previous, boolean applied,
    String note) {

  /** {@code legitimacy 0.5 -> 0.3} (applied) or {@code legitimacy -> 0.3} (scheduled), each parameter. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    parameters.fieldNames().forEachRemaining(name -> {
      sb.append(sb.length() == 0 ? "" : ", ").append(name).append(' ');
      if (previous != null && previous.has(name)) {
        sb.append(previous.get(name).asText()).append(' ');
      }
      sb.append("-> ").append(parameters.get(name).asText());
    });
    return sb.toString();
  }

  /** This one, applied over {@code previousValues}. */
  public Intervention appliedOver(JsonNode previousValues) {
    return new Intervention(number, atStep, parameters, previousValues, true, note);
  }
}
