package io.durableagents.workflows.simulation;

import java.util.Map;

/**
 * A change of a running simulation's parameters, as {@code intervene <id> --param name=value} asks for
 * it.
 *
 * @param parameters new values by parameter name, as text ({@code legitimacy -> "0.3"}); only the
 *     scenario's adjustable parameters
 * @param atStep the step from which they apply (they are set at the boundary before it); null: the
 *     next step that has not started
 * @param note why, in a few words, for the result (optional)
 */
public record InterventionRequest(Map<String, String> parameters, Integer atStep, String note) {
  public InterventionRequest {
    parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
  }
}
