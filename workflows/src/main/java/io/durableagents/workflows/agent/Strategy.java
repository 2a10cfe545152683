package io.durableagents.workflows.agent;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The reasoning strategy an agent uses to turn an observation into actions. */
public enum Strategy {
  /**
   * Chain of thought, as in Mesa-LLM: a reasoning pass with the tools visible but tool choice "none"
   * (numbered thoughts ending in an action), then an execution pass that turns the plan into tool
   * calls. Two LLM calls per agent step.
   */
  COT;

  /**
   * Parses a strategy name case-insensitively.
   *
   * @throws IllegalArgumentException naming the allowed values
   */
  public static Strategy parse(String value) {
    for (Strategy s : values()) {
      if (s.name().equalsIgnoreCase(value == null ? "" : value.trim())) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "strategy '" + value + "' is not one of: " + allowed());
  }

  /** The allowed names, lower case, comma separated. */
  public static String allowed() {
    return Arrays.stream(values())
        .map(s -> s.name().toLowerCase(Locale.ROOT))
        .collect(Collectors.joining(", "));
  }
}
