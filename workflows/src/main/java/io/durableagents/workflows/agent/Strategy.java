package io.durableagents.workflows.agent;

import io.durableagents.api.Observation;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The reasoning strategy an agent uses to turn an observation (or a task) into actions. */
public enum Strategy {
  /**
   * Chain of thought, as in Mesa-LLM: a reasoning pass with the tools visible but tool choice "none"
   * (numbered thoughts ending in an action), then an execution pass that turns the plan into tool
   * calls. Two LLM calls per agent step.
   */
  COT,

  /**
   * ReAct: Thought, Action, Observation as a bounded loop. Each model turn is one LLM call; each
   * external tool call is an activity whose result is the next observation. The loop ends on a
   * {@code finish} action, a plain answer or a world action, and at its bound with a forced finish.
   */
  REACT,

  /**
   * ReWOO: a planner call returns a JSON plan of tool calls with {@code {{En}}} placeholders, the
   * worker runs it level by level in parallel, a solver call writes the answer. In simulations the
   * plan lives for its TTL: one planned step per simulation step, with no LLM call on later steps.
   */
  REWOO;

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

  /** The name as users write it: {@code cot}, {@code react}, {@code rewoo}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
