package io.durableagents.workflows.scenario;

import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioPrompts;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The scenarios a worker (or a client) knows, by name. Workflows get it from the plugin through their
 * implementation factories, never from a static, so two workers in one JVM can know different
 * scenarios.
 *
 * <pre>{@code
 * ScenarioRegistry scenarios = ScenarioRegistry.of(new EpsteinScenario(), new WealthScenario());
 * Scenario<?> s = scenarios.get("wealth"); // or IllegalArgumentException naming the registered ones
 * }</pre>
 */
public final class ScenarioRegistry {
  /** The failure type of a run or agent step naming a scenario the worker has not registered. */
  public static final String UNKNOWN_SCENARIO = "UnknownScenario";

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]*");

  private final Map<String, Scenario<?>> scenarios;

  private ScenarioRegistry(Map<String, Scenario<?>> scenarios) {
    this.scenarios = Collections.unmodifiableMap(new LinkedHashMap<>(scenarios));
  }

  /**
   * A registry of {@code scenarios}, checked as {@link #check} does.
   *
   * @throws IllegalArgumentException on a bad or duplicate name, no roles, or no defaults
   */
  public static ScenarioRegistry of(Scenario<?>... scenarios) {
    return of(List.of(scenarios));
  }

  /** A registry of {@code scenarios}, in their order. */
  public static ScenarioRegistry of(Collection<? extends Scenario<?>> scenarios) {
    Map<String, Scenario<?>> byName = new LinkedHashMap<>();
    for (Scenario<?> s : scenarios) {
      check(s);
      Scenario<?> before = byName.putIfAbsent(s.name(), s);
      if (before != null) {
        throw new IllegalArgumentException("two scenarios are named '" + s.name() + "': "
            + before.getClass().getName() + " and " + s.getClass().getName());
      }
    }
    return new ScenarioRegistry(byName);
  }

  /**
   * Checks what a registration needs: a name of lower case letters, digits, - and _; at least one role,
   * each named once; parameters of a record class whose defaults pass the scenario's own checks.
   *
   * @throws IllegalArgumentException naming the scenario class and the problem
   */
  public static void check(Scenario<?> s) {
    String type = s.getClass().getName();
    if (s.name() == null || !NAME.matcher(s.name()).matches()) {
      throw new IllegalArgumentException("scenario " + type + ": name '" + s.name()
          + "' is not allowed: lower case letters, digits, - and _, starting with a letter or digit");
    }
    List<String> roles = s.roles();
    if (roles == null || roles.isEmpty()) {
      throw new IllegalArgumentException("scenario '" + s.name() + "' has no roles");
    }
    if (roles.stream().distinct().count() != roles.size()) {
      throw new IllegalArgumentException("scenario '" + s.name() + "' names a role twice: " + roles);
    }
    if (s.parametersType() == null || !s.parametersType().isRecord()) {
      throw new IllegalArgumentException("scenario '" + s.name()
          + "': parametersType() must be a record class, was " + s.parametersType());
    }
    try {
      ScenarioParameters.specs(s);
      ScenarioParameters.read(s, null);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "scenario '" + s.name() + "': its defaults are not valid: " + e.getMessage(), e);
    }
  }

  /**
   * The scenario called {@code name}.
   *
   * @throws IllegalArgumentException naming the registered scenarios
   */
  public Scenario<?> get(String name) {
    Scenario<?> s = name == null ? null : scenarios.get(name);
    if (s == null) {
      throw new IllegalArgumentException("scenario '" + name + "' is not registered; registered: "
          + String.join(", ", scenarios.keySet()));
    }
    return s;
  }

  /** Whether a scenario called {@code name} is registered. */
  public boolean contains(String name) {
    return scenarios.containsKey(name);
  }

  /** Every registered name, in registration order. */
  public List<String> names() {
    return List.copyOf(scenarios.keySet());
  }

  /** Every registered scenario, in registration order. */
  public List<Scenario<?>> all() {
    return new ArrayList<>(scenarios.values());
  }

  /**
   * The prompts of {@code scenario}, or {@link ScenarioPrompts#GENERIC} when it is null (an agent
   * outside any simulation).
   *
   * @throws IllegalArgumentException naming the registered scenarios
   */
  public ScenarioPrompts prompts(String scenario) {
    return scenario == null ? ScenarioPrompts.GENERIC : get(scenario);
  }
}
