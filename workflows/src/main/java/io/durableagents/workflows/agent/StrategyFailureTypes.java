package io.durableagents.workflows.agent;

/** The types of the failures that the reasoning strategies end a run with. */
public final class StrategyFailureTypes {
  /** A single-task run was started without a task. */
  public static final String INVALID_TASK = "InvalidAgentTask";

  /**
   * The ReWOO planner produced an invalid plan twice (once more after it was shown the validation
   * errors): the message lists what was wrong.
   */
  public static final String INVALID_PLAN = "ReWooInvalidPlan";

  private StrategyFailureTypes() {}
}
