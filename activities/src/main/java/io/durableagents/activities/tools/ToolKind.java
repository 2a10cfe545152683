package io.durableagents.activities.tools;

/** The kinds of tools: what the model may call, and who carries a call out. */
public enum ToolKind {
  /**
   * Changes the simulated world ({@code move_one_step}, {@code arrest_citizen}): chosen by the model,
   * applied deterministically by the simulation workflow. Its {@code @Tool} method only declares it.
   */
  WORLD_ACTION,
  /** Runs in the world outside the simulation (calculator, file reader): a retryable activity. */
  EXTERNAL,
  /**
   * Steers the agent's own loop (ReAct's {@code finish}): offered to the model like any tool so that it
   * can call it natively, handled by the workflow itself, never run as a tool activity.
   */
  CONTROL
}
