package io.durableagents.api;

import java.util.List;
import java.util.Map;

/**
 * The simulated world of one scenario, kept as workflow state. Everything here is deterministic:
 * randomness comes only from the {@link SeededRandom} the simulation passes in.
 *
 * <p>A {@link io.durableagents.api.Scenario} creates its world ({@link
 * io.durableagents.api.Scenario#create}) and restores it from a snapshot ({@link
 * io.durableagents.api.Scenario#restore}); the world's actions are declared to models
 * as {@code @Tool} methods of a class registered with the scenario on the worker.
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

  /**
   * The variables recorded at the end of each step, in a stable order: counts ({@code active: 12}),
   * sums, or measures such as a Gini coefficient, as Mesa's {@code DataCollector} model reporters give
   * them. They are the run's per-step results ({@code --csv}, {@code --chart}) and its progress.
   *
   * <p>The simulation reads them once a step, after {@link #endStep} (so what {@code endStep} changes,
   * a sentence run down, is in that step's counts), and once when the world is created or restored,
   * before the first step.
   */
  Map<String, Number> counts();

  /**
   * The outcomes of this step's actions for agents other than the actor (a message spoken with {@code
   * speak_to}, a sale to a buyer), gathered since the last call and removed by this call. The
   * simulation calls it once per step, after it has applied every action and before {@link #endStep},
   * and appends each text, in list order, to the recipient's memory as one entry and to its next
   * observation ({@code self_state.messages}, so that agents without memory hear it too); recipients are
   * agent ids of this world. Texts say who acted ({@code "buyer-2 says: ..."}), since the recipient
   * sees nothing else of the actor. The map's iteration order must be deterministic (a {@link
   * java.util.LinkedHashMap} or {@link java.util.TreeMap}). The default delivers nothing.
   */
  default Map<String, List<String>> drainMessages() {
    return Map.of();
  }

  /**
   * The whole mutable state of this world, for continue-as-new: a record (or a tree of records, lists
   * and maps) that Jackson writes to JSON and reads back, with {@code
   * @JsonIgnoreProperties(ignoreUnknown = true)} on every record so that a snapshot written by an older
   * build still reads. The contract, checked by the continue-as-new equivalence test:
   *
   * <ul>
   *   <li>{@code scenario.restore(Json.MAPPER.valueToTree(world.snapshot()))} gives a world
   *       that behaves exactly as this one from here on: the same {@link #agentIds()} order, the same
   *       observations, the same outcome for every action given the same {@link SeededRandom} draws,
   *       the same {@link #counts()};
   *   <li>the snapshot holds state only, never prompts or secrets, and is bounded by the number of
   *       agents (it travels in the continued run's input and in the {@code world} query);
   *   <li>it is taken at a step boundary, after {@link #endStep}, so messages not yet drained are not
   *       part of it ({@link #drainMessages()} is empty then);
   *   <li>it reads no clock and no randomness: the world's draws come from the simulation's {@link
   *       SeededRandom}, whose state the simulation carries itself.
   * </ul>
   */
  Object snapshot();

  /**
   * How a view draws this world now (at a step boundary): each agent's cell, colour, shape and label,
   * and the grid's size when the world has one, as Mesa's {@code agent_portrayal}. Only a view calls it,
   * outside workflows, on a world restored from a snapshot, so it changes nothing a run records; it must
   * still be deterministic (the same world, the same portrayal) and change nothing in the world. The
   * default is a table of the agents and their roles ({@link Portrayal#table(ScenarioWorld)}).
   */
  default Portrayal portrayal() {
    return Portrayal.table(this);
  }
}
