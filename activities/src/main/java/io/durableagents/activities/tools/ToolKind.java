package io.durableagents.activities.tools;

/** The two kinds of tools. */
public enum ToolKind {
  /**
   * Changes the simulated world ({@code move_one_step}, {@code arrest_citizen}): chosen by the model,
   * applied deterministically by the simulation workflow. Its {@code @Tool} method only declares it.
   */
  WORLD_ACTION,
  /** Runs in the world outside the simulation (calculator, file reader): a retryable activity. */
  EXTERNAL
}
