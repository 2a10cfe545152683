package io.durableagents.workflows.agent.rewoo;

/** The prompts and purpose labels of the ReWOO strategy. */
public final class ReWooPrompts {
  /** The purpose labels of ReWOO's LLM calls (the strategy name first, for metrics). */
  public static final String PLAN_PURPOSE = "rewoo-plan";

  public static final String SOLVE_PURPOSE = "rewoo-solve";

  /**
   * The line of a planner prompt that bounds the plan, followed by the number and " steps". The
   * offline rules model reads it to know how many steps to plan.
   */
  public static final String PLAN_LENGTH_PREFIX = "Plan length: at most ";

  private ReWooPrompts() {}
}
