package io.durableagents.workflows.agent;

import io.temporal.workflow.Workflow;
import java.util.Map;

/**
 * The metrics the strategies count from workflow code, by strategy. They go through Temporal's
 * workflow metrics scope, which emits nothing on replay, so a replayed step is never counted twice.
 */
public final class StrategyMetrics {
  /** Agent steps (simulation steps of one agent). */
  public static final String AGENT_STEPS = "durable_agents_agent_steps";

  /** Single-task runs ({@code AgentTask} workflows). */
  public static final String AGENT_TASKS = "durable_agents_agent_tasks";

  /** Plans made (ReWOO planner calls that produced a valid plan). */
  public static final String PLANS_MADE = "durable_agents_plans_made";

  /** Simulation steps served by a step of an earlier plan, with no LLM call (the plan TTL at work). */
  public static final String PLAN_STEPS_REUSED = "durable_agents_plan_steps_reused";

  /** Re-plans: a plan made again after a failed step or an invalidated planned action. */
  public static final String REPLANS = "durable_agents_replans";

  /** Runs or steps ended by force (iteration bound, repeated action, token budget). */
  public static final String FORCED_FINISHES = "durable_agents_forced_finishes";

  /** Agent steps in simulations that failed for good and were skipped ({@code --on-agent-failure skip}). */
  public static final String FAILED_AGENT_STEPS = "durable_agents_failed_agent_steps";

  private StrategyMetrics() {}

  /** Counts {@code amount} on {@code counter} for {@code strategy}; nothing when amount is 0. */
  public static void count(String counter, Strategy strategy, long amount) {
    if (amount > 0) {
      Workflow.getMetricsScope()
          .tagged(Map.of("strategy", strategy.label()))
          .counter(counter)
          .inc(amount);
    }
  }

  /** Counts what one agent step did. */
  public static void agentStep(Strategy strategy, AgentStepResult result) {
    count(AGENT_STEPS, strategy, 1);
    count(PLANS_MADE, strategy, result.planMade() ? 1 : 0);
    count(PLAN_STEPS_REUSED, strategy, result.planStepReused() ? 1 : 0);
    count(REPLANS, strategy, result.replans());
    count(FORCED_FINISHES, strategy, result.forcedFinish() != null ? 1 : 0);
  }
}
