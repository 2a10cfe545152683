package io.durableagents.activities.llm;

import io.temporal.activity.ActivityExecutionContext;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;

/**
 * Holds an LLM call's attempts to its model's retry budget ({@link LlmRetryBudget}): a retryable failure
 * is given up (thrown non-retryable, saying after how many attempts in how long) once the next attempt
 * would start after the budget, and a retry waits for the model no longer than what is left of it.
 */
final class RetryBudgetCheck {
  private RetryBudgetCheck() {}

  /**
   * {@code failure}, or when it is retryable but the next attempt would start after the model's retry
   * budget ({@link LlmRetryBudget}), or this was the last attempt, the same failure as non-retryable with
   * how many attempts were made in how long. The time before this attempt is read from the server's
   * timestamps (so it holds in a time-skipping test too), this attempt's from the local clock.
   */
  static ApplicationFailure withinRetryBudget(ApplicationFailure failure, String model, Duration thisAttempt,
      ActivityExecutionContext context, LlmSettings settings) {
    if (failure.isNonRetryable() || context == null || context.getInfo().isLocal()) {
      return failure;
    }
    var info = context.getInfo();
    int attempt = info.getAttempt();
    // This attempt's start (after the backoff before it), both on the server's clock.
    long attemptStart = Math.max(info.getStartedTimestamp(), info.getCurrentAttemptScheduledTimestamp());
    Duration before = Duration.ofMillis(Math.max(0, attemptStart - info.getScheduledTimestamp()));
    Duration elapsed = before.plus(thisAttempt);
    Duration next = LlmRetryBudget.backoffAfter(attempt);
    if (failure.getNextRetryDelay() != null && failure.getNextRetryDelay().compareTo(next) > 0) {
      next = failure.getNextRetryDelay();
    }
    Duration budget = settings.retryBudget().of(model);
    boolean lastAttempt = attempt >= io.durableagents.workflows.llm.LlmCallOptions.MAXIMUM_ATTEMPTS;
    if (!lastAttempt && elapsed.plus(next).compareTo(budget) <= 0) {
      return failure;
    }
    String why = lastAttempt ? "the last of " + attempt + " attempts"
        : "the next attempt would start after the retry budget of " + budget.toSeconds() + " s for " + model
            + " (" + LlmRetryBudget.VARIABLE + ")";
    return ApplicationFailure.newBuilder()
        .setMessage(failure.getOriginalMessage() + " (gave up after " + attempt
            + (attempt == 1 ? " attempt" : " attempts") + " in " + Math.max(1, Math.round(elapsed.toMillis() / 1000.0))
            + " s: " + why + ")")
        .setType(failure.getType()).setNonRetryable(true).build();
  }

  /**
   * How long a retry of a call may wait for the model: what is left of the model's retry budget since
   * its first attempt was scheduled (at least {@link #MINIMUM_LAST_ATTEMPT}), when that is less than
   * {@code DURABLE_AGENTS_LLM_TIMEOUT}; null for a first attempt (it always gets the whole time-out, even
   * with a budget of 0) or when the time-out ends the attempt first. So the budget bounds the whole call,
   * the last attempt included: a model server that never answers ends the call about the budget after
   * it began, not one time-out later.
   */
  static Duration budgetLeft(ActivityExecutionContext context, String model, LlmSettings settings) {
    var info = context.getInfo();
    if (info.getAttempt() <= 1) {
      return null;
    }
    long attemptStart = Math.max(info.getStartedTimestamp(), info.getCurrentAttemptScheduledTimestamp());
    Duration before = Duration.ofMillis(Math.max(0, attemptStart - info.getScheduledTimestamp()));
    Duration left = settings.retryBudget().of(model).minus(before);
    if (left.compareTo(MINIMUM_LAST_ATTEMPT) < 0) {
      left = MINIMUM_LAST_ATTEMPT;
    }
    return left.compareTo(settings.timeout()) < 0 ? left : null;
  }

  /** The least time a retry that the budget let start may wait for the model. */
  static final Duration MINIMUM_LAST_ATTEMPT = Duration.ofSeconds(1);

  /** Whole seconds, at least 1, for messages. */
  static long seconds(Duration d) {
    return Math.max(1, Math.round(d.toMillis() / 1000.0));
  }
}
