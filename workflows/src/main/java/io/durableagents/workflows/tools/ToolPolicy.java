package io.durableagents.workflows.tools;

import java.time.Duration;

/**
 * How the calls of one external tool run as activities: the time an attempt may take, how long it may
 * go without a heartbeat, and how often and how soon it is retried. Deterministic data, read by
 * workflow code when it schedules a call ({@link ToolCallOptions#forCall}); the worker builds it from
 * the tool's {@code @DurableTool} annotation or {@code ToolOptions} and hands it to the workflows in
 * {@link ToolPolicies}. Which exceptions are not retried is decided by the tool activity itself, which
 * knows the tool's exception classes.
 *
 * <pre>{@code
 * ToolPolicy slow = new ToolPolicy(Duration.ofMinutes(5), Duration.ofSeconds(10), 5,
 *     Duration.ofSeconds(1), 2.0, Duration.ofSeconds(30));
 * }</pre>
 *
 * @param startToCloseTimeout the longest one attempt may run
 * @param heartbeatTimeout how long an attempt may go without a heartbeat before Temporal gives it up
 *     and retries it (the worker heartbeats while a tool runs, so this is how soon a dead worker's
 *     call moves on); zero: no heartbeat timeout
 * @param maximumAttempts attempts in all, the first one included (1: never retried)
 * @param initialInterval the wait before the first retry
 * @param backoffCoefficient how much the wait grows from one retry to the next (1 or more)
 * @param maximumInterval the longest wait between two attempts
 */
public record ToolPolicy(Duration startToCloseTimeout, Duration heartbeatTimeout, int maximumAttempts,
    Duration initialInterval, double backoffCoefficient, Duration maximumInterval) {

  /** Today's options for every tool: 1 min an attempt, a heartbeat every 10 s, 3 attempts. */
  public static final ToolPolicy DEFAULT = new ToolPolicy(ToolCallOptions.START_TO_CLOSE,
      ToolCallOptions.HEARTBEAT_TIMEOUT, ToolCallOptions.MAXIMUM_ATTEMPTS, ToolCallOptions.INITIAL_INTERVAL,
      ToolCallOptions.BACKOFF_COEFFICIENT, ToolCallOptions.MAXIMUM_INTERVAL);

  /** @throws IllegalArgumentException naming the setting whose value is not allowed */
  public ToolPolicy {
    positive("startToCloseTimeout", startToCloseTimeout);
    if (heartbeatTimeout == null || heartbeatTimeout.isNegative()) {
      throw new IllegalArgumentException("heartbeatTimeout " + heartbeatTimeout
          + " is not allowed: a duration of zero (none) or more");
    }
    if (heartbeatTimeout.compareTo(startToCloseTimeout) > 0) {
      throw new IllegalArgumentException("heartbeatTimeout " + heartbeatTimeout
          + " is not allowed: at most the startToCloseTimeout (" + startToCloseTimeout + ")");
    }
    if (maximumAttempts < 1) {
      throw new IllegalArgumentException("maximumAttempts " + maximumAttempts
          + " is not allowed: 1 (no retry) or more");
    }
    positive("initialInterval", initialInterval);
    if (!(backoffCoefficient >= 1.0)) {
      throw new IllegalArgumentException("backoffCoefficient " + backoffCoefficient
          + " is not allowed: 1.0 or more");
    }
    positive("maximumInterval", maximumInterval);
    if (maximumInterval.compareTo(initialInterval) < 0) {
      throw new IllegalArgumentException("maximumInterval " + maximumInterval
          + " is not allowed: at least the initialInterval (" + initialInterval + ")");
    }
  }

  private static void positive(String setting, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(setting + " " + value + " is not allowed: a positive duration");
    }
  }
}
