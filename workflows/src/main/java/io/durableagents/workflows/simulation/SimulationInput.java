package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.memory.MemoryOptions;
import io.durableagents.workflows.scenario.Scenarios;
import io.durableagents.workflows.simulation.epstein.EpsteinParameters;
import io.durableagents.workflows.simulation.negotiation.NegotiationParameters;
import java.util.Map;

/**
 * What a simulation runs. Holds no prompt and no secret.
 *
 * @param scenario the scenario's name ({@code epstein})
 * @param steps how many steps to run
 * @param seed the seed of every random draw: the same seed gives the same run
 * @param epstein the civil violence parameters (null: Mesa-LLM's reference example)
 * @param agentOptions every agent's strategy, model and tool settings
 * @param roleOptions per-role overrides of {@code agentOptions} (may be empty)
 * @param maxConcurrentAgents how many agent steps run at once (default {@link
 *     #DEFAULT_MAX_CONCURRENT_AGENTS})
 * @param searchAttributes whether to set the {@link io.durableagents.workflows.SearchAttributes}
 *     (only when they are registered on the namespace; default false)
 * @param continueAsNewEvery continue as new after this many steps in one run (default {@link
 *     #DEFAULT_CONTINUE_AS_NEW_EVERY}), or earlier when Temporal suggests it
 * @param memory how agents remember (default: no memory)
 * @param state where a continued run resumes (set by continue-as-new; null for a new simulation)
 * @param continueAsNewWhenSuggested whether to continue as new before {@code continueAsNewEvery} steps
 *     when Temporal suggests it (default true; false keeps the interval exact, for comparisons)
 * @param negotiation the negotiation parameters (null: Mesa-LLM's negotiation example)
 * @param agentsPerWorkflow how many agents' steps of one simulation step share one workflow (default
 *     1: every agent step is a workflow of its own, {@code <simulation>/agent-<id>/step-<n>}; more:
 *     {@code <simulation>/step-<n>/group-<g>} workflows of that many agents each, which saves most of
 *     the orchestration per agent step; every LLM and tool call stays an activity of its own either way)
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
    Integer continueAsNewEvery,
    MemoryOptions memory,
    SimulationState state,
    Boolean continueAsNewWhenSuggested,
    NegotiationParameters negotiation,
    Integer agentsPerWorkflow) {

  public static final int DEFAULT_MAX_CONCURRENT_AGENTS = 100;
  public static final int DEFAULT_CONTINUE_AS_NEW_EVERY = 100;

  public SimulationInput {
    agentOptions = agentOptions == null ? AgentOptions.defaults() : agentOptions;
    roleOptions = roleOptions == null ? Map.of() : Map.copyOf(roleOptions);
    maxConcurrentAgents =
        maxConcurrentAgents == null ? DEFAULT_MAX_CONCURRENT_AGENTS : maxConcurrentAgents;
    searchAttributes = searchAttributes != null && searchAttributes;
    continueAsNewEvery =
        continueAsNewEvery == null ? DEFAULT_CONTINUE_AS_NEW_EVERY : continueAsNewEvery;
    memory = memory == null ? MemoryOptions.NONE : memory;
    continueAsNewWhenSuggested = continueAsNewWhenSuggested == null || continueAsNewWhenSuggested;
    agentsPerWorkflow = agentsPerWorkflow == null ? 1 : agentsPerWorkflow;
  }

  /** The input with every setting but {@code agentsPerWorkflow} (1: a workflow per agent step). */
  public SimulationInput(String scenario, int steps, long seed, EpsteinParameters epstein,
      AgentOptions agentOptions, Map<String, AgentOptions> roleOptions, Integer maxConcurrentAgents,
      Boolean searchAttributes, Integer continueAsNewEvery, MemoryOptions memory, SimulationState state,
      Boolean continueAsNewWhenSuggested, NegotiationParameters negotiation) {
    this(scenario, steps, seed, epstein, agentOptions, roleOptions, maxConcurrentAgents,
        searchAttributes, continueAsNewEvery, memory, state, continueAsNewWhenSuggested, negotiation,
        null);
  }

  /** The input with search attributes, before continue-as-new and memory existed. */
  public SimulationInput(String scenario, int steps, long seed, EpsteinParameters epstein,
      AgentOptions agentOptions, Map<String, AgentOptions> roleOptions, Integer maxConcurrentAgents,
      Boolean searchAttributes) {
    this(scenario, steps, seed, epstein, agentOptions, roleOptions, maxConcurrentAgents,
        searchAttributes, null, null, null, null, null);
  }

  /** The input as before, without search attributes (the common case). */
  public SimulationInput(String scenario, int steps, long seed, EpsteinParameters epstein,
      AgentOptions agentOptions, Map<String, AgentOptions> roleOptions, Integer maxConcurrentAgents) {
    this(scenario, steps, seed, epstein, agentOptions, roleOptions, maxConcurrentAgents, false);
  }

  /** This input with {@code searchAttributes} set. */
  public SimulationInput withSearchAttributes(boolean on) {
    return new SimulationInput(scenario, steps, seed, epstein, agentOptions, roleOptions,
        maxConcurrentAgents, on, continueAsNewEvery, memory, state, continueAsNewWhenSuggested,
        negotiation, agentsPerWorkflow);
  }

  /** This input with {@code continueAsNewEvery} set. */
  public SimulationInput withContinueAsNewEvery(int steps) {
    return new SimulationInput(scenario, this.steps, seed, epstein, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, steps, memory, state, continueAsNewWhenSuggested,
        negotiation, agentsPerWorkflow);
  }

  /** This input with {@code memory} set. */
  public SimulationInput withMemory(MemoryOptions memory) {
    return new SimulationInput(scenario, steps, seed, epstein, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state,
        continueAsNewWhenSuggested, negotiation, agentsPerWorkflow);
  }

  /** This input carrying {@code state}: the input of the run that continues as new. */
  public SimulationInput withState(SimulationState state) {
    return new SimulationInput(scenario, steps, seed, epstein, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state,
        continueAsNewWhenSuggested, negotiation, agentsPerWorkflow);
  }

  /** This input with {@code continueAsNewWhenSuggested} set. */
  public SimulationInput withContinueAsNewWhenSuggested(boolean whenSuggested) {
    return new SimulationInput(scenario, steps, seed, epstein, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state, whenSuggested,
        negotiation, agentsPerWorkflow);
  }

  /** The input of the negotiation scenario before continue-as-new and memory existed. */
  public SimulationInput(String scenario, int steps, long seed, EpsteinParameters epstein,
      AgentOptions agentOptions, Map<String, AgentOptions> roleOptions, Integer maxConcurrentAgents,
      Boolean searchAttributes, NegotiationParameters negotiation) {
    this(scenario, steps, seed, epstein, agentOptions, roleOptions, maxConcurrentAgents,
        searchAttributes, null, null, null, null, negotiation);
  }

  /** The input with continue-as-new and memory settings, without negotiation parameters. */
  public SimulationInput(String scenario, int steps, long seed, EpsteinParameters epstein,
      AgentOptions agentOptions, Map<String, AgentOptions> roleOptions, Integer maxConcurrentAgents,
      Boolean searchAttributes, Integer continueAsNewEvery, MemoryOptions memory, SimulationState state,
      Boolean continueAsNewWhenSuggested) {
    this(scenario, steps, seed, epstein, agentOptions, roleOptions, maxConcurrentAgents,
        searchAttributes, continueAsNewEvery, memory, state, continueAsNewWhenSuggested, null);
  }

  /** This input with the negotiation scenario's {@code parameters}. */
  public SimulationInput withNegotiation(NegotiationParameters parameters) {
    return new SimulationInput(scenario, steps, seed, epstein, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state,
        continueAsNewWhenSuggested, parameters, agentsPerWorkflow);
  }

  /** This input with {@code agentsPerWorkflow} set. */
  public SimulationInput withAgentsPerWorkflow(int agents) {
    return new SimulationInput(scenario, steps, seed, epstein, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state,
        continueAsNewWhenSuggested, negotiation, agents);
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
    if (continueAsNewEvery < 1) {
      throw new IllegalArgumentException(
          "continueAsNewEvery must be >= 1, was " + continueAsNewEvery);
    }
    if (agentsPerWorkflow < 1) {
      throw new IllegalArgumentException(
          "agentsPerWorkflow must be >= 1, was " + agentsPerWorkflow);
    }
    memory.validate();
  }
}
