package io.durableagents.activities.llm;

import io.durableagents.workflows.llm.LlmCallOptions;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.activity.ActivityInfo;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;

/**
 * The one clock of an LLM call, across its attempts: each attempt waits for the model at most the
 * per-attempt time-out ({@code DURABLE_AGENTS_LLM_TIMEOUT}) and never past the model's retry budget
 * ({@code DURABLE_AGENTS_LLM_RETRY_BUDGET}), which bounds the whole call, its attempts and the backoffs
 * between them. A budget shorter than the time-out is raised to it ({@link LlmSettings#callBudget}), so
 * that a first attempt always has its whole time-out; a budget of 0 is one attempt, never retried.
 *
 * <p>What no limit counts: the time a call waits for one of its model's slots ({@link ModelSlots}) and
 * the time its first attempt waits in the task queue before a worker takes it. The earlier attempts' waits are
 * carried in the heartbeat details ({@link LlmCallWaits}); the time before this attempt is read from the
 * server's timestamps (so it holds in a time-skipping test too), this attempt's from the local clock.
 */
final class LlmCallClock {
  /** The least time a retry that the budget let start may wait for the model. */
  static final Duration MINIMUM_LAST_ATTEMPT = Duration.ofSeconds(1);

  private final String model;
  private final LlmSettings settings;
  private final int attempt;
  private final boolean activity;
  /** The counted time of the earlier attempts and the backoffs between them. */
  private final Duration before;
  /** What the earlier attempts and this one's time in the task queue waited. */
  private final long waitedBeforeMillis;
  private Duration slotWait = Duration.ZERO;
  private Duration limit;
  private boolean limitIsBudget;

  private LlmCallClock(String model, LlmSettings settings, int attempt, boolean activity, Duration before,
      long waitedBeforeMillis) {
    this.model = model;
    this.settings = settings;
    this.attempt = attempt;
    this.activity = activity;
    this.before = before;
    this.waitedBeforeMillis = waitedBeforeMillis;
  }

  /**
   * The clock of the attempt running in {@code context} (null or a local activity: a first attempt with
   * nothing before it).
   */
  static LlmCallClock of(ActivityExecutionContext context, String model, LlmSettings settings) {
    if (context == null || context.getInfo().isLocal()) {
      return new LlmCallClock(model, settings, 1, false, Duration.ZERO, 0);
    }
    ActivityInfo info = context.getInfo();
    long earlier = context.getLastHeartbeatDetails(LlmCallWaits.class).map(LlmCallWaits::waitedMillis).orElse(0L);
    long attemptStart = Math.max(info.getStartedTimestamp(), info.getCurrentAttemptScheduledTimestamp());
    // The time a first attempt waited in the task queue (every worker busy) is not counted. A retry's is
    // (servers differ in whether its scheduled time is before or after its backoff).
    long queued = info.getAttempt() <= 1 ? Math.max(0, attemptStart - info.getScheduledTimestamp()) : 0;
    Duration before = info.getAttempt() <= 1 ? Duration.ZERO
        : Duration.ofMillis(Math.max(0, attemptStart - info.getScheduledTimestamp() - earlier));
    return new LlmCallClock(model, settings, info.getAttempt(), true, before, earlier + queued);
  }

  /**
   * The identity of the call across its attempts: its workflow id and activity id, and the workflow's run
   * (activity ids start again in a run that continued as new).
   */
  static String holder(ActivityExecutionContext context) {
    if (context == null) {
      return "thread-" + Thread.currentThread().getId();
    }
    ActivityInfo info = context.getInfo();
    return info.getWorkflowId() + "/" + info.getWorkflowRunId() + "/" + info.getActivityId();
  }

  /** This attempt waited {@code waited} for its slot: not counted. */
  void slotWaited(Duration waited) {
    slotWait = waited;
  }

  /** How long this attempt waited for its slot. */
  Duration slotWait() {
    return slotWait;
  }

  /** The heartbeat details that carry every wait so far to the next attempt; null when there was none. */
  LlmCallWaits waits() {
    long waited = waitedBeforeMillis + slotWait.toMillis();
    return waited > 0 ? new LlmCallWaits(waited) : null;
  }

