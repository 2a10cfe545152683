package io.durableagents.workflows.autonomous;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How an autonomous agent's turns are orchestrated: what it is asked before its first turn, what it
 * is told between turns, and when the run is over. Within a turn the agent always works as ReAct.
 */
public enum ReasoningPattern {
  /** One ReAct loop: the run ends when the agent answers. */
  REACT,
  /** Plan a todo list first, then "get the next item" turns until every item is terminal. */
  TODO_DRIVEN,
  /** A planning phase ended by {@code finalize_plan} (never on an empty plan), then execution. */
  PLAN_EXECUTE,
  /** Work until done, then self-critique rounds over dimensions, optionally gated by an LLM judge. */
  REFLEXION;

  /**
   * Parses a pattern name as the spec writes it ({@code todo_driven}).
   *
   * @throws IllegalArgumentException naming the allowed values
   */
  public static ReasoningPattern parse(String value) {
    for (ReasoningPattern p : values()) {
      if (p.label().equals(value == null ? "" : value.strip().toLowerCase(Locale.ROOT))) {
        return p;
      }
    }
    throw new IllegalArgumentException("'" + value + "' is not one of: " + allowed());
  }

  /** The allowed names, comma separated. */
  public static String allowed() {
    return Arrays.stream(values()).map(ReasoningPattern::label).collect(Collectors.joining(", "));
  }

  /** The name as the spec writes it: {@code react}, {@code todo_driven}, ... */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
