package io.durableagents.starter.branch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.api.Scenario;
import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.starter.run.SimulationOptions;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.Intervention;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationState;
import io.durableagents.workflows.simulation.SimulationWorkflowImpl;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * A run that goes on from a recorded state (a fork, or a checkpoint file): the state's own settings,
 * with the few that the command line gives over them. What made the world (its size, its agents, the
 * scenario) cannot change; parameters the scenario marks adjustable can, from the first step after the
 * state, as an intervention marked in the result.
 */
public final class Branch {
  /** The simulation options that may be given: the rest are the state's. */
  static final Set<String> CHANGEABLE = Set.of("--steps", "--seed", "--model", "--strategy", "--ttl", "--param",
      "--citizens", "--cops", "--sellers", "--buyers", "--width", "--height", "--vision", "--legitimacy",
      "--max-jail-term", "--id", "--checkpoint-every", "--continue-as-new-every",
      "--max-concurrent-agents", "--agents-per-workflow");

  /** Options of the command itself, not of the simulation. */
  private static final Set<String> OWN = Set.of("--at-step", "--from-checkpoint", "--no-wait", "--csv",
      "--chart", "--progress", "--verbose", "--note", "--replace-finished");

  private Branch() {}

  /**
   * The input that goes on from {@code from}, with the options given on the command line over it.
   *
   * @param what how the command names the state in messages ({@code "a fork"})
   * @throws CommandFailure (usage) for an option that cannot change, or a value that cannot be
   */
  public static SimulationInput input(String what, Checkpoint from, CommandSpec spec, SimulationOptions options) {
    return input(what, from, spec, options, Set.of());
  }

  /**
   * As {@link #input(String, Checkpoint, CommandSpec, SimulationOptions)} for a command with options of its
   * own, {@code ownOptions}, besides the simulation's ({@code sweep --from}: --seeds, --budget-calls ...).
   */
  public static SimulationInput input(String what, Checkpoint from, CommandSpec spec, SimulationOptions options,
      Set<String> ownOptions) {
    ParseResult parsed = spec.commandLine().getParseResult();
    Set<String> given = new LinkedHashSet<>();
    for (OptionSpec o : parsed.matchedOptions()) {
      given.add(o.longestName());
    }
    SimulationInput base = from.input();
    for (String name : given) {
      if (!CHANGEABLE.contains(name) && !OWN.contains(name) && !ownOptions.contains(name)) {
        throw CommandFailure.usage(name + " cannot change in " + what + ": it goes on with the world and settings "
            + "of '" + from.simulationId() + "' after step " + from.step(),
            "These can: " + String.join(", ", new java.util.TreeSet<>(CHANGEABLE)) + ".");
      }
    }
    SimulationInput input = base;
    if (given.contains("--steps")) {
      if (options.steps <= from.step()) {
        throw CommandFailure.usage("--steps " + options.steps + ": " + what + " starts after step " + from.step(),
            "Give more steps than that (the total, counting the steps before it).");
      }
      input = input.withSteps(options.steps);
    } else if (base.steps() <= from.step()) {
      throw CommandFailure.usage("'" + from.simulationId() + "' ended at step " + from.step()
          + ", where " + what + " would start", "Give --steps with the new total, e.g. --steps " + (from.step() + 10) + ".");
    }
    if (given.contains("--seed")) {
      input = input.withSeed(options.seed);
    }
    boolean strategy = given.contains("--strategy");
    boolean model = given.contains("--model");
    boolean ttl = given.contains("--ttl");
    if (strategy || model || ttl) {
      options.scenario = base.scenario();
      options.params = new LinkedHashMap<>();
      SimulationInput fresh;
      try {
        fresh = options.toInput();
      } catch (IllegalArgumentException e) {
        throw CommandFailure.usage(e.getMessage(), "'help fork' lists the options.");
      }
      Set<String> roles = new LinkedHashSet<>(base.roleOptions().keySet());
      roles.addAll(fresh.roleOptions().keySet());
      AgentOptions defaults = changed(base.agentOptions(), fresh.agentOptions(), strategy, model, ttl);
      Map<String, AgentOptions> byRole = new LinkedHashMap<>();
      for (String role : roles) {
        byRole.put(role, changed(base.roleOptions().getOrDefault(role, base.agentOptions()),
            fresh.roleOptions().getOrDefault(role, fresh.agentOptions()), strategy, model, ttl));
      }
      input = input.withAgentOptions(defaults).withRoleOptions(byRole);
    }
    if (options.checkpointEvery != null) {
      input = input.withCheckpointEvery(options.checkpointEvery);
    }
    if (options.continueAsNewEvery != null) {
      input = input.withContinueAsNewEvery(options.continueAsNewEvery);
    }
    if (options.maxConcurrentAgents != null) {
      input = input.withMaxConcurrentAgents(options.maxConcurrentAgents);
    }
    if (options.agentsPerWorkflow != null) {
      input = input.withAgentsPerWorkflow(options.agentsPerWorkflow);
    }
    Map<String, String> values = parameterValues(options);
    if (!values.isEmpty()) {
      input = withParameters(what, from, input, values);
    }
    try {
      input.validate();
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage(e.getMessage(), "'help fork' lists the options.");
    }
    return input;
  }

  private static AgentOptions changed(AgentOptions base, AgentOptions fresh, boolean strategy, boolean model,
      boolean ttl) {
    AgentOptions.Builder b = base.toBuilder();
    if (strategy) {
      b.setStrategy(fresh.strategy());
    }
    if (model) {
      b.setModel(fresh.model());
    }
    if (ttl) {
      b.setTtl(fresh.ttl());
    }
    return b.build();
  }

  /** --param values and the parameter aliases given (--legitimacy ...), by parameter name. */
  private static Map<String, String> parameterValues(SimulationOptions options) {
    Map<String, String> values = new LinkedHashMap<>();
    options.aliases().forEach((name, value) -> {
      if (value != null) {
        values.put(name, value.toString());
      }
    });
    values.putAll(options.params);
    return values;
  }

  /**
   * The input with new parameter values: at step 0 simply the run's parameters (no world is made yet);
   * after it, an intervention from the next step, as {@code intervene} schedules one.
   */
  private static SimulationInput withParameters(String what, Checkpoint from, SimulationInput input,
      Map<String, String> values) {
    Scenario<?> scenario = LocalCatalog.get().scenarios().get(input.scenario());
    SimulationState state = input.state();
    if (state == null) {
      ObjectNode merged = input.parameters() == null ? io.durableagents.api.Json.MAPPER.createObjectNode()
          : ((ObjectNode) input.parameters()).deepCopy();
      try {
        ObjectNode given = io.durableagents.workflows.scenario.ScenarioParameters.fromText(scenario, values);
        merged.setAll(given);
        io.durableagents.workflows.scenario.ScenarioParameters.read(scenario, merged);
      } catch (io.durableagents.api.InvalidParameterException e) {
        throw CommandFailure.usage("--param: " + e.getMessage(),
            "'help simulate --scenario " + scenario.name() + "' lists the parameters.");
      }
      return input.withParameters(merged);
    }
    JsonNode checked;
    try {
      checked = SimulationWorkflowImpl.checkedParameters(scenario, values);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage("--param: " + e.getMessage(),
          "In " + what + " after step " + from.step() + " only these can change; fork at step 0 to change any.");
    }
    List<Intervention> all = new ArrayList<>(state.interventions());
    all.add(new Intervention(all.size() + 1, from.step() + 1, checked, null, false,
        what + " of " + from.simulationId() + " after step " + from.step()));
    return input.withState(state.withInterventions(all));
  }
}
