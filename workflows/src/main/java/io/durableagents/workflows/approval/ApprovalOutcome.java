package io.durableagents.workflows.approval;

import java.util.Locale;

/** How a tool call that waited for approval was decided. */
public enum ApprovalOutcome {
  /** A person approved it: it ran with the model's arguments. */
  APPROVED,
  /** A person approved it with other arguments: it ran with theirs. */
  EDITED,
  /** A person denied it, with a reason: it did not run. */
  DENIED,
  /** Nobody decided within the timeout, whose default was approve: it ran. */
  TIMEOUT_APPROVED,
  /** Nobody decided within the timeout, whose default was deny: it did not run. */
  TIMEOUT_DENIED,
  /**
   * The wait itself was cancelled (the run's timeout guardrail, a cancelled sub-agent or run) before
   * anyone decided: it did not run.
   */
  CANCELLED;

  /** The metric tag and the CLI's word: {@code approved}, {@code timeout_denied}, ... */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether the call runs. */
  public boolean runs() {
    return this == APPROVED || this == EDITED || this == TIMEOUT_APPROVED;
  }
}
