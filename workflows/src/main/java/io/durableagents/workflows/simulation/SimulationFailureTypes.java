package io.durableagents.workflows.simulation;

import io.durableagents.workflows.scenario.ScenarioRegistry;

/** The types of failures a simulation ends with; none of them is retried. */
public final class SimulationFailureTypes {
  /** The input has a value out of range (steps, concurrency, memory settings, ...). */
  public static final String INVALID_INPUT = "InvalidSimulationInput";

  /** The input names a scenario this worker has not registered; the message names the registered ones. */
  public static final String UNKNOWN_SCENARIO = ScenarioRegistry.UNKNOWN_SCENARIO;

  /**
   * A scenario parameter's value is not allowed; the message names the parameter, the value and what
   * is allowed.
   */
  public static final String INVALID_PARAMETER = "InvalidScenarioParameter";

  /**
   * An agent step failed for good and the run was told to stop on it ({@code --on-agent-failure
   * stop}); the message names the agent, the step and the cause.
   */
  public static final String AGENT_STEP_FAILED = "AgentStepFailed";

  private SimulationFailureTypes() {}

  /**
   * An input the simulation would send (an agent step's, a memory call's) is larger than a Temporal
   * server accepts in one payload.
   */
  public static final String INPUT_TOO_LARGE = "SimulationInputTooLarge";

  /**
   * The state a simulation carries into its next run (continue-as-new) is larger, even deflated
   * ({@link PackedState}), than a Temporal server accepts in one payload; the message names its size.
   */
  public static final String STATE_TOO_LARGE = "SimulationStateTooLarge";

  /** A checkpoint asked for by the {@code checkpoint} update could not be written; the message says why. */
  public static final String CHECKPOINT_FAILED = "CheckpointFailed";

  /** An intervention that came before the run had started and proved not allowed; the message says why. */
  public static final String INVALID_INTERVENTION = "InvalidIntervention";
}
