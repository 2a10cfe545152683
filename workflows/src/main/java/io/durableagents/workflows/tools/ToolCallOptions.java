package io.durableagents.workflows.tools;

import io.durableagents.workflows.TaskQueues;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import java.time.Duration;

/**
 * Activity options for external tool calls, with their defaults in one place. A tool registered
 * without options of its own runs with these ({@link ToolPolicy#DEFAULT}); one with options runs with
 * its {@link ToolPolicy}, which the worker hands to workflows in {@link ToolPolicies}.
 */
public final class ToolCallOptions {
  public static final Duration START_TO_CLOSE = Duration.ofMinutes(1);
  public static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(10);
  public static final int MAXIMUM_ATTEMPTS = 3;
  public static final Duration INITIAL_INTERVAL = Duration.ofSeconds(1);
  public static final double BACKOFF_COEFFICIENT = 2.0;
  public static final Duration MAXIMUM_INTERVAL = Duration.ofSeconds(10);

  public static final RetryOptions RETRY =
      RetryOptions.newBuilder()
          .setInitialInterval(INITIAL_INTERVAL)
          .setBackoffCoefficient(BACKOFF_COEFFICIENT)
          .setMaximumInterval(MAXIMUM_INTERVAL)
          .setMaximumAttempts(MAXIMUM_ATTEMPTS)
          .build();

  private ToolCallOptions() {}

  /** The summary shown for a call in the Temporal UI. */
  public static String summary(String tool) {
    return "tool: " + tool;
  }

  /** Default options for a call to {@code tool}, summarised as {@code tool: <name>}. */
  public static ActivityOptions forTool(String tool) {
    return forTool(tool, summary(tool));
  }

  /**
   * Default options for a call to {@code tool} with a summary of the caller's own, such as {@code
   * tool: calculator (plan 1, level 2/3, E3)}. The summary names the call, never its arguments.
   */
  public static ActivityOptions forTool(String tool, String summary) {
    return forCall(ToolPolicy.DEFAULT, summary);
  }

  /** Options for a call of a tool whose policy is {@code policy}, shown in the UI with {@code summary}. */
  public static ActivityOptions forCall(ToolPolicy policy, String summary) {
    ActivityOptions.Builder options = ActivityOptions.newBuilder()
        .setTaskQueue(TaskQueues.AGENTS)
        .setStartToCloseTimeout(policy.startToCloseTimeout())
        .setRetryOptions(RetryOptions.newBuilder()
            .setInitialInterval(policy.initialInterval())
            .setBackoffCoefficient(policy.backoffCoefficient())
            .setMaximumInterval(policy.maximumInterval())
            .setMaximumAttempts(policy.maximumAttempts())
            .build())
        .setSummary(summary);
    if (!policy.heartbeatTimeout().isZero()) {
      options.setHeartbeatTimeout(policy.heartbeatTimeout());
    }
    return options.build();
  }
}
