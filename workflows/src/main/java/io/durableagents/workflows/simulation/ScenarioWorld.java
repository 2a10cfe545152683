package io.durableagents.workflows.simulation;

import io.durableagents.workflows.agent.Observation;
import io.durableagents.workflows.agent.WorldAction;
import java.util.List;
import java.util.Map;

/**
 * The simulated world of one scenario, kept as workflow state. Everything here is deterministic:
 * randomness comes only from the {@link SeededRandom} the simulation passes in.
 *
 * <p>To add a scenario, implement this interface (the world and its actions), give it {@link
 * io.durableagents.workflows.scenario.ScenarioPrompts}, register both in {@link
 * io.durableagents.workflows.scenario.Scenarios}, and declare its actions as {@code @Tool} methods in
 * the activities module so that models see their schemas.
 */
public interface ScenarioWorld {
  /** Every agent id, in a stable order. */
  List<String> agentIds();

  /** The agent's role ({@code citizen}, {@code cop}, ...). */
  String roleOf(String agentId);

  /** Whether the agent takes a step now (a jailed citizen does not). */
  boolean canAct(String agentId);

  /** What the agent sees at {@code step}. */
  Observation observe(String agentId, int step);

  /** The tools a role has, world actions and external tools alike. */
  List<String> toolsOf(String role);

  /** The names of this scenario's world actions. */
  List<String> worldActions();

  /**
   * Applies one action to the world and says what happened, for the agent's next observation. An
   * action that cannot be applied (a blocked cell, a target out of reach, bad arguments) changes
   * nothing and says why.
   */
  String apply(WorldAction action, SeededRandom random);

  /** Ends a step: sentences run down, and the like. */
  void endStep(int step, SeededRandom random);

  /** The variables recorded at the end of each step, in a stable order. */
  Map<String, Integer> counts();

  /**
   * The messages that actions applied since the last call sent to other agents, by recipient id;
   * clears them.
   */
  default Map<String, List<String>> drainMessages() {
    return Map.of();
  }
}
