package io.durableagents.workflows.tools;

import io.durableagents.workflows.TaskQueues;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import java.time.Duration;

/** Activity options for external tool calls, with their defaults in one place. */
public final class ToolCallOptions {
  public static final Duration START_TO_CLOSE = Duration.ofMinutes(1);
  public static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(10);
  public static final int MAXIMUM_ATTEMPTS = 3;

  public static final RetryOptions RETRY =
      RetryOptions.newBuilder()
          .setInitialInterval(Duration.ofSeconds(1))
          .setBackoffCoefficient(2.0)
          .setMaximumInterval(Duration.ofSeconds(10))
          .setMaximumAttempts(MAXIMUM_ATTEMPTS)
          .build();

  private ToolCallOptions() {}

  /** The summary shown for a call in the Temporal UI. */
  public static String summary(String tool) {
    return "tool: " + tool;
  }

  /** Options for a call to {@code tool}, summarised as {@code tool: <name>}. */
  public static ActivityOptions forTool(String tool) {
    return forTool(tool, summary(tool));
  }

  /**
   * Options for a call to {@code tool} with a summary of the caller's own, such as {@code tool:
   * calculator (plan 1, level 2/3, E3)}. The summary names the call, never its arguments.
   */
  public static ActivityOptions forTool(String tool, String summary) {
    return ActivityOptions.newBuilder()
        .setTaskQueue(TaskQueues.AGENTS)
        .setStartToCloseTimeout(START_TO_CLOSE)
        .setHeartbeatTimeout(HEARTBEAT_TIMEOUT)
        .setRetryOptions(RETRY)
        .setSummary(summary)
        .build();
  }
}
