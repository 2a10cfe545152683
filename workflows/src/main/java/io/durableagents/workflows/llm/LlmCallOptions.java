package io.durableagents.workflows.llm;

import io.durableagents.workflows.TaskQueues;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import java.time.Duration;

/**
 * Activity options for LLM calls, with their defaults in one place.
 *
 * <p>The heartbeat timeout is short on purpose: the activity heartbeats while it waits for the model,
 * so a call that was running on a worker that died is retried after {@link #HEARTBEAT_TIMEOUT}, not
 * after the whole {@link #START_TO_CLOSE}. Retries back off exponentially; a rate-limited call waits
 * at least as long as the provider's Retry-After says. The worker's LLM activity stops retrying earlier,
 * once a model's retry budget is spent ({@code DURABLE_AGENTS_LLM_RETRY_BUDGET}, 60 s by default), by
 * throwing the same typed failure as non-retryable.
 */
public final class LlmCallOptions {
  public static final Duration START_TO_CLOSE = Duration.ofMinutes(3);
  /**
   * 3 s: a call that was running on a killed worker is retried about 4 s later (this, then the
   * retry's first backoff of 1 s). The activity heartbeats every second while it waits, and the SDK
   * sends them at most every 0.8 x this (2.4 s), which leaves 0.6 s for a heartbeat to arrive. Temporal
   * compares only an activity's id and type on replay, so changing it changes no recorded history.
   */
  public static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(3);
  public static final int MAXIMUM_ATTEMPTS = 8;

  public static final RetryOptions RETRY =
      RetryOptions.newBuilder()
          .setInitialInterval(Duration.ofSeconds(1))
          .setBackoffCoefficient(2.0)
          .setMaximumInterval(Duration.ofMinutes(1))
          .setMaximumAttempts(MAXIMUM_ATTEMPTS)
          .setDoNotRetry(
              LlmFailureTypes.AUTHENTICATION,
              LlmFailureTypes.INVALID_REQUEST,
              LlmFailureTypes.MODEL_NOT_FOUND,
              LlmFailureTypes.CONTENT_FILTERED,
              LlmFailureTypes.PROVIDER_NOT_CONFIGURED,
              LlmFailureTypes.NON_RETRIABLE)
          .build();

  private LlmCallOptions() {}

  /** The summary shown for a call in the Temporal UI: the model, never the prompt. */
  public static String summary(String model) {
    return "llm: " + model;
  }

  /** Options for a call to {@code model}, summarised as {@code llm: <model>}. */
  public static ActivityOptions forModel(String model) {
    return ActivityOptions.newBuilder()
        .setTaskQueue(TaskQueues.LLM)
        .setStartToCloseTimeout(START_TO_CLOSE)
        .setHeartbeatTimeout(HEARTBEAT_TIMEOUT)
        .setRetryOptions(RETRY)
        .setSummary(summary(model))
        .build();
  }
}
