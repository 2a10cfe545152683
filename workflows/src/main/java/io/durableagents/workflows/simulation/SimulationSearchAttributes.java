package io.durableagents.workflows.simulation;

import io.durableagents.api.ScenarioWorld;
import io.durableagents.workflows.SearchAttributes;
import io.temporal.workflow.Workflow;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The search attributes a simulation's run sets for itself: {@code Scenario} and {@code Strategy}. */
final class SimulationSearchAttributes {
  /**
   * The change that sets {@code Scenario} and {@code Strategy} in every run, not only in a new simulation's
   * first (a fork, a run from a checkpoint and a continued run start with a state), and makes {@code Strategy}
   * say what the agents run ({@link #strategyAttribute}) rather than the default strategy.
   */
  static final String EVERY_RUN_SEARCH_ATTRIBUTES = "every-run-search-attributes";

  private SimulationSearchAttributes() {}

  /**
   * Sets the run's {@code Scenario} and {@code Strategy} search attributes; {@code fresh}: a new simulation,
   * the only run that set them before {@link #EVERY_RUN_SEARCH_ATTRIBUTES}.
   */
  static void set(SimulationInput input, ScenarioWorld world, boolean fresh) {
    if (Workflow.getVersion(EVERY_RUN_SEARCH_ATTRIBUTES, Workflow.DEFAULT_VERSION, 1) < 1) {
      if (fresh) {
        Workflow.upsertTypedSearchAttributes(
            SearchAttributes.SCENARIO.valueSet(input.scenario()),
            SearchAttributes.STRATEGY.valueSet(SimulationWorkflowImpl.strategyName(input.agentOptions())));
      }
      return;
    }
    Workflow.upsertTypedSearchAttributes(
        SearchAttributes.SCENARIO.valueSet(input.scenario()),
        SearchAttributes.STRATEGY.valueSet(strategyAttribute(input, world)));
  }

  /**
   * The {@code Strategy} search attribute of a run: the strategy all its agents run ({@code cot}), or, when
   * its roles run different ones, each role's, by role ({@code citizen=rewoo,cop=react}). A role without
   * options of its own runs the default strategy, and is named with it.
   */
  static String strategyAttribute(SimulationInput input, ScenarioWorld world) {
    TreeMap<String, String> byRole = new TreeMap<>();
    for (String id : world.agentIds()) {
      byRole.computeIfAbsent(world.roleOf(id), role -> SimulationWorkflowImpl.strategyName(input.optionsFor(role)));
    }
    Set<String> distinct = new TreeSet<>(byRole.values());
    if (distinct.size() <= 1) {
      return distinct.isEmpty() ? SimulationWorkflowImpl.strategyName(input.agentOptions())
          : distinct.iterator().next();
    }
    StringBuilder sb = new StringBuilder();
    byRole.forEach((role, strategy) -> sb.append(sb.length() == 0 ? "" : ",").append(role).append('=')
        .append(strategy));
    return sb.toString();
  }
}
