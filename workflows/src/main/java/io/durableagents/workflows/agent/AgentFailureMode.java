package io.durableagents.workflows.agent;

import java.util.Locale;

/**
 * What an agent step that fails for good (a plan rejected twice, an LLM call that exhausted its
 * retries) does to a simulation: {@link #SKIP} records the step as failed, the agent takes no action
 * and the run goes on; {@link #STOP} ends the run with the failure.
 */
public enum AgentFailureMode {
  SKIP,
  STOP;

  /** The name on the command line: {@code skip}, {@code stop}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses {@code skip} or {@code stop}, in any case.
   *
   * @throws IllegalArgumentException naming the allowed values
   */
  public static AgentFailureMode parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new IllegalArgumentException("'" + text + "' is not one of: skip, stop");
    }
  }
}
