package io.durableagents.starter;

import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.memory.MemoryKind;
import io.durableagents.workflows.memory.MemoryOptions;
import io.durableagents.workflows.scenario.Scenarios;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.epstein.EpsteinParameters;
import io.durableagents.workflows.simulation.negotiation.NegotiationParameters;
import io.durableagents.workflows.simulation.negotiation.NegotiationScenario;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options that describe a simulation, shared by {@code simulate} and {@code demo}. */
final class SimulationOptions {
  /** The model used when neither --model nor DURABLE_AGENTS_MODEL says otherwise. */
  static final String MODEL_VARIABLE = "DURABLE_AGENTS_MODEL";

  private static final EpsteinParameters D = EpsteinParameters.DEFAULTS;
  private static final NegotiationParameters N = NegotiationParameters.DEFAULTS;

  @Option(names = "--scenario", defaultValue = "epstein",
      description = "Scenario: epstein or negotiation (default: ${DEFAULT-VALUE}).")
  String scenario;

  @Option(names = "--steps", defaultValue = "20", description = "Steps to run (default: ${DEFAULT-VALUE}).")
  int steps;

  @Option(names = "--seed", defaultValue = "42", description = "Random seed; the same seed gives the same run (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--citizens", description = "Citizens (default: 20).")
  Integer citizens;

  @Option(names = "--cops", description = "Cops (default: 5).")
  Integer cops;

  @Option(names = "--sellers", description = "Negotiation: sellers (default: 2).")
  Integer sellers;

  @Option(names = "--buyers", description = "Negotiation: buyers (default: 5).")
  Integer buyers;

  @Option(names = "--width", description = "Grid width (default: 10; negotiation: 5).")
  Integer width;

  @Option(names = "--height", description = "Grid height (default: 10; negotiation: 5).")
  Integer height;

  @Option(names = "--vision", description = "Vision radius (default: 5).")
  Integer vision;

  @Option(names = "--legitimacy", description = "Perceived legitimacy L in [0, 1] (default: 0.5).")
  Double legitimacy;

  @Option(names = "--max-jail-term", description = "Longest jail term in steps (default: 30).")
  Integer maxJailTerm;

  @Option(names = "--strategy", defaultValue = "cot",
      description = "Reasoning strategy: cot, react or rewoo, for every agent, or per role as "
          + "role=strategy pairs, e.g. citizen=rewoo,cop=react (roles not named use cot) "
          + "(default: ${DEFAULT-VALUE}).")
  String strategy;

  @Option(names = "--ttl",
      description = "ReWOO: simulation steps a plan stays valid, one planned action per step with no "
          + "LLM call (default: " + AgentOptions.DEFAULT_TTL + ").")
  Integer ttl;

  @Mixin
  StrategyOptions strategyOptions = new StrategyOptions();

  @Option(names = "--model",
      description = "Model: rules (offline rule-based policy), openai:<model>, anthropic:<model> or ollama:<model> "
          + "(default: $" + MODEL_VARIABLE + ", else rules).")
  String model;

  @Option(names = "--tool-choice", defaultValue = "auto",
      description = "Tool choice of the execution pass: auto, required, none, default (default: ${DEFAULT-VALUE}).")
  String toolChoice;

  @Option(names = "--selected-tools", split = ",",
      description = "Only these tools (comma separated); '-' for none. Default: all of each role's tools.")
  List<String> selectedTools;

  @Option(names = "--max-concurrent-agents",
      description = "Agent steps running at once (default: " + SimulationInput.DEFAULT_MAX_CONCURRENT_AGENTS + ").")
  Integer maxConcurrentAgents;

  @Option(names = "--agents-per-workflow", paramLabel = "N",
      description = "Agents whose steps share one workflow per simulation step (default: 1, a workflow "
          + "per agent step, <sim>/agent-<id>/step-<n>). More, such as 25, runs <sim>/step-<n>/group-<g> "
          + "workflows of N agents of one role: several times the agent steps per second for large "
          + "simulations; every LLM and tool call is still its own activity.")
  Integer agentsPerWorkflow;

  @Option(names = "--id", description = "Workflow id (default: sim-<scenario>-<seed>-<random>).")
  String id;

  @Option(names = "--continue-as-new-every", paramLabel = "STEPS",
      description = "Continue the workflow as new after this many steps in one run (earlier when Temporal "
          + "suggests it), carrying the whole state (default: " + SimulationInput.DEFAULT_CONTINUE_AS_NEW_EVERY + ").")
  Integer continueAsNewEvery;

  @Option(names = "--memory", defaultValue = "none", paramLabel = "KIND",
      description = "Agent memory: none, short-term, long-term or episodic (default: ${DEFAULT-VALUE}).")
  String memory;

  @Option(names = "--memory-capacity", paramLabel = "N",
      description = "Entries of memory kept per agent (default: " + MemoryOptions.DEFAULT_CAPACITY + ").")
  Integer memoryCapacity;

  /** The model to use: the option, else the environment, else {@code rules}. */
  String resolvedModel() {
    return checkedModel(model);
  }

