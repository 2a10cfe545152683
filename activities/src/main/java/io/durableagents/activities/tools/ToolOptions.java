package io.durableagents.activities.tools;

import io.durableagents.workflows.tools.ToolCallOptions;
import io.durableagents.workflows.tools.ToolPolicy;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How the calls of a registered tool run as Temporal activities: the time an attempt may take, the
 * heartbeat timeout, the retry policy and the exceptions that are not retried. Give them to every tool
 * of an object with {@code DurableAgentsPlugin.Builder.registerTool(Object, ToolOptions)}, or to one
 * {@code @Tool} method with {@link DurableTool}, whose attributes win over these.
 *
 * <pre>{@code
 * ToolOptions slow = ToolOptions.newBuilder()
 *     .setStartToCloseTimeout(Duration.ofMinutes(5))
 *     .setHeartbeatTimeout(Duration.ofSeconds(10))
 *     .setMaximumAttempts(5)
 *     .addNonRetryable(AccountClosedException.class)
 *     .build();
 * DurableAgentsPlugin.newBuilder().registerTool(new BankTools(), slow);
 * }</pre>
 *
 * <p>The defaults, today's for every tool, are those of {@link ToolCallOptions}: 1 min an attempt, a
 * heartbeat timeout of 10 s, 3 attempts, retries after 1 s, then twice as long each time up to 10 s,
 * and no non-retryable exceptions but {@link IllegalArgumentException}, which is never a failure: a
 * tool throws it for bad input, and the agent reads it as an observation it can correct.
 */
public final class ToolOptions {
  private static final ToolOptions DEFAULTS = newBuilder().build();

  private final ToolPolicy policy;
  private final List<Class<? extends Throwable>> nonRetryable;
  private final boolean requiresApproval;

  private ToolOptions(ToolPolicy policy, List<Class<? extends Throwable>> nonRetryable, boolean requiresApproval) {
    this.policy = policy;
    this.nonRetryable = List.copyOf(nonRetryable);
    this.requiresApproval = requiresApproval;
  }

  /**
   * Whether every call of the tool waits for a person's decision ({@code approve}, {@code deny} or {@code
   * edit}) before it runs, in every run on this worker.
   */
  public boolean requiresApproval() {
    return requiresApproval;
  }

  /** Today's defaults for every tool. */
  public static ToolOptions defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the defaults. */
  public static Builder newBuilder() {
    return new Builder(ToolPolicy.DEFAULT, List.of(), false);
  }

  /** A builder starting from {@code options}. */
  public static Builder newBuilder(ToolOptions options) {
    return new Builder(options.policy, options.nonRetryable, options.requiresApproval);
  }

  /** The timeouts and retry policy, as workflow code reads them. */
  public ToolPolicy policy() {
    return policy;
  }

  /** The exception types that fail a call at once, without a retry. */
  public List<Class<? extends Throwable>> nonRetryable() {
    return nonRetryable;
  }

  /** Whether {@code thrown} is of one of the {@link #nonRetryable()} types (or a subclass). */
  public boolean isNonRetryable(Throwable thrown) {
    for (Class<? extends Throwable> type : nonRetryable) {
      if (type.isInstance(thrown)) {
        return true;
      }
    }
    return false;
  }

  /**
   * These options with the attributes {@code annotation} sets put over them.
   *
   * @throws IllegalArgumentException naming the attribute whose value is not allowed
   */
  ToolOptions with(DurableTool annotation) {
    if (annotation == null) {
      return this;
    }
    Builder b = newBuilder(this);
    if (!annotation.startToClose().isBlank()) {
      b.setStartToCloseTimeout(duration("startToClose", annotation.startToClose()));
    }
    if (!annotation.heartbeat().isBlank()) {
      b.setHeartbeatTimeout(duration("heartbeat", annotation.heartbeat()));
    }
    if (annotation.maximumAttempts() != 0) {
      b.setMaximumAttempts(annotation.maximumAttempts());
    }
    if (!annotation.initialInterval().isBlank()) {
      b.setInitialInterval(duration("initialInterval", annotation.initialInterval()));
    }
    if (annotation.backoffCoefficient() != 0) {
      b.setBackoffCoefficient(annotation.backoffCoefficient());
    }
    if (!annotation.maximumInterval().isBlank()) {
      b.setMaximumInterval(duration("maximumInterval", annotation.maximumInterval()));
    }
    b.addNonRetryable(annotation.nonRetryable());
    if (annotation.requiresApproval()) {
      b.setRequiresApproval(true);
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      // The policy names its settings; the annotation calls two of them by shorter names.
      String message = e.getMessage().replaceFirst("^startToCloseTimeout", "startToClose")
          .replaceFirst("^heartbeatTimeout", "heartbeat");
      throw new IllegalArgumentException("@DurableTool " + message, e);
    }
  }

