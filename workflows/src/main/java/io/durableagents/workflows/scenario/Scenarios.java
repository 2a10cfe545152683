package io.durableagents.workflows.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.workflows.Json;
import io.durableagents.workflows.simulation.ScenarioWorld;
import io.durableagents.workflows.simulation.SeededRandom;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.epstein.EpsteinParameters;
import io.durableagents.workflows.simulation.epstein.EpsteinScenario;
import io.durableagents.workflows.simulation.epstein.EpsteinSnapshot;
import io.durableagents.workflows.simulation.epstein.EpsteinWorld;
import io.durableagents.workflows.simulation.negotiation.NegotiationParameters;
import io.durableagents.workflows.simulation.negotiation.NegotiationScenario;
import io.durableagents.workflows.simulation.negotiation.NegotiationSnapshot;
import io.durableagents.workflows.simulation.negotiation.NegotiationWorld;
import java.util.List;

/** The scenarios this build knows, by name. Register a new scenario here. */
public final class Scenarios {
  /** Every scenario name. */
  public static final List<String> NAMES = List.of(EpsteinScenario.NAME, NegotiationScenario.NAME);

  /** Prompts of agents outside any scenario (a single task). */
  public static final ScenarioPrompts GENERIC =
      new ScenarioPrompts() {
        @Override
        public String roleDescription(String role) {
          return "You are " + (role == null ? "an assistant" : role) + ".";
        }

        @Override
        public String stepPrompt(String role) {
          return "Decide what to do next.";
        }
      };

  private Scenarios() {}

  /**
   * The prompts of {@code scenario}.
   *
   * @throws IllegalArgumentException naming the known scenarios
   */
  public static ScenarioPrompts prompts(String scenario) {
    if (scenario == null) {
      return GENERIC;
    }
    if (EpsteinScenario.NAME.equals(scenario)) {
      return new EpsteinScenario();
    }
    if (NegotiationScenario.NAME.equals(scenario)) {
      return new NegotiationScenario();
    }
    throw unknown(scenario);
  }

  /**
   * The roles of {@code scenario}'s agents.
   *
   * @throws IllegalArgumentException naming the known scenarios
   */
  public static List<String> roles(String scenario) {
    if (EpsteinScenario.NAME.equals(scenario)) {
      return List.of(EpsteinScenario.CITIZEN, EpsteinScenario.COP);
    }
    if (NegotiationScenario.NAME.equals(scenario)) {
      return List.of(NegotiationScenario.SELLER, NegotiationScenario.BUYER);
    }
    throw unknown(scenario);
  }

  /** A new world for {@code input}, drawn from {@code random}. */
  public static ScenarioWorld createWorld(SimulationInput input, SeededRandom random) {
    if (EpsteinScenario.NAME.equals(input.scenario())) {
      EpsteinParameters p = input.epstein() == null ? EpsteinParameters.DEFAULTS : input.epstein();
      return EpsteinWorld.create(p, random);
    }
    if (NegotiationScenario.NAME.equals(input.scenario())) {
      NegotiationParameters p =
          input.negotiation() == null ? NegotiationParameters.DEFAULTS : input.negotiation();
      return NegotiationWorld.create(p, random);
    }
    throw unknown(input.scenario());
  }

  /**
   * The world of {@code input}'s scenario as {@link ScenarioWorld#snapshot()} took it, read back from
   * its JSON tree (how it travels in a continued run's input).
   */
  public static ScenarioWorld restoreWorld(SimulationInput input, JsonNode snapshot) {
    if (EpsteinScenario.NAME.equals(input.scenario())) {
      return EpsteinWorld.restore(Json.MAPPER.convertValue(snapshot, EpsteinSnapshot.class));
    }
    if (NegotiationScenario.NAME.equals(input.scenario())) {
      return NegotiationWorld.restore(Json.MAPPER.convertValue(snapshot, NegotiationSnapshot.class));
    }
    throw unknown(input.scenario());
  }

  private static IllegalArgumentException unknown(String scenario) {
    return new IllegalArgumentException(
        "scenario '" + scenario + "' is not one of: " + String.join(", ", NAMES));
  }
}
