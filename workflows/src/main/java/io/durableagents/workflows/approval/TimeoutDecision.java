package io.durableagents.workflows.approval;

import java.util.Locale;

/** What a tool call that waited its whole {@code approval_timeout} becomes. */
public enum TimeoutDecision {
  /** It runs, as if approved. */
  APPROVE,
  /** It does not run; the model reads that nobody approved it in time. */
  DENY;

  /** {@code approve} or {@code deny}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The decision named {@code text} ({@code approve}, {@code deny}, any case).
   *
   * @throws IllegalArgumentException naming the allowed values
   */
  public static TimeoutDecision parse(String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    switch (t) {
      case "approve":
      case "approved":
        return APPROVE;
      case "deny":
      case "denied":
        return DENY;
      default:
        throw new IllegalArgumentException("'" + text + "' is not a decision: approve or deny");
    }
  }
}
