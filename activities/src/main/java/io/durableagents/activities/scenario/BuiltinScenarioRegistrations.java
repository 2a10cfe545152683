package io.durableagents.activities.scenario;

import io.durableagents.activities.rules.EpsteinRulePolicy;
import io.durableagents.activities.rules.NegotiationRulePolicy;
import io.durableagents.activities.tools.EpsteinActions;
import io.durableagents.activities.tools.NegotiationActions;
import io.durableagents.api.RulePolicy;
import io.durableagents.workflows.simulation.epstein.EpsteinScenario;
import io.durableagents.workflows.simulation.negotiation.NegotiationScenario;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scenarios that come with Durable Agents, registered as a user's own are: each scenario with
 * its actions' declaration and its rule policy. The plugin registers these first.
 */
public final class BuiltinScenarioRegistrations {
  private BuiltinScenarioRegistrations() {}

  /** Epstein's civil violence model and Mesa-LLM's negotiation example. */
  public static List<ScenarioRegistration> all() {
    return List.of(
        new ScenarioRegistration(new EpsteinScenario(), new EpsteinActions(), new EpsteinRulePolicy()),
        new ScenarioRegistration(
            new NegotiationScenario(), new NegotiationActions(), new NegotiationRulePolicy()));
  }

  /** The rule policies of {@code registrations}, by scenario name (those without one left out). */
  public static Map<String, RulePolicy> policies(List<ScenarioRegistration> registrations) {
    Map<String, RulePolicy> policies = new LinkedHashMap<>();
    for (ScenarioRegistration r : registrations) {
      if (r.rulePolicy() != null) {
        policies.put(r.scenario().name(), r.rulePolicy());
      }
    }
    return policies;
  }
}
