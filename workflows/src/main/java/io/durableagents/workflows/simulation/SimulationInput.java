package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.memory.MemoryOptions;
import io.durableagents.workflows.scenario.ScenarioParameters;
import java.util.Map;

/**
 * What a simulation runs: the scenario by name, its parameters as one JSON object, and how agents
 * reason and the run is shaped. Holds no prompt and no secret.
 *
 * <pre>{@code
 * SimulationInput input = SimulationInput.of("epstein", 50, 42L)
 *     .withParameters(EpsteinParameters.DEFAULTS.withAgents(40, 8));
 * WorkflowClient.start(simulation::run, input);
 * }</pre>
 *
 * @param scenario the name of a scenario registered on the worker ({@code epstein})
 * @param steps how many steps to run
 * @param seed the seed of every random draw: the same seed gives the same run
 * @param parameters the scenario's parameters as a JSON object of snake_case names (null: the
 *     scenario's defaults; a value not set takes its default). The workflow checks them before the
 *     first step; a bad value fails the run at once, naming the parameter, the value and what is
 *     allowed. Inputs written before parameters were generic carried them as {@code epstein} or {@code
 *     negotiation}: those names are read as this one.
 * @param agentOptions every agent's strategy, model and tool settings
 * @param roleOptions per-role overrides of {@code agentOptions} (may be empty)
 * @param maxConcurrentAgents how many agent steps run at once (default {@link
 *     #DEFAULT_MAX_CONCURRENT_AGENTS})
 * @param searchAttributes whether to set the {@link io.durableagents.workflows.SearchAttributes}
 *     (only when they are registered on the namespace; default false)
 * @param continueAsNewEvery continue as new after this many steps in one run (default {@link
 *     #DEFAULT_CONTINUE_AS_NEW_EVERY}), or earlier when Temporal suggests it
 * @param memory how agents remember (default: no memory)
 * @param state where a continued run resumes (set by continue-as-new; null for a new simulation);
 *     written deflated once its JSON passes 256 KB ({@link PackedState})
 * @param continueAsNewWhenSuggested whether to continue as new before {@code continueAsNewEvery} steps
 *     when Temporal suggests it (default true; false keeps the interval exact, for comparisons)
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
    @JsonAlias({"epstein", "negotiation"}) JsonNode parameters,
    AgentOptions agentOptions,
    Map<String, AgentOptions> roleOptions,
    Integer maxConcurrentAgents,
    Boolean searchAttributes,
    Integer continueAsNewEvery,
    MemoryOptions memory,
    @com.fasterxml.jackson.databind.annotation.JsonSerialize(using = PackedState.Serializer.class)
    @com.fasterxml.jackson.databind.annotation.JsonDeserialize(using = PackedState.Deserializer.class)
    SimulationState state,
    Boolean continueAsNewWhenSuggested,
    Integer agentsPerWorkflow,
    Integer checkpointEvery) {

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
    checkpointEvery = checkpointEvery == null ? 0 : checkpointEvery;
  }

  /** Without checkpoints (as inputs were before {@code checkpointEvery}). */
  public SimulationInput(String scenario, int steps, long seed, JsonNode parameters, AgentOptions agentOptions,
      Map<String, AgentOptions> roleOptions, Integer maxConcurrentAgents, Boolean searchAttributes,
      Integer continueAsNewEvery, MemoryOptions memory, SimulationState state, Boolean continueAsNewWhenSuggested,
      Integer agentsPerWorkflow) {
    this(scenario, steps, seed, parameters, agentOptions, roleOptions, maxConcurrentAgents, searchAttributes,
        continueAsNewEvery, memory, state, continueAsNewWhenSuggested, agentsPerWorkflow, null);
  }

  /** A simulation of {@code scenario} with its default parameters and every other setting's default. */
  public static SimulationInput of(String scenario, int steps, long seed) {
    return new SimulationInput(scenario, steps, seed, (JsonNode) null, null, null, null, null, null,
        null, null, null, null, null);
  }

  /**
   * The input with the scenario's parameters as a record (written as its JSON object), the agents'
   * options and the concurrency window.
   */
  public SimulationInput(String scenario, int steps, long seed, Record parameters,
      AgentOptions agentOptions, Map<String, AgentOptions> roleOptions, Integer maxConcurrentAgents) {
    this(scenario, steps, seed, parameters, agentOptions, roleOptions, maxConcurrentAgents, false);
  }

  /** As the constructor above, with search attributes set or not. */
  public SimulationInput(String scenario, int steps, long seed, Record parameters,
      AgentOptions agentOptions, Map<String, AgentOptions> roleOptions, Integer maxConcurrentAgents,
      Boolean searchAttributes) {
    this(scenario, steps, seed, ScenarioParameters.toJson(parameters), agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, null, null, null, null, null);
  }

  /** This input with the scenario's {@code parameters} (a JSON object; null for the defaults). */
  public SimulationInput withParameters(JsonNode parameters) {
    return new SimulationInput(scenario, steps, seed, parameters, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state,
        continueAsNewWhenSuggested, agentsPerWorkflow, checkpointEvery);
  }

  /** This input with the scenario's {@code parameters}, given as its parameters record. */
  public SimulationInput withParameters(Record parameters) {
    return withParameters(ScenarioParameters.toJson(parameters));
  }

  /** This input with {@code agentOptions} for every role without options of its own. */
  public SimulationInput withAgentOptions(AgentOptions agentOptions) {
    return new SimulationInput(scenario, steps, seed, parameters, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state,
        continueAsNewWhenSuggested, agentsPerWorkflow, checkpointEvery);
  }

  /** This input with per-role {@code roleOptions}. */
  public SimulationInput withRoleOptions(Map<String, AgentOptions> roleOptions) {
    return new SimulationInput(scenario, steps, seed, parameters, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state,
        continueAsNewWhenSuggested, agentsPerWorkflow, checkpointEvery);
  }

  /** This input with {@code maxConcurrentAgents} set. */
  public SimulationInput withMaxConcurrentAgents(int agents) {
    return new SimulationInput(scenario, steps, seed, parameters, agentOptions, roleOptions, agents,
        searchAttributes, continueAsNewEvery, memory, state, continueAsNewWhenSuggested,
        agentsPerWorkflow, checkpointEvery);
  }

  /** This input with {@code searchAttributes} set. */
  public SimulationInput withSearchAttributes(boolean on) {
    return new SimulationInput(scenario, steps, seed, parameters, agentOptions, roleOptions,
        maxConcurrentAgents, on, continueAsNewEvery, memory, state, continueAsNewWhenSuggested,
        agentsPerWorkflow, checkpointEvery);
  }

  /** This input with {@code continueAsNewEvery} set. */
  public SimulationInput withContinueAsNewEvery(int steps) {
    return new SimulationInput(scenario, this.steps, seed, parameters, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, steps, memory, state, continueAsNewWhenSuggested,
        agentsPerWorkflow, checkpointEvery);
  }

  /** This input with {@code memory} set. */
  public SimulationInput withMemory(MemoryOptions memory) {
    return new SimulationInput(scenario, steps, seed, parameters, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state,
        continueAsNewWhenSuggested, agentsPerWorkflow, checkpointEvery);
  }

  /** This input carrying {@code state}: the input of the run that continues as new. */
  public SimulationInput withState(SimulationState state) {
    return new SimulationInput(scenario, steps, seed, parameters, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state,
        continueAsNewWhenSuggested, agentsPerWorkflow, checkpointEvery);
  }

  /** This input with {@code continueAsNewWhenSuggested} set. */
  public SimulationInput withContinueAsNewWhenSuggested(boolean whenSuggested) {
    return new SimulationInput(scenario, steps, seed, parameters, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state, whenSuggested,
        agentsPerWorkflow, checkpointEvery);
  }

  /** This input with {@code agentsPerWorkflow} set. */
  public SimulationInput withAgentsPerWorkflow(int agents) {
    return new SimulationInput(scenario, steps, seed, parameters, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state,
        continueAsNewWhenSuggested, agents, checkpointEvery);
  }

  /** The options of agents with {@code role}. */
  /** Writes a checkpoint after every {@code every} steps (0: none, the default). */
  public SimulationInput withCheckpointEvery(int every) {
    return new SimulationInput(scenario, steps, seed, parameters, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state,
        continueAsNewWhenSuggested, agentsPerWorkflow, every);
  }

  /**
   * This input with another seed; a carried state's random generator starts again from it, so a run
   * going on from that state draws differently from then on.
   */
  public SimulationInput withSeed(long seed) {
    return new SimulationInput(scenario, steps, seed, parameters, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory,
        state == null ? null : state.reseeded(seed), continueAsNewWhenSuggested, agentsPerWorkflow,
        checkpointEvery);
  }

  /** The same simulation for {@code steps} steps in all. */
  public SimulationInput withSteps(int steps) {
    return new SimulationInput(scenario, steps, seed, parameters, agentOptions, roleOptions,
        maxConcurrentAgents, searchAttributes, continueAsNewEvery, memory, state,
        continueAsNewWhenSuggested, agentsPerWorkflow, checkpointEvery);
  }

  public AgentOptions optionsFor(String role) {
    return roleOptions.getOrDefault(role, agentOptions);
  }

  /**
   * Checks the settings every scenario shares, so that a bad one fails at once with a readable
   * message. The scenario and its parameters are checked against the worker's registry by the
   * workflow ({@code ScenarioParameters.read}).
   *
   * @throws IllegalArgumentException naming the bad field
   */
  public void validate() {
    if (scenario == null || scenario.isBlank()) {
      throw new IllegalArgumentException("scenario must name a registered scenario, was " + scenario);
    }
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
    if (checkpointEvery < 0) {
      throw new IllegalArgumentException("checkpointEvery must be >= 0, was " + checkpointEvery);
    }
    memory.validate();
  }
}