  /**
   * How long this attempt may wait for the model from now: the time-out, or what is left of the budget
   * when that is less (at least {@link #MINIMUM_LAST_ATTEMPT}); a budget of 0 gives its one attempt the
   * time-out.
   */
  Duration attemptLimit() {
    if (limit == null) {
      Duration timeout = settings.timeout();
      Duration budget = settings.callBudget(model);
      Duration left = budget.isZero() ? timeout : budget.minus(before);
      if (left.compareTo(MINIMUM_LAST_ATTEMPT) < 0) {
        left = MINIMUM_LAST_ATTEMPT;
      }
      limitIsBudget = left.compareTo(timeout) < 0;
      limit = limitIsBudget ? left : timeout;
    }
    return limit;
  }

  /**
   * The failure of an attempt that got no answer within {@link #attemptLimit()}: it names the limit that
   * ended it and the variable that raises it. Retryable: {@link #withinBudget} decides.
   */
  ApplicationFailure timedOut(String detail) {
    attemptLimit();
    String message = limitIsBudget
        ? "no answer within the " + seconds(limit) + " s left of " + budgetName()
        : noAnswerWithinTimeout();
    return ApplicationFailure.newBuilder().setType(LlmFailureTypes.TIMED_OUT).setNonRetryable(false)
        .setMessage(detail == null ? message : message + ": " + detail).build();
  }

  /** "no answer within DURABLE_AGENTS_LLM_TIMEOUT=60 s (the per-attempt time-out)". */
  String noAnswerWithinTimeout() {
    return "no answer within " + LlmSettings.LLM_TIMEOUT + "=" + asSet(settings.timeout())
        + " s (the per-attempt time-out)";
  }

  /**
   * {@code failure}, or when it is retryable but the next attempt would start after the model's retry
   * budget, or this was the last attempt, the same failure as non-retryable, saying after how many
   * attempts in how long, and which limit ended the call.
   *
   * @param thisAttempt how long this attempt waited for the model (its slot wait not included)
   */
  ApplicationFailure withinBudget(ApplicationFailure failure, Duration thisAttempt) {
    if (failure.isNonRetryable() || !activity) {
      return failure;
    }
    Duration elapsed = before.plus(thisAttempt);
    Duration next = LlmRetryBudget.backoffAfter(attempt);
    if (failure.getNextRetryDelay() != null && failure.getNextRetryDelay().compareTo(next) > 0) {
      next = failure.getNextRetryDelay();
    }
    Duration budget = settings.callBudget(model);
    boolean lastAttempt = attempt >= LlmCallOptions.MAXIMUM_ATTEMPTS;
    if (!lastAttempt && !budget.isZero() && elapsed.plus(next).compareTo(budget) <= 0) {
      return failure;
    }
    String why = lastAttempt ? "the last of " + attempt + " attempts (the LLM calls' retry policy)"
        : budget.isZero() ? budgetName() + " allows no retry"
        : elapsed.compareTo(budget) >= 0 ? budgetName() + " was spent"
        : "the next attempt would start after " + budgetName();
    return ApplicationFailure.newBuilder()
        .setMessage(failure.getOriginalMessage() + " (gave up after " + attempt
            + (attempt == 1 ? " attempt" : " attempts") + " in " + seconds(elapsed) + " s: " + why + ")")
        .setType(failure.getType()).setNonRetryable(true).build();
  }

  /**
   * "the retry budget of 60 s for openai:x (DURABLE_AGENTS_LLM_RETRY_BUDGET)", saying when it was raised
   * to the time-out.
   */
  String budgetName() {
    Duration set = settings.retryBudget().of(model);
    Duration budget = settings.callBudget(model);
    String variable = budget.equals(set) ? LlmRetryBudget.VARIABLE
        : LlmRetryBudget.VARIABLE + "=" + asSet(set) + " s, raised to " + LlmSettings.LLM_TIMEOUT;
    return "the retry budget of " + asSet(budget) + " s for " + model + " (" + variable + ")";
  }

  /** A setting's seconds as it was set: {@code 60}, {@code 2.5}, {@code 0}. */
  static String asSet(Duration d) {
    return java.math.BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString();
  }

  /** Whole seconds, at least 1, for messages. */
  static long seconds(Duration d) {
    return Math.max(1, Math.round(d.toMillis() / 1000.0));
  }
}
