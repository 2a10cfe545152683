package io.durableagents.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A simulation scenario: what a user writes to simulate their own world with LLM agents, as a Mesa
 * user writes a {@code Model}. One implementation holds the scenario's name and roles, its parameters
 * (a record whose components carry {@link Param}), how a world is created from them and restored from
 * a snapshot, and the prompts of each role ({@link ScenarioPrompts}). The world itself is a {@link
 * ScenarioWorld}: observations, who can act, how an action changes the world, the variables recorded
 * each step, messages, and a snapshot for continue-as-new.
 *
 * <p>Everything here runs inside workflows, so it must be deterministic: no clock, no I/O, no
 * randomness but the {@link SeededRandom} passed in, no LLM SDK. The actions' schemas that models see
 * (a class with LangChain4j {@code @Tool} methods) and the optional offline rule policy live outside
 * workflow code; all three are registered together on the worker:
 *
 * <pre>{@code
 * DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder()
 *     .registerScenario(new WealthScenario(), new WealthActions(), new WealthRulePolicy())
 *     .build();
 * }</pre>
 *
 * <p>A simulation names its scenario ({@code SimulationInput.scenario()}) and carries the parameters as
 * one JSON object ({@code SimulationInput.parameters()}); the workflow reads them and checks them
 * against their {@link Param} ranges and {@link #check} before the first step, so a bad value ends the run at once with a
 * message naming the parameter, the value and what is allowed.
 *
 * @param <P> the parameters record
 */
public interface Scenario<P extends Record> extends ScenarioPrompts {
  /**
   * The scenario's name, unique among the scenarios a worker registers: lower case letters, digits,
   * {@code -} and {@code _} ({@code epstein}, {@code boltzmann-wealth}).
   */
  String name();

  /** One line on what the scenario simulates (shown by {@code help simulate --scenario}). */
  default String description() {
    return "";
  }

  /** The roles of its agents, in a stable order ({@code citizen}, {@code cop}). */
  List<String> roles();

  /** The parameters' record class; its components carry {@link Param}. */
  Class<P> parametersType();

  /** The parameters a run gets for every value it does not set. */
  P defaults();

  /**
   * Checks what {@link Param}'s ranges cannot: values that depend on each other (agents that must fit
   * on the grid). The default finds nothing wrong.
   *
   * @throws InvalidParameterException naming the parameter, its value and what is allowed
   */
  default void check(P parameters) {}

  /**
   * A new world, drawn from {@code random} (its only source of randomness). Called once, at the start
   * of a simulation, with parameters already checked.
   */
  ScenarioWorld create(P parameters, SeededRandom random);

  /**
   * The world that {@link ScenarioWorld#snapshot()} saved, read back from its JSON tree (how it travels
   * in a continued run's input). It must behave exactly as the world that took the snapshot.
   */
  ScenarioWorld restore(JsonNode snapshot);

  /**
   * The world going on with other values of its {@link Param#adjustable() adjustable} parameters (an
   * intervention, or a fork's {@code --param}), at a step boundary: the same agents and state, the new
   * values in force from the next step, and kept by its {@link ScenarioWorld#snapshot()} so a
   * continued run has them too. {@code parameters} are checked and differ from the world's only in
   * adjustable parameters. A scenario that marks a parameter adjustable must override this; the
   * default refuses.
   */
  default ScenarioWorld adjust(ScenarioWorld world, P parameters) {
    throw new UnsupportedOperationException("scenario " + name() + " cannot change parameters during a run");
  }
}
