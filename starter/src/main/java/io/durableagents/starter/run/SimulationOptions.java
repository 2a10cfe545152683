package io.durableagents.starter.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.api.InvalidParameterException;
import io.durableagents.api.Scenario;
import io.durableagents.starter.Environment;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.workflows.agent.AgentFailureMode;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.memory.MemoryKind;
import io.durableagents.workflows.memory.MemoryOptions;
import io.durableagents.workflows.scenario.ScenarioParameters;
import io.durableagents.workflows.simulation.SimulationInput;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options that describe a simulation, shared by {@code simulate} and {@code demo}. */
public final class SimulationOptions {
  /** The model used when neither --model nor DURABLE_AGENTS_MODEL says otherwise. */
  public static final String MODEL_VARIABLE = "DURABLE_AGENTS_MODEL";

  @Option(names = "--scenario", defaultValue = "epstein",
      description = "Scenario: a registered scenario's name, built in (epstein, negotiation) or from an "
          + "extension on the classpath; 'help simulate --scenario <name>' lists its parameters "
          + "(default: ${DEFAULT-VALUE}).")
  public String scenario;

  @Option(names = "--param", paramLabel = "NAME=VALUE",
      description = "A parameter of the scenario, e.g. --param legitimacy=0.6 --param max_jail_term=20 "
          + "(repeatable); unset parameters take the scenario's defaults. 'help simulate --scenario <name>' "
          + "lists them.")
  public Map<String, String> params = new LinkedHashMap<>();

  @Option(names = "--steps", defaultValue = "20", description = "Steps to run (default: ${DEFAULT-VALUE}).")
  public int steps;

  @Option(names = "--seed", defaultValue = "42", description = "Random seed; the same seed gives the same run (default: ${DEFAULT-VALUE}).")
  public long seed;

  @Option(names = "--citizens", description = "The same as --param citizens=VALUE.")
  Integer citizens;

  @Option(names = "--cops", description = "The same as --param cops=VALUE.")
  Integer cops;

  @Option(names = "--sellers", description = "The same as --param sellers=VALUE.")
  Integer sellers;

  @Option(names = "--buyers", description = "The same as --param buyers=VALUE.")
  Integer buyers;

  @Option(names = "--width", description = "The same as --param width=VALUE.")
  Integer width;

  @Option(names = "--height", description = "The same as --param height=VALUE.")
  Integer height;

  @Option(names = "--vision", description = "The same as --param vision=VALUE.")
  Integer vision;

  @Option(names = "--legitimacy", description = "The same as --param legitimacy=VALUE.")
  Double legitimacy;

