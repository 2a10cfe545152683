package io.durableagents.starter.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.api.InvalidParameterException;
import io.durableagents.api.Json;
import io.durableagents.api.Scenario;
import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.starter.StartChecks;
import io.durableagents.starter.run.SimulationOptions;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.experiment.ExperimentInput;
import io.durableagents.workflows.experiment.ExperimentRun;
import io.durableagents.workflows.scenario.ScenarioParameters;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationWorkflowImpl;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runs a {@code sweep} makes, checked before anything starts: the base simulation (the options
 * {@code simulate} has, with the single-valued {@code --param}s), and one run per point of the grid
 * ({@code --param}s with several values, {@code --strategies}, {@code --models}, crossed in that order)
 * and seed, each with its estimate of LLM calls and tokens. A what-if plan ({@code --from}) forks one
 * recorded state, its grid values becoming each run's intervention.
 *
 * @param base the simulation every run starts from
 * @param runs the runs, in the order they start
 * @param estimates the estimate of each run, in the same order
 * @param dimensions the grid's dimensions, in order (parameter names, {@code strategy}, {@code model})
 * @param stepsRun the steps each run runs (a what-if's: after its fork point)
 */
public record SweepPlan(SimulationInput base, List<ExperimentRun> runs, List<CallEstimate> estimates,
    List<String> dimensions, int stepsRun) {

  /** The grid as the command line gave it. */
  public record Grid(Map<String, String> params, String seeds, List<String> strategies, List<String> models) {}

  /** The most LLM calls one run is expected to make (0 without runs). */
  public long callsPerRun() {
    return estimates.stream().mapToLong(CallEstimate::calls).max().orElse(0);
  }

  /** The most tokens one run is expected to use. */
  public long tokensPerRun() {
    return estimates.stream().mapToLong(CallEstimate::tokens).max().orElse(0);
  }

  /** The LLM calls of all runs together, as estimated. */
  public long calls() {
    return estimates.stream().mapToLong(CallEstimate::calls).sum();
  }

  /** The tokens of all runs together, as estimated. */
  public long tokens() {
    return estimates.stream().mapToLong(CallEstimate::tokens).sum();
  }

  /**
   * The plan of new simulations: {@code options} (its --param values taken as the grid's) and {@code
   * grid}.
   *
   * @throws CommandFailure (usage) in one line naming the option, the value and what is allowed
   */
  public static SweepPlan of(SimulationOptions options, Grid grid, LocalCatalog catalog) {
    Scenario<?> scenario = scenario(options.scenario, catalog);
    Map<String, List<String>> paramDims = new LinkedHashMap<>();
    Map<String, String> fixed = new LinkedHashMap<>();
    split(scenario, grid.params(), paramDims, fixed);
    options.params = new LinkedHashMap<>(fixed);
    SimulationInput base = toInput(options);
    Map<String, List<String>> dims = new LinkedHashMap<>(paramDims);
    if (!grid.strategies().isEmpty()) {
      dims.put("strategy", distinct(grid.strategies()));
    }
    if (!grid.models().isEmpty()) {
      dims.put("model", distinct(grid.models()));
    }
    List<Long> seeds = grid.seeds() == null ? List.of(options.seed) : seeds(grid.seeds(), options.seed);
    long count = count(dims) * seeds.size();
    checkCount(count);
    Map<String, SimulationInput> agentsOf = new HashMap<>();
    String strategy = options.strategy();
    String model = options.model();
    List<ExperimentRun> runs = new ArrayList<>();
    List<CallEstimate> estimates = new ArrayList<>();
    int index = 1;
    for (Map<String, String> point : SweepGrid.cross(dims)) {
      Map<String, String> params = new LinkedHashMap<>(point);
      params.remove("strategy");
      params.remove("model");
      ObjectNode parameters = params.isEmpty() ? null : checkedPoint(scenario, base, params);
      AgentOptions agentOptions = null;
      Map<String, AgentOptions> roleOptions = null;
      if (point.containsKey("strategy") || point.containsKey("model")) {
        String s = point.getOrDefault("strategy", strategy);
        String m = point.getOrDefault("model", model);
        SimulationInput shaped = agentsOf.computeIfAbsent(s + "\u0000" + m, k -> {
          options.setStrategy(s);
          options.setModel(m);
          return toInput(options);
        });
        agentOptions = shaped.agentOptions();
        roleOptions = shaped.roleOptions();
      }
      ExperimentRun first = new ExperimentRun(index, point, seeds.get(0), parameters, null, agentOptions,
          roleOptions);
      SimulationInput input = first.inputFrom(base, null);
      StartChecks.simulation(input, catalog);
      CallEstimate estimate = CallEstimate.of(input, base.steps(), catalog);
      for (long seed : seeds) {
        runs.add(new ExperimentRun(index++, point, seed, parameters, null, agentOptions, roleOptions));
        estimates.add(estimate);
      }
    }
    options.setStrategy(strategy);
    options.setModel(model);
    return new SweepPlan(base, runs, estimates, List.copyOf(dims.keySet()), base.steps());
  }

  /**
   * The plan of what-ifs: every run goes on from {@code from} (its input already carries the options the
   * command line may change, see {@code Branch}), with its grid values as an intervention from the next
   * step; only the scenario's adjustable parameters may be given. Without {@code --seeds} every run keeps
   * the recorded random state.
   *
   * @throws CommandFailure (usage) in one line naming the option, the value and what is allowed
   */
  public static SweepPlan whatIfs(Checkpoint from, SimulationInput base, Grid grid, LocalCatalog catalog) {
    if (!grid.strategies().isEmpty() || !grid.models().isEmpty()) {
      throw CommandFailure.usage("--" + (grid.strategies().isEmpty() ? "models" : "strategies")
          + " cannot be crossed into what-ifs (--from): they fork one recorded run",
          "Give --strategy or --model to change every what-if's, or sweep new simulations without --from.");
    }
    Scenario<?> scenario = scenario(base.scenario(), catalog);
    Map<String, List<String>> dims = new LinkedHashMap<>();
    Map<String, String> fixed = new LinkedHashMap<>();
    // at step 0 no world is made yet: the values are the runs' parameters, any of them (as fork does)
    boolean fresh = base.state() == null;
    if (fresh) {
      split(scenario, grid.params(), dims, fixed);
    } else {
      for (Map.Entry<String, String> p : grid.params().entrySet()) {
        List<String> values = values(p.getKey(), p.getValue());
        String name = canonical(scenario, p.getKey(), values.get(0));
        for (String v : values) {
          intervention(scenario, from, Map.of(name, v));
        }
        if (values.size() > 1) {
          dims.put(name, values);
        } else {
          fixed.put(name, values.get(0));
        }
      }
    }
    List<Long> seeds = new ArrayList<>();
    if (grid.seeds() == null) {
      seeds.add(null);
    } else {
      seeds.addAll(seeds(grid.seeds(), base.seed()));
    }
    checkCount(count(dims) * seeds.size());
    int stepsRun = base.steps() - from.step();
    CallEstimate estimate = CallEstimate.of(base, stepsRun, catalog);
    List<ExperimentRun> runs = new ArrayList<>();
    List<CallEstimate> estimates = new ArrayList<>();
    int index = 1;
    for (Map<String, String> point : SweepGrid.cross(dims)) {
      Map<String, String> all = new LinkedHashMap<>(fixed);
      all.putAll(point);
      JsonNode intervention = all.isEmpty() || fresh ? null : intervention(scenario, from, all);
      ObjectNode parameters = all.isEmpty() || !fresh ? null : checkedPoint(scenario, base, all);
      for (Long seed : seeds) {
        runs.add(new ExperimentRun(index++, point, seed, parameters, intervention, null, null));
        estimates.add(estimate);
      }
    }
    return new SweepPlan(base, runs, estimates, List.copyOf(dims.keySet()), stepsRun);
  }

  /** The experiment's input: this plan with the command's settings. */
  public ExperimentInput input(String name, Integer maxConcurrentRuns,
      io.durableagents.workflows.experiment.ExperimentBudget budget,
      io.durableagents.workflows.experiment.RunFailurePolicy policy, Integer retries, String whatIfOf,
      Integer whatIfStep) {
    return new ExperimentInput(name, base, runs, maxConcurrentRuns, budget, policy, retries, callsPerRun(),
        tokensPerRun(), whatIfOf, whatIfStep, agentsPerRun());
  }

  /**
   * The agents of the largest run's world, for the workflow task timeout every run gets as {@code simulate}
   * gives one (null when the worlds cannot be made here).
   */
  Integer agentsPerRun() {
    int most = 0;
    try {
      for (ExperimentRun run : runs) {
        most = Math.max(most, io.durableagents.starter.StartChecks.agentCount(run.inputFrom(base, null),
            io.durableagents.starter.LocalCatalog.get()));
      }
    } catch (RuntimeException e) {
      return null;
    }
    return most == 0 ? null : most;
  }

  private static Scenario<?> scenario(String name, LocalCatalog catalog) {
    try {
      return catalog.scenarios().get(name);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage("--scenario: " + e.getMessage(),
          "A scenario of your own is found when its jar, with a DurableAgentsExtension, is on the classpath.");
    }
  }

  /** Single-valued --params go to {@code fixed}, the others to {@code dims}, by the scenario's names. */
  private static void split(Scenario<?> scenario, Map<String, String> given, Map<String, List<String>> dims,
      Map<String, String> fixed) {
    for (Map.Entry<String, String> p : given.entrySet()) {
      List<String> values = values(p.getKey(), p.getValue());
      String name = canonical(scenario, p.getKey(), values.get(0));
      for (String v : values) {
        checkValue(scenario, name, v);
      }
      if (values.size() > 1) {
        dims.put(name, values);
      } else {
        fixed.put(name, values.get(0));
      }
    }
  }

  private static List<String> values(String name, String text) {
    try {
      return SweepGrid.values("--param " + name, text);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage(e.getMessage(), "Give --param NAME=V1,V2,... or NAME=start:stop:step.");
    }
  }

  /** The scenario's own name of parameter {@code given} ({@code max-jail-term} is {@code max_jail_term}). */
  private static String canonical(Scenario<?> scenario, String given, String value) {
    ObjectNode json = fromText(scenario, Map.of(given, value));
    return json.fieldNames().next();
  }

  private static void checkValue(Scenario<?> scenario, String name, String value) {
    fromText(scenario, Map.of(name, value));
  }

  private static ObjectNode fromText(Scenario<?> scenario, Map<String, String> values) {
    try {
      return ScenarioParameters.fromText(scenario, values);
    } catch (InvalidParameterException e) {
      throw CommandFailure.usage("--param: " + e.getMessage(),
          "'help simulate --scenario " + scenario.name() + "' lists the parameters.");
    }
  }

  /** A point's parameters, checked over the base's together (a scenario's check may refuse a mix). */
  private static ObjectNode checkedPoint(Scenario<?> scenario, SimulationInput base, Map<String, String> params) {
    ObjectNode given = fromText(scenario, params);
    ObjectNode merged = base.parameters() != null && base.parameters().isObject()
        ? ((ObjectNode) base.parameters()).deepCopy() : Json.MAPPER.createObjectNode();
    merged.setAll(given);
    try {
      ScenarioParameters.read(scenario, merged);
    } catch (InvalidParameterException e) {
      throw CommandFailure.usage("--param " + params + ": " + e.getMessage(),
          "'help simulate --scenario " + scenario.name() + "' lists the parameters.");
    }
    return given;
  }

  private static JsonNode intervention(Scenario<?> scenario, Checkpoint from, Map<String, String> values) {
    try {
      return SimulationWorkflowImpl.checkedParameters(scenario, values);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage("--param: " + e.getMessage(), "A what-if after step " + from.step()
          + " changes only these; sweep new simulations (without --from) to vary any parameter.");
    }
  }

  private static SimulationInput toInput(SimulationOptions options) {
    try {
      return options.toInput();
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage(e.getMessage(), "'help sweep' lists the options.");
    }
  }

  private static List<Long> seeds(String text, long first) {
    try {
      return SweepGrid.seeds(text, first);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage(e.getMessage(), "Give --seeds 5 (5 seeds from --seed), 1,5,9 or 1:10.");
    }
  }

  /** At most {@link ExperimentInput#MAX_RUNS} runs, and at least one. */
  private static void checkCount(long count) {
    if (count > ExperimentInput.MAX_RUNS) {
      throw CommandFailure.usage("the grid makes " + count + " runs, more than the " + ExperimentInput.MAX_RUNS
          + " one experiment holds", "Split it into several experiments (fewer values or seeds in each).");
    }
  }

  private static List<String> distinct(List<String> values) {
    return List.copyOf(new java.util.LinkedHashSet<>(values));
  }

  private static long count(Map<String, List<String>> dims) {
    long n = 1;
    for (List<String> values : dims.values()) {
      n *= values.size();
      if (n > Integer.MAX_VALUE) {
        return n;
      }
    }
    return n;
  }
}
