package io.durableagents.workflows.experiment;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.simulation.Intervention;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One planned run of an experiment: a point of its grid and a seed, and how its simulation's input
 * differs from the experiment's base input.
 *
 * @param index its number in the experiment, from 1 (its simulation's id ends {@code /run-<index>})
 * @param values the grid's values of this run by dimension, as the grid gave them: parameter names
 *     ({@code legitimacy -> 0.5}), and {@code strategy} or {@code model} where those were crossed in
 * @param seed the seed it runs with (null: the base's, and a what-if's random state goes on unchanged)
 * @param parameters for a new simulation, the scenario parameters this run sets over the base's (checked
 *     when the experiment was made; null: the base's)
 * @param intervention for a what-if (a base carrying a recorded state), the parameter values, checked,
 *     that apply from the step after that state's (null: none)
 * @param agentOptions every agent's options for this run (null: the base's)
 * @param roleOptions per-role options for this run (null: the base's)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExperimentRun(
    int index,
    Map<String, String> values,
    Long seed,
    JsonNode parameters,
    JsonNode intervention,
    AgentOptions agentOptions,
    Map<String, AgentOptions> roleOptions) {

  public ExperimentRun {
    values = values == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /**
   * The input of this run's simulation: {@code base} with this run's seed, parameters and options; for a
   * what-if, the intervention scheduled after the recorded state's step, noted with {@code note}.
   */
  public SimulationInput inputFrom(SimulationInput base, String note) {
    SimulationInput input = base;
    if (seed != null && (seed != base.seed() || base.state() == null)) {
      input = input.withSeed(seed);
    }
    if (parameters != null && parameters.isObject() && parameters.size() > 0) {
      ObjectNode merged = base.parameters() != null && base.parameters().isObject()
          ? ((ObjectNode) base.parameters()).deepCopy() : JsonNodeFactory.instance.objectNode();
      merged.setAll((ObjectNode) parameters);
      input = input.withParameters(merged);
    }
    if (agentOptions != null) {
      input = input.withAgentOptions(agentOptions);
    }
    if (roleOptions != null) {
      input = input.withRoleOptions(roleOptions);
    }
    SimulationState state = input.state();
    if (intervention != null && intervention.isObject() && intervention.size() > 0 && state != null) {
      List<Intervention> all = new ArrayList<>(state.interventions());
      all.add(new Intervention(all.size() + 1, state.step() + 1, intervention, null, false, note));
      input = input.withState(state.withInterventions(all));
    }
    return input;
  }

  /** {@code legitimacy=0.5, seed=3}: the run's values and seed, for people. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    values.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=').append(v));
    if (seed != null) {
      sb.append(sb.length() == 0 ? "" : ", ").append("seed=").append(seed);
    }
    return sb.toString();
  }
}