  /**
   * The model to use, checked: {@code option} when set, else {@code $DURABLE_AGENTS_MODEL}, else
   * {@code rules}.
   *
   * @throws IllegalArgumentException naming --model and the allowed forms
   */
  static String checkedModel(String option) {
    String m = option;
    if (m == null || m.isBlank()) {
      String env = System.getenv(MODEL_VARIABLE);
      m = env == null || env.isBlank() ? AgentOptions.DEFAULT_MODEL : env.trim();
    }
    if (!m.matches("(rules|(openai|anthropic|ollama):.+)(\\+\\d{1,7}ms)?")) {
      throw new IllegalArgumentException("--model '" + m
          + "' is not one of: rules, openai:<model>, anthropic:<model>, ollama:<model>"
          + " (any of them + <n>ms adds n ms of latency per call, e.g. rules+100ms)");
    }
    return m;
  }

  /**
   * Parses --tool-choice.
   *
   * @throws IllegalArgumentException naming --tool-choice and the allowed values
   */
  static ToolChoice checkedToolChoice(String option) {
    try {
      return ToolChoice.parse(option);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--tool-choice: " + e.getMessage());
    }
  }

  /**
   * The workflow input, checked.
   *
   * @throws IllegalArgumentException naming the bad option and the allowed values
   */
  SimulationInput toInput() {
    if (!Scenarios.NAMES.contains(scenario)) {
      throw new IllegalArgumentException("--scenario '" + scenario + "' is not one of: "
          + String.join(", ", Scenarios.NAMES));
    }
    Strategy parsedStrategy = Strategy.COT;
    Map<String, Strategy> roleStrategies = new LinkedHashMap<>();
    try {
      if (strategy.contains("=")) {
        for (String pair : strategy.split(",")) {
          String[] kv = pair.split("=", 2);
          String role = kv[0].trim();
          List<String> roles = Scenarios.roles(scenario);
          if (kv.length != 2 || !roles.contains(role)) {
            throw new IllegalArgumentException("'" + pair + "' is not role=strategy with a role of "
                + scenario + " (" + String.join(", ", roles) + ")");
          }
          roleStrategies.put(role, Strategy.parse(kv[1]));
        }
      } else {
        parsedStrategy = Strategy.parse(strategy);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--strategy: " + e.getMessage());
    }
    ToolChoice choice = checkedToolChoice(toolChoice);
    String m = resolvedModel();
    List<String> selected = selectedTools;
    if (selected != null && selected.size() == 1 && selected.get(0).equals("-")) {
      selected = List.of();
    }
    EpsteinParameters epstein = null;
    NegotiationParameters negotiation = null;
    try {
      if (NegotiationScenario.NAME.equals(scenario)) {
        rejectOptionsOfOtherScenario("epstein", citizens, "--citizens", cops, "--cops",
            legitimacy, "--legitimacy", maxJailTerm, "--max-jail-term");
        negotiation = new NegotiationParameters(
            width == null ? N.width() : width,
            height == null ? N.height() : height,
            sellers == null ? N.sellers() : sellers,
            buyers == null ? N.buyers() : buyers,
            vision == null ? N.vision() : vision,
            N.lowBudget(),
            N.highBudget());
      } else {
        rejectOptionsOfOtherScenario("negotiation", sellers, "--sellers", buyers, "--buyers");
        epstein = new EpsteinParameters(
            width == null ? D.width() : width,
            height == null ? D.height() : height,
            citizens == null ? D.citizens() : citizens,
            cops == null ? D.cops() : cops,
            vision == null ? D.vision() : vision,
            legitimacy == null ? D.legitimacy() : legitimacy,
            D.activeThreshold(),
            D.arrestProbabilityConstant(),
            maxJailTerm == null ? D.maxJailTerm() : maxJailTerm);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    AgentOptions agentOptions = StrategyOptions.build(strategyOptions.applyTo(AgentOptions.newBuilder()
        .setStrategy(parsedStrategy)
        .setModel(m)
        .setToolChoice(choice)
        .setSelectedTools(selected)
        .setTtl(ttl)));
    Map<String, AgentOptions> roleOptions = new LinkedHashMap<>();
    roleStrategies.forEach((role, s) -> roleOptions.put(role, agentOptions.toBuilder().setStrategy(s).build()));
    MemoryKind memoryKind;
    try {
      memoryKind = MemoryKind.parse(memory);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--memory: " + e.getMessage());
    }
    if (memoryCapacity != null && memoryCapacity < 1) {
      throw new IllegalArgumentException("--memory-capacity must be >= 1, was " + memoryCapacity);
    }
    if (continueAsNewEvery != null && continueAsNewEvery < 1) {
      throw new IllegalArgumentException("--continue-as-new-every must be >= 1, was " + continueAsNewEvery);
    }
    if (agentsPerWorkflow != null && agentsPerWorkflow < 1) {
      throw new IllegalArgumentException("--agents-per-workflow must be >= 1, was " + agentsPerWorkflow);
    }
    SimulationInput input = new SimulationInput(scenario, steps, seed, epstein, agentOptions, roleOptions,
        maxConcurrentAgents, false, continueAsNewEvery,
        new MemoryOptions(memoryKind, memoryCapacity, null), null, null, negotiation, agentsPerWorkflow);
    input.validate();
    return input;
  }

  /**
   * Fails when an option of another scenario is set: pairs of a value and its option's name.
   *
   * @throws IllegalArgumentException naming the option and the scenario it belongs to
   */
  private void rejectOptionsOfOtherScenario(String other, Object... valuesAndNames) {
    for (int i = 0; i < valuesAndNames.length; i += 2) {
      if (valuesAndNames[i] != null) {
        throw new IllegalArgumentException(valuesAndNames[i + 1] + " is an option of the " + other
            + " scenario, not of " + scenario);
      }
    }
  }
}