  private static Duration duration(String attribute, String text) {
    try {
      return Duration.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("@DurableTool " + attribute + " '" + text
          + "' is not allowed: an ISO-8601 duration such as PT30S, PT5M or PT0.5S");
    }
  }

  @Override
  public String toString() {
    return "ToolOptions" + policy + " nonRetryable=" + nonRetryable.stream().map(Class::getName).toList()
        + (requiresApproval ? " requiresApproval" : "");
  }

  /** Builds {@link ToolOptions}; every setting starts at its default. */
  public static final class Builder {
    private Duration startToCloseTimeout;
    private Duration heartbeatTimeout;
    private int maximumAttempts;
    private Duration initialInterval;
    private double backoffCoefficient;
    private Duration maximumInterval;
    private final Set<Class<? extends Throwable>> nonRetryable = new LinkedHashSet<>();
    private boolean requiresApproval;

    private Builder(ToolPolicy from, List<Class<? extends Throwable>> nonRetryable, boolean requiresApproval) {
      this.requiresApproval = requiresApproval;
      this.startToCloseTimeout = from.startToCloseTimeout();
      this.heartbeatTimeout = from.heartbeatTimeout();
      this.maximumAttempts = from.maximumAttempts();
      this.initialInterval = from.initialInterval();
      this.backoffCoefficient = from.backoffCoefficient();
      this.maximumInterval = from.maximumInterval();
      this.nonRetryable.addAll(nonRetryable);
    }

    /** The longest one attempt may run (default {@link ToolCallOptions#START_TO_CLOSE}). */
    public Builder setStartToCloseTimeout(Duration startToCloseTimeout) {
      this.startToCloseTimeout = startToCloseTimeout;
      return this;
    }

    /**
     * How long an attempt may go without a heartbeat before Temporal retries it (default {@link
     * ToolCallOptions#HEARTBEAT_TIMEOUT}; zero: none). The worker heartbeats while the tool runs.
     */
    public Builder setHeartbeatTimeout(Duration heartbeatTimeout) {
      this.heartbeatTimeout = heartbeatTimeout;
      return this;
    }

    /** Attempts in all, the first included (default {@link ToolCallOptions#MAXIMUM_ATTEMPTS}; 1: no retry). */
    public Builder setMaximumAttempts(int maximumAttempts) {
      this.maximumAttempts = maximumAttempts;
      return this;
    }

    /** The wait before the first retry (default {@link ToolCallOptions#INITIAL_INTERVAL}). */
    public Builder setInitialInterval(Duration initialInterval) {
      this.initialInterval = initialInterval;
      return this;
    }

    /** How much the wait grows per retry (default {@link ToolCallOptions#BACKOFF_COEFFICIENT}). */
    public Builder setBackoffCoefficient(double backoffCoefficient) {
      this.backoffCoefficient = backoffCoefficient;
      return this;
    }

    /** The longest wait between attempts (default {@link ToolCallOptions#MAXIMUM_INTERVAL}). */
    public Builder setMaximumInterval(Duration maximumInterval) {
      this.maximumInterval = maximumInterval;
      return this;
    }

    /**
     * Adds exception types that fail a call at once, reported once and never retried (their
     * subclasses too).
     */
    @SafeVarargs
    public final Builder addNonRetryable(Class<? extends Throwable>... types) {
      for (Class<? extends Throwable> type : types) {
        if (type == null) {
          throw new IllegalArgumentException("nonRetryable: an exception type is null");
        }
        nonRetryable.add(type);
      }
      return this;
    }

    /**
     * Whether every call waits for a person's decision before it runs (default false); see {@code
     * docs/approvals.md}.
     */
    public Builder setRequiresApproval(boolean requiresApproval) {
      this.requiresApproval = requiresApproval;
      return this;
    }

    /**
     * The options.
     *
     * @throws IllegalArgumentException naming the setting whose value is not allowed, and what is
     */
    public ToolOptions build() {
      ToolPolicy policy = new ToolPolicy(startToCloseTimeout, heartbeatTimeout, maximumAttempts,
          initialInterval, backoffCoefficient, maximumInterval);
      return new ToolOptions(policy, new ArrayList<>(nonRetryable), requiresApproval);
    }
  }
}
