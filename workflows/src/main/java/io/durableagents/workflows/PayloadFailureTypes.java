package io.durableagents.workflows;

/** The failure type of an output too large for history, when the worker is set to reject it. */
public final class PayloadFailureTypes {
  /** A model answer or tool output exceeded the configured limit (non-retryable). */
  public static final String PAYLOAD_TOO_LARGE = "PayloadTooLarge";

  private PayloadFailureTypes() {}
}
