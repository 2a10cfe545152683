package io.durableagents.workflows.scenario;

import io.durableagents.api.Scenario;
import io.durableagents.workflows.simulation.epstein.EpsteinScenario;
import io.durableagents.workflows.simulation.negotiation.NegotiationScenario;
import java.util.List;

/**
 * The scenarios that come with Durable Agents, written on the same {@link Scenario} API as a user's
 * own. The plugin registers them as it registers any other; workflow implementations created without
 * a registry (replay tests, {@code registerWorkflowImplementationTypes}) know these.
 */
public final class BuiltinScenarios {
  private BuiltinScenarios() {}

  /** Epstein's civil violence model and Mesa-LLM's negotiation example. */
  public static List<Scenario<?>> all() {
    return List.of(new EpsteinScenario(), new NegotiationScenario());
  }

  /** A registry of {@link #all()}. */
  public static ScenarioRegistry registry() {
    return ScenarioRegistry.of(all());
  }
}
