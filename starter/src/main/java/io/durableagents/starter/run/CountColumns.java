package io.durableagents.starter.run;

import io.durableagents.api.Scenario;
import io.durableagents.api.SeededRandom;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.workflows.scenario.ScenarioParameters;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.StepCounts;
import io.temporal.client.WorkflowClient;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one order of a run's per-step variables ({@code active, quiet, jailed}) in everything that shows
 * them: the step table of {@code --progress lines}, the CSV, the chart, the final counts and {@code
 * describe}. It is the order the scenario declares them in: the counts of the world its parameters make,
 * as this command line's own copy of the scenario makes it; variables it does not declare (or every one,
 * for a scenario this command line does not have) follow in the order they first appear.
 *
 * <p>A step's map is never trusted for the order: a world whose {@code counts()} is a hash map (or
 * {@code Map.of}) iterates in another order in every worker JVM, so a run that survived a worker's
 * restart had steps in two orders.
 *
 * <pre>{@code
 * CountColumns columns = CountColumns.declared(input);
 * columns.add(step.counts());
 * columns.ordered(step.counts()); // {active=3, quiet=12, jailed=1}
 * }</pre>
 */
public final class CountColumns {
  private final List<String> names = new ArrayList<>();

  private CountColumns(Collection<String> declared) {
    names.addAll(declared);
  }

  /** No declared order: the order the variables first appear in. */
  public static CountColumns none() {
    return new CountColumns(List.of());
  }

  /** The order {@code input}'s scenario declares (none for a scenario this command line does not have). */
  public static CountColumns declared(SimulationInput input) {
    if (input == null) {
      return none();
    }
    try {
      Scenario<?> scenario = LocalCatalog.get().scenarios().get(input.scenario());
      return new CountColumns(countsOf(scenario, input).keySet());
    } catch (RuntimeException e) {
      return none(); // another version's input, or a scenario only the workers have
    }
  }

  /** The order the scenario of the run {@code workflowId} declares, read from its latest run's input. */
  static CountColumns forRun(WorkflowClient client, String workflowId) {
    try {
      List<SimulationRuns.Run> runs = SimulationRuns.of(client.getWorkflowServiceStubs(),
          client.getOptions().getNamespace(), workflowId, 1);
      SimulationInput input = client.getOptions().getDataConverter().fromPayloads(0,
          java.util.Optional.of(runs.get(runs.size() - 1).input()), SimulationInput.class, SimulationInput.class);
      return declared(input);
    } catch (RuntimeException e) {
      return none();
    }
  }

  /** As {@link #forRun} with {@code steps} added, for a finished run's result. */
  public static CountColumns of(CountColumns declared, List<StepCounts> steps) {
    for (StepCounts s : steps) {
      declared.add(s.counts());
    }
    return declared;
  }

  private static <P extends Record> Map<String, Number> countsOf(Scenario<P> scenario, SimulationInput input) {
    return scenario.create(ScenarioParameters.read(scenario, input.parameters()), new SeededRandom(input.seed()))
        .counts();
  }

  /** Adds the variables of {@code counts} not yet known, at the end; returns whether any was new. */
  public boolean add(Map<String, Number> counts) {
    boolean added = false;
    for (String key : counts.keySet()) {
      if (!names.contains(key)) {
        names.add(key);
        added = true;
      }
    }
    return added;
  }

  /** The variables, in order. */
  public List<String> names() {
    return List.copyOf(names);
  }

  /**
   * {@code counts} in this order (added first), e.g. {@code {active=3, quiet=12, jailed=1}}; a declared
   * variable that {@code counts} lacks is left out.
   */
  public Map<String, Number> ordered(Map<String, Number> counts) {
    add(counts);
    Map<String, Number> ordered = new LinkedHashMap<>();
    for (String name : names) {
      if (counts.containsKey(name)) {
        ordered.put(name, counts.get(name));
      }
    }
    return ordered;
  }
}
