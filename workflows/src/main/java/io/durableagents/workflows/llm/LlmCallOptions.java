package io.durableagents.workflows.llm;

import io.durableagents.workflows.TaskQueues;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import java.time.Duration;

/**
 * Activity options for LLM calls, with their defaults in one place.
 *
 * <p>The activity heartbeats while it waits for the model, so a call that was running on a worker that
 * died is retried after {@link #HEARTBEAT_TIMEOUT}, not after the whole {@link #START_TO_CLOSE}; the
 * timeout is long enough for a loaded worker's heartbeats to arrive in time, so a live worker's call is
 * never run (and paid for) twice. Retries back off exponentially; a rate-limited call waits
 * at least as long as the provider's Retry-After says. The worker's LLM activity stops retrying earlier,
 * once a model's retry budget is spent ({@code DURABLE_AGENTS_LLM_RETRY_BUDGET}, 60 s by default), by
 * throwing the same typed failure as non-retryable.
 */
public final class LlmCallOptions {
  /**
   * 3 min, what the workflows ask for; the plugin's worker sets its own for the {@code LlmChat} activity
   * type (the per-attempt time-out and a margin, at least this; 24 h while a call may wait for a model's
   * slot), since only the worker knows its time-out. Replay compares only an activity's id and type.
   */
  public static final Duration START_TO_CLOSE = Duration.ofMinutes(3);
  /**
   * 10 s: a live worker's call must never time out for want of a heartbeat it was about to send. The
   * timeout runs from when the server hands out the task; a worker at a 1-minute load of 15 on 2 cores
   * took over 3 s (the earlier timeout) to start a call and send its first heartbeat, and the call's
   * completed result was then refused and the call ran again, paid twice. The activity heartbeats before
   * the call and every second while it waits; the worker sends them at most every {@link
   * #HEARTBEAT_THROTTLE} (the plugin's setting), which leaves a loaded worker 8 s. A call that was running
   * on a killed worker is retried about 11 s later (this, then the retry's first backoff of 1 s). Temporal
   * compares only an activity's id and type on replay, so changing it changes no recorded history.
   */
  public static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(10);

  /**
   * The longest a worker waits between two heartbeats it sends for an LLM call (Temporal's {@code
   * maxHeartbeatThrottleInterval}; its default, 0.8 x {@link #HEARTBEAT_TIMEOUT}, would leave a loaded
   * worker 2 s).
   */
  public static final Duration HEARTBEAT_THROTTLE = Duration.ofSeconds(2);
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
