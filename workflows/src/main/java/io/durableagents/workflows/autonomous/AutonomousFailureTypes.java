package io.durableagents.workflows.autonomous;

/** The failure types of autonomous runs. */
public final class AutonomousFailureTypes {
  /** The input has no spec or an empty prompt: nothing to run. Not retryable. */
  public static final String INVALID_SPEC = "AutonomousInvalidSpec";

  private AutonomousFailureTypes() {}
}
