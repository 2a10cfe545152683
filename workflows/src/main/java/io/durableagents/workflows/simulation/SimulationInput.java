package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.scenario.Scenarios;
import io.durableagents.workflows.simulation.epstein.EpsteinParameters;
import io.durableagents.workflows.simulation.negotiation.NegotiationParameters;
import java.util.Map;

/**
 * What a simulation runs. Holds no prompt and no secret.
 *
 * @param scenario the scenario's name ({@code epstein}, {@code negotiation})
 * @param steps how many steps to run
 * @param seed the seed of every random draw: the same seed gives the same run
 * @param epstein the civil violence parameters (null: Mesa-LLM's reference example)
 * @param agentOptions every agent's strategy, model and tool settings
 * @param roleOptions per-role overrides of {@code agentOptions} (may be empty)
 * @param maxConcurrentAgents how many agent steps run at once (default {@link
 *     #DEFAULT_MAX_CONCURRENT_AGENTS})
 * @param searchAttributes whether to set the {@link io.durableagents.workflows.SearchAttributes}
 *     (only when they are registered on the namespace; default false)
 * @param negotiation the negotiation parameters (null: Mesa-LLM's negotiation example)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SimulationInput(
    String scenario,
    int steps,
    long seed,
    EpsteinParameters epstein,
    AgentOptions agentOptions,
    Map<String, AgentOptions> roleOptions,
    Integer maxConcurrentAgents,
    Boolean searchAttributes,
    NegotiationParameters negotiation) {

  public static final int DEFAULT_MAX_CONCURRENT_AGENTS = 100;

  public SimulationInput {
    agentOptions = agentOptions == null ? AgentOptions.defaults() : agentOptions;
    roleOptions = roleOptions == null ? Map.of() : Map.copyOf(roleOptions);
    maxConcurrentAgents =
        maxConcurrentAgents == null ? DEFAULT_MAX_CONCURRENT_AGENTS : maxConcurrentAgents;
    searchAttributes = searchAttributes != null && searchAttributes;
  }

  /** The input as before, without negotiation parameters. */
  public SimulationInput(String scenario, int steps, long seed, EpsteinParameters epstein,
      AgentOptions agentOptions, Map<String, AgentOptions> roleOptions, Integer maxConcurrentAgents,
      Boolean searchAttributes) {
    this(scenario, steps, seed, epstein, agentOptions, roleOptions, maxConcurrentAgents,
        searchAttributes, null);
  }

  /** The input as before, without search attributes (the common case). */
  public SimulationInput(String scenario, int steps, long seed, EpsteinParameters epstein,
      AgentOptions agentOptions, Map<String, AgentOptions> roleOptions, Integer maxConcurrentAgents) {
    this(scenario, steps, seed, epstein, agentOptions, roleOptions, maxConcurrentAgents, false);
  }

  /** This input with {@code searchAttributes} set. */
  public SimulationInput withSearchAttributes(boolean on) {
    return new SimulationInput(scenario, steps, seed, epstein, agentOptions, roleOptions,
        maxConcurrentAgents, on, negotiation);
  }

  /** This input with the negotiation scenario's {@code parameters}. */
  public SimulationInput withNegotiation(NegotiationParameters parameters) {
    return new SimulationInput(scenario, steps, seed, epstein, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, parameters);
  }

  /** The options of agents with {@code role}. */
  public AgentOptions optionsFor(String role) {
    return roleOptions.getOrDefault(role, agentOptions);
  }

  /**
   * Checks the input, so that a bad one fails at once with a readable message.
   *
   * @throws IllegalArgumentException naming the bad field
   */
  public void validate() {
    Scenarios.prompts(scenario);
    if (steps < 1) {
      throw new IllegalArgumentException("steps must be >= 1, was " + steps);
    }
    if (maxConcurrentAgents < 1) {
      throw new IllegalArgumentException(
          "maxConcurrentAgents must be >= 1, was " + maxConcurrentAgents);
    }
  }
}
