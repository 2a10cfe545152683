package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.api.InvalidParameterException;
import io.durableagents.api.Json;
import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.workflows.scenario.ParameterSpec;
import io.durableagents.workflows.scenario.ScenarioParameters;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A simulation's interventions: changes of its scenario's parameters asked for during the run (the
 * {@code intervene} update, a fork's {@code --param}), checked against the scenario and the run's
 * progress when asked ({@link #check}), kept in the order asked, and applied to the world and the input
 * at the step boundary before their step ({@link #applyDue}). Workflow code.
 */
final class Interventions {
  /** Every intervention asked for, applied and scheduled, in the order asked. */
  private final List<Intervention> all = new ArrayList<>();

  /** The world and the input after the interventions due were applied. */
  record Applied(ScenarioWorld world, SimulationInput input) {}

  /** Every intervention so far, applied and scheduled, in the order asked. */
  List<Intervention> all() {
    return List.copyOf(all);
  }

  /** Takes up the interventions of the state a run continued from. */
  void restore(List<Intervention> carried) {
    all.addAll(carried);
  }

  /** Keeps {@code checked}, an intervention {@link #check} returned. */
  void add(Intervention checked) {
    all.add(checked);
  }

  /**
   * The intervention {@code request} asks for, checked against {@code scenario} and the run's
   * progress: {@code step} completed of {@code input}'s, the next one running or not, the run over or
   * not.
   *
   * @throws IllegalArgumentException naming the parameter, the value or the step that cannot be
   */
  Intervention check(InterventionRequest request, Scenario<?> scenario, SimulationInput input, int step,
      boolean stepRunning, boolean done) {
    if (done) {
      throw new IllegalArgumentException("the simulation is over");
    }
    // a running step keeps the values it started with: the first step that can take new ones
    int first = step + (stepRunning ? 2 : 1);
    int at = request.atStep() == null ? first : request.atStep();
    if (at < first) {
      throw new IllegalArgumentException("step " + at + " is " + (at <= step ? "past: the run has completed step "
          + step : "running") + "; the first step that can change is " + first);
    }
    if (at > input.steps()) {
      throw new IllegalArgumentException("step " + at + " is after the run's last step, " + input.steps());
    }
    return new Intervention(all.size() + 1, at, checkedParameters(scenario, request.parameters()),
        null, false, request.note());
  }

  /**
   * Applies the interventions scheduled for {@code next} (or before it), at the boundary before it, to
   * {@code world} and the parameters of {@code input}; returns them both as they are then.
   */
  Applied applyDue(int next, Scenario<?> scenario, ScenarioWorld world, SimulationInput input) {
    for (int i = 0; i < all.size(); i++) {
      Intervention v = all.get(i);
      if (v.applied() || v.atStep() > next) {
        continue;
      }
      ObjectNode current = currentParameters(scenario, input);
      ObjectNode previous = Json.MAPPER.createObjectNode();
      ObjectNode merged = current.deepCopy();
      v.parameters().fieldNames().forEachRemaining(name -> {
        previous.set(name, current.get(name));
        merged.set(name, v.parameters().get(name));
      });
      world = adjust(scenario, world, merged);
      input = input.withParameters(merged);
      all.set(i, v.appliedOver(previous));
      Workflow.getLogger(SimulationWorkflowImpl.class).info("intervention {} from step {}: {}", v.number(), next,
          all.get(i).describe());
    }
    return new Applied(world, input);
  }

  private static <P extends Record> ScenarioWorld adjust(Scenario<P> scenario, ScenarioWorld world, JsonNode values) {
    return scenario.adjust(world, ScenarioParameters.read(scenario, values));
  }

  /** The parameters in force: the input's over the scenario's defaults. */
  private static ObjectNode currentParameters(Scenario<?> scenario, SimulationInput input) {
    return ScenarioParameters.toJson(ScenarioParameters.read(scenario, input.parameters()));
  }

  /**
   * The new values, read and checked as the scenario reads its parameters.
   *
   * @throws IllegalArgumentException for no values, an unknown or fixed parameter, or a value not allowed
   */
  static JsonNode checkedParameters(Scenario<?> scenario, Map<String, String> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no parameter to change");
    }
    List<ParameterSpec> specs = ScenarioParameters.specs(scenario);
    List<String> adjustable = new ArrayList<>();
    specs.stream().filter(ParameterSpec::adjustable)
        .forEach(p -> adjustable.add(p.name()));
    Map<String, String> canonical = new TreeMap<>();
    for (Map.Entry<String, String> e : values.entrySet()) {
      String name = specs.stream().filter(p -> p.name().equals(e.getKey()) || p.aliases().contains(e.getKey()))
          .map(ParameterSpec::name).findFirst().orElse(e.getKey());
      canonical.put(name, e.getValue());
    }
    for (String name : canonical.keySet()) {
      boolean known = specs.stream().anyMatch(p -> p.name().equals(name));
      if (!known) {
        throw new IllegalArgumentException("scenario " + scenario.name() + " has no parameter '" + name
            + "'; those that can change during a run: " + (adjustable.isEmpty() ? "none" : String.join(", ", adjustable)));
      }
      if (!adjustable.contains(name)) {
        throw new IllegalArgumentException("parameter '" + name + "' of scenario " + scenario.name()
            + " is fixed when the world is made; those that can change during a run: "
            + (adjustable.isEmpty() ? "none" : String.join(", ", adjustable)));
      }
    }
    try {
      ObjectNode given = ScenarioParameters.fromText(scenario, canonical);
      ScenarioParameters.read(scenario, given);
      return given;
    } catch (InvalidParameterException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
  }
}
