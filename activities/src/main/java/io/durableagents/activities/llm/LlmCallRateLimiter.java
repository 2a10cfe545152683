package io.durableagents.activities.llm;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The LLM calls' rate limit of one worker process ({@code DURABLE_AGENTS_LLM_RATE_LIMIT}), held where a
 * call is sent: calls start evenly spaced, {@value #MARGIN}{@code /limit} seconds apart (10% under the
 * limit, a margin for the network's jitter between here and the model server). Seen from the model
 * server, no one-second window then gets more than the limit, except that one call more can arrive in a
 * window when an earlier call was held up on its way (the first calls of a fresh client are slower, a
 * loaded machine delays some).
 * A call over the limit waits for its slot (the activity heartbeats meanwhile).
 *
 * <p>It stands beside the LLM worker's own poll rate ({@code setMaxWorkerActivitiesPerSecond}), which
 * keeps the backlog on the Temporal server so that only a few calls ever wait here, and the task
 * queue's rate, which a real Temporal server holds across workers (Temporal's test server, the embedded
 * default, ignores it). Both this limiter and the worker's rate are per worker process: N workers send
 * up to N times the limit unless the task queue's rate holds.
 *
 * <pre>{@code
 * LlmCallRateLimiter limiter = LlmCallRateLimiter.perSecond(2.0); // a call every 0.55 s
 * limiter.acquire();                                                // waits for this call's slot
 * }</pre>
 */
public final class LlmCallRateLimiter {
  /** The spacing of calls is this many times {@code 1/limit}. */
  public static final double MARGIN = 1.1;

  private final long intervalNanos;
  private long lastStart = Long.MIN_VALUE;

  private LlmCallRateLimiter(long intervalNanos) {
    this.intervalNanos = intervalNanos;
  }

  /**
   * A limiter of {@code callsPerSecond}; null for none.
   *
   * @throws IllegalArgumentException when the rate is not positive
   */
  public static LlmCallRateLimiter perSecond(Double callsPerSecond) {
    if (callsPerSecond == null) {
      return null;
    }
    if (!(callsPerSecond > 0)) {
      throw new IllegalArgumentException("the LLM call rate must be positive, was " + callsPerSecond);
    }
    return new LlmCallRateLimiter((long) (MARGIN * 1e9 / callsPerSecond));
  }

  /** The time between the starts of two calls. */
  public Duration interval() {
    return Duration.ofNanos(intervalNanos);
  }

  /**
   * Waits until {@link #interval()} has passed since the last call started, and starts this one. Waiters
   * go one at a time, so a waiter that wakes late pushes the next slot back rather than crowding it.
   *
   * @throws InterruptedException when the waiting thread is interrupted (the call does not start)
   */
  public synchronized void acquire() throws InterruptedException {
    if (lastStart != Long.MIN_VALUE) {
      long wait = lastStart + intervalNanos - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
    }
    lastStart = System.nanoTime();
  }
}
