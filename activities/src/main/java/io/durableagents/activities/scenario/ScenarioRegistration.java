package io.durableagents.activities.scenario;

import dev.langchain4j.agent.tool.Tool;
import io.durableagents.api.RulePolicy;
import io.durableagents.api.Scenario;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario as a worker registers it: the deterministic {@link Scenario} (world, parameters,
 * prompts), the object whose LangChain4j {@code @Tool} methods declare its world actions to models,
 * and optionally the rule policy the offline {@code rules} model plays.
 *
 * <p>The {@code @Tool} methods only declare the actions (their names and JSON schemas, from {@code
 * @Tool} and {@code @P}); the world applies them ({@code ScenarioWorld.apply}). Name each parameter
 * with {@code @P(name = ...)} or compile with {@code -parameters}, or registration fails naming the
 * method.
 *
 * @param scenario the scenario
 * @param actions the declaration of its world actions: an object with {@code @Tool} methods
 * @param rulePolicy its rule-based policy for the {@code rules} model, or null for none (the rules
 *     model then says in the run's result that it has no policy for the scenario)
 */
public record ScenarioRegistration(Scenario<?> scenario, Object actions, RulePolicy rulePolicy) {
  /**
   * Checks the registration: the scenario itself ({@link ScenarioRegistry#check}), and an actions
   * object with at least one {@code @Tool} method.
   *
   * @throws IllegalArgumentException naming the scenario and the problem
   */
  public ScenarioRegistration {
    if (scenario == null) {
      throw new IllegalArgumentException("registerScenario: the scenario is null");
    }
    ScenarioRegistry.check(scenario);
    if (actions == null) {
      throw new IllegalArgumentException("scenario '" + scenario.name()
          + "': its actions are null; pass an object whose @Tool methods declare the world actions");
    }
    if (actionNames(actions).isEmpty()) {
      throw new IllegalArgumentException("scenario '" + scenario.name() + "': "
          + actions.getClass().getName() + " has no @Tool methods to declare the world actions");
    }
  }

  /** The names of the world actions the {@code actions} object declares. */
  public List<String> actionNames() {
    return actionNames(actions);
  }

  private static List<String> actionNames(Object actions) {
    List<String> names = new ArrayList<>();
    for (Method m : actions.getClass().getMethods()) {
      Tool tool = m.getAnnotation(Tool.class);
      if (tool != null) {
        names.add(tool.name().isBlank() ? m.getName() : tool.name());
      }
    }
    return names;
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