  @Option(names = "--max-jail-term", description = "The same as --param max_jail_term=VALUE.")
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
      description = "Model for every agent, or per role as role=model pairs, e.g. "
          + "citizen=openai:gpt-4o-mini,cop=rules (roles not named use $" + MODEL_VARIABLE + ", else rules): "
          + "rules (offline rule-based policy), openai:<model>, anthropic:<model>, ollama:<model>, or a model "
          + "registered by name (default: $" + MODEL_VARIABLE + ", else rules).")
  String model;

  @Option(names = "--max-output-tokens", paramLabel = "N|ROLE=N,...",
      description = "Most tokens an agent's LLM answer may have, for every agent, or per role as role=number "
          + "pairs, e.g. citizen=300,cop=200; an answer cut there is a cut answer (0: send no maximum). "
          + "Default: the worker's DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS for the model, else the default of "
          + "the kind of call (a ReWOO plan 640, a ReAct turn 384 ...).")
  String maxOutputTokens;

  @Option(names = "--tool-choice", defaultValue = "auto",
      description = "Tool choice of the execution pass: auto, required, none, default (default: ${DEFAULT-VALUE}).")
  String toolChoice;

  @Option(names = "--selected-tools", split = ",",
      description = "Only these tools (comma separated); '-' for none. Default: all of each role's tools.")
  List<String> selectedTools;

  @Option(names = "--max-concurrent-agents",
      description = "Agent steps running at once (default: " + SimulationInput.DEFAULT_MAX_CONCURRENT_AGENTS + ").")
  public Integer maxConcurrentAgents;

  @Option(names = "--agents-per-workflow", paramLabel = "N",
      description = "Agents whose steps share one workflow per simulation step (default: 1, a workflow "
          + "per agent step, <sim>/agent-<id>/step-<n>). More, such as 25, runs <sim>/step-<n>/group-<g> "
          + "workflows of N agents of one role: several times the agent steps per second for large "
          + "simulations; every LLM and tool call is still its own activity.")
  public Integer agentsPerWorkflow;

  @Option(names = "--id", description = "Workflow id (default: sim-<scenario>-<seed>-<random>). The id of a "
      + "finished run is refused: its history would be replaced (see --replace-finished).")
  public String id;

  @Option(names = "--replace-finished",
      description = "Start the run even if a finished run has its --id: the new run takes the id's place for "
          + "every command (describe, attach, fork read an id's latest run), the finished one stays on the "
          + "server only as an earlier run of the id until the namespace's retention ends.")
  public boolean replaceFinished;

  @Option(names = "--continue-as-new-every", paramLabel = "STEPS",
      description = "Continue the workflow as new after this many steps in one run (earlier when Temporal "
          + "suggests it), carrying the whole state (default: " + SimulationInput.DEFAULT_CONTINUE_AS_NEW_EVERY + ").")
  public Integer continueAsNewEvery;

  @Option(names = "--checkpoint-every", paramLabel = "STEPS",
      description = "Write a checkpoint (the whole state, a file in the worker's checkpoint directory) "
          + "after every this many steps; 'simulate --from-checkpoint FILE' starts a run from one "
          + "(default: none; 'checkpoint <id>' writes one on demand).")
  public Integer checkpointEvery;

  @Option(names = "--memory", defaultValue = "none", paramLabel = "KIND",
      description = "Agent memory: none, short-term, long-term or episodic (default: ${DEFAULT-VALUE}).")
  String memory;

  @Option(names = "--memory-capacity", paramLabel = "N",
      description = "Entries of memory kept per agent (default: " + MemoryOptions.DEFAULT_CAPACITY + ").")
  Integer memoryCapacity;

  @Option(names = "--on-agent-failure", defaultValue = "skip", paramLabel = "skip|stop",
      description = "An agent step that fails for good (a rejected plan, an LLM call past its retries):"
          + " skip records it as failed and the run goes on, stop ends the run (default: ${DEFAULT-VALUE}).")
  String onAgentFailure;

  /** {@code --on-agent-failure}, checked; null (the default, skip) when unset. */
  static AgentFailureMode checkedOnAgentFailure(String value) {
    try {
      return value == null ? null : AgentFailureMode.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--on-agent-failure: " + e.getMessage());
    }
  }

  /** {@code --strategy} as given (default {@code cot}). */
  public String strategy() {
    return strategy;
  }

  /** Sets {@code --strategy}, in its syntax ({@code cot}, {@code citizen=rewoo,cop=react}). */
  public void setStrategy(String strategy) {
    this.strategy = strategy;
  }

  /** {@code --model} as given (null: not given). */
  public String model() {
    return model;
  }

  /** Sets {@code --model}, in its syntax ({@code rules}, {@code citizen=openai:gpt-4o-mini,cop=rules}). */
  public void setModel(String model) {
    this.model = model;
  }

  /** The model of roles the --model option does not name: the environment's, else {@code rules}. */
  String resolvedModel() {
    return model != null && !model.contains("=") ? checkedModel(model) : checkedModel(null);
  }

  /**
   * The model to use, checked: {@code option} when set, else {@code $DURABLE_AGENTS_MODEL}, else
   * {@code rules}.
   *
   * @throws IllegalArgumentException naming --model and the allowed forms
   */
  public static String checkedModel(String option) {
    return checkedModel(option, LocalCatalog.get().models());
  }

  /** As {@link #checkedModel(String)}, with {@code registered} as the models known by name. */
  static String checkedModel(String option, Set<String> registered) {
    String m = option;
    if (m == null || m.isBlank()) {
      String env = Environment.get(MODEL_VARIABLE);
      m = env == null || env.isBlank() ? AgentOptions.DEFAULT_MODEL : env.trim();
    }
    String base = m.replaceFirst("\\+\\d{1,7}ms$", "");
    if (!registered.contains(base) && !base.matches("(openai|anthropic|ollama):.+")) {
      throw new IllegalArgumentException("--model '" + m + "' is not one of: "
          + String.join(", ", registered) + ", openai:<model>, anthropic:<model>, ollama:<model>"
          + " (any of them + <n>ms adds n ms of latency per call, e.g. rules+100ms)");
    }
    return m;
  }

  /**
   * A maximum output length in tokens, checked: a whole number, 0 (send none) or more.
   *
   * @throws IllegalArgumentException naming --max-output-tokens and what is allowed
   */
  public static int checkedMaxOutputTokens(String value) {
    int n;
    try {
      n = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--max-output-tokens: '" + value.trim()
          + "' is not a whole number of tokens (0: send no maximum)");
    }
    if (n < 0) {
      throw new IllegalArgumentException("--max-output-tokens must be >= 0 (0: send no maximum), was " + n);
    }
    return n;
  }

  /**
   * Parses --tool-choice.
   *
   * @throws IllegalArgumentException naming --tool-choice and the allowed values
   */
  public static ToolChoice checkedToolChoice(String option) {
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
  public SimulationInput toInput() {
    return toInput(LocalCatalog.get());
  }

  /**
   * The workflow input, checked against the scenarios and models of {@code catalog}: the scenario's
   * parameters are its defaults with --param values (and their alias options) over them, all written
   * into the input so that its history shows every value the run used.
   *
   * @throws IllegalArgumentException naming the bad option and the allowed values
   */
  SimulationInput toInput(LocalCatalog catalog) {
    Scenario<?> chosen;
    try {
      chosen = catalog.scenarios().get(scenario);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--scenario: " + e.getMessage()
          + " (a scenario of your own is found when its jar, with a DurableAgentsExtension, is on the classpath)");
    }
    List<String> roles = chosen.roles();
    Strategy parsedStrategy = Strategy.COT;
    Map<String, Strategy> roleStrategies = new LinkedHashMap<>();
    try {
      if (strategy.contains("=")) {
        for (Map.Entry<String, String> e : rolePairs(strategy, roles).entrySet()) {
          roleStrategies.put(e.getKey(), Strategy.parse(e.getValue()));
        }
      } else {
        parsedStrategy = Strategy.parse(strategy);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--strategy: " + e.getMessage());
    }
    String defaultModel = checkedModel(null, catalog.models());
    Map<String, String> roleModels = new LinkedHashMap<>();
    if (model != null && model.contains("=")) {
      try {
        roleModels.putAll(rolePairs(model, roles));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--model: " + e.getMessage());
      }
      roleModels.replaceAll((role, m) -> checkedModel(m, catalog.models()));
    } else if (model != null) {
      defaultModel = checkedModel(model, catalog.models());
    }
    Integer everyMaxOutputTokens = null;
    Map<String, Integer> roleMaxOutputTokens = new LinkedHashMap<>();
    if (maxOutputTokens != null && maxOutputTokens.contains("=")) {
      Map<String, String> pairs;
      try {
        pairs = rolePairs(maxOutputTokens, roles);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--max-output-tokens: " + e.getMessage());
      }
      pairs.forEach((role, n) -> roleMaxOutputTokens.put(role, checkedMaxOutputTokens(n)));
    } else if (maxOutputTokens != null) {
      everyMaxOutputTokens = checkedMaxOutputTokens(maxOutputTokens);
    }
    ToolChoice choice = checkedToolChoice(toolChoice);
    List<String> selected = selectedTools;
    if (selected != null && selected.size() == 1 && selected.get(0).equals("-")) {
      selected = List.of();
    }
    ObjectNode parameters = parameters(chosen);
    AgentOptions agentOptions = StrategyOptions.build(strategyOptions.applyTo(AgentOptions.newBuilder()
        .setStrategy(parsedStrategy)
        .setModel(defaultModel)
        .setToolChoice(choice)
        .setSelectedTools(selected)
        .setTtl(ttl)
        .setMaxOutputTokens(everyMaxOutputTokens)
        .setOnAgentFailure(checkedOnAgentFailure(onAgentFailure))));
    Map<String, AgentOptions> roleOptions = new LinkedHashMap<>();
    Set<String> customised = new LinkedHashSet<>(roleStrategies.keySet());
    customised.addAll(roleModels.keySet());
    customised.addAll(roleMaxOutputTokens.keySet());
    for (String role : roles) {
      if (customised.contains(role)) {
        roleOptions.put(role, agentOptions.toBuilder()
            .setStrategy(roleStrategies.getOrDefault(role, parsedStrategy))
            .setModel(roleModels.getOrDefault(role, defaultModel))
            .setMaxOutputTokens(roleMaxOutputTokens.getOrDefault(role, everyMaxOutputTokens))
            .build());
      }
    }
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
    if (checkpointEvery != null && checkpointEvery < 1) {
      throw new IllegalArgumentException("--checkpoint-every must be >= 1, was " + checkpointEvery);
    }
    if (agentsPerWorkflow != null && agentsPerWorkflow < 1) {
      throw new IllegalArgumentException("--agents-per-workflow must be >= 1, was " + agentsPerWorkflow);
    }
    SimulationInput input = new SimulationInput(scenario, steps, seed, parameters, agentOptions,
        roleOptions, maxConcurrentAgents, false, continueAsNewEvery,
        new MemoryOptions(memoryKind, memoryCapacity, null), null, null, agentsPerWorkflow);
    if (checkpointEvery != null) {
      input = input.withCheckpointEvery(checkpointEvery);
    }
    input.validate();
    return input;
  }

  /**
   * The parameter values given, as text by parameter name: the alias options ({@code --legitimacy 0.6})
   * and then the {@code --param}s; and takes them out of these options, which then describe a simulation
   * with the scenario's defaults ({@code sweep} crosses the values itself).
   */
  public Map<String, String> takeParameters() {
    Map<String, String> values = new LinkedHashMap<>();
    aliases().forEach((name, value) -> {
      if (value != null) {
        values.put(name, value.toString());
      }
    });
    values.putAll(params);
    params = new LinkedHashMap<>();
    citizens = null;
    cops = null;
    sellers = null;
    buyers = null;
    width = null;
    height = null;
    vision = null;
    legitimacy = null;
    maxJailTerm = null;
    return values;
  }

  /** The parameter options ({@code --citizens} ...) by parameter name; null where not given. */
  public Map<String, Object> aliases() {
    Map<String, Object> aliases = new LinkedHashMap<>();
    aliases.put("citizens", citizens);
    aliases.put("cops", cops);
    aliases.put("sellers", sellers);
    aliases.put("buyers", buyers);
    aliases.put("width", width);
    aliases.put("height", height);
    aliases.put("vision", vision);
    aliases.put("legitimacy", legitimacy);
    aliases.put("max_jail_term", maxJailTerm);
    return aliases;
  }

  /**
   * The scenario's parameters: its defaults, with the --param values and the alias options over them,
   * checked as the workflow will check them.
   *
   * @throws IllegalArgumentException naming the option, the value and what is allowed
   */
  private ObjectNode parameters(Scenario<?> chosen) {
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, Object> aliases = aliases();
    List<String> names = new ArrayList<>();
    ScenarioParameters.specs(chosen).forEach(p -> names.add(p.name()));
    for (Map.Entry<String, Object> a : aliases.entrySet()) {
      if (a.getValue() == null) {
        continue;
      }
      if (!names.contains(a.getKey())) {
        throw new IllegalArgumentException("--" + a.getKey().replace('_', '-') + " is not a parameter of "
            + "scenario " + chosen.name() + "; its parameters: " + String.join(", ", names));
      }
      values.put(a.getKey(), String.valueOf(a.getValue()));
    }
    values.putAll(params);
    try {
      ObjectNode given = ScenarioParameters.fromText(chosen, values);
      return ScenarioParameters.toJson(ScenarioParameters.read(chosen, given));
    } catch (InvalidParameterException e) {
      throw new IllegalArgumentException("--param: " + e.getMessage()
          + " ('help simulate --scenario " + chosen.name() + "' lists the parameters)");
    }
  }

  /**
   * {@code role=value,role=value} pairs, each role one of {@code roles}.
   *
   * @throws IllegalArgumentException naming the pair and the roles
   */
  private Map<String, String> rolePairs(String text, List<String> roles) {
    Map<String, String> pairs = new LinkedHashMap<>();
    for (String pair : text.split(",")) {
      String[] kv = pair.split("=", 2);
      String role = kv[0].trim();
      if (kv.length != 2 || !roles.contains(role) || kv[1].isBlank()) {
        throw new IllegalArgumentException("'" + pair + "' is not role=value with a role of "
            + scenario + " (" + String.join(", ", roles) + ")");
      }
      pairs.put(role, kv[1].trim());
    }
    return pairs;
  }
}
