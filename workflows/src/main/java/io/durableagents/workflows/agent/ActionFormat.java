package io.durableagents.workflows.agent;

import java.util.Locale;

/**
 * How a ReAct agent states its actions.
 *
 * <ul>
 *   <li>{@link #FUNCTION_CALLING} (default): the provider's native tool calls, checked against each
 *       tool's JSON schema by the LLM activity;
 *   <li>{@link #TEXT}: the original ReAct text format, {@code Action: tool[{"arg": ...}]} and {@code
 *       Action: finish[answer]}, for models without tool support. A line that cannot be parsed comes
 *       back to the model as an observation saying what was wrong.
 * </ul>
 */
public enum ActionFormat {
  FUNCTION_CALLING,
  TEXT;

  /**
   * Parses {@code function-calling}/{@code function_calling}/{@code native} or {@code text},
   * case-insensitively.
   *
   * @throws IllegalArgumentException naming the allowed values
   */
  public static ActionFormat parse(String value) {
    String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT).replace('-', '_');
    switch (v) {
      case "function_calling":
      case "native":
      case "tools":
        return FUNCTION_CALLING;
      case "text":
        return TEXT;
      default:
        throw new IllegalArgumentException(
            "action format '" + value + "' is not one of: function-calling, text");
    }
  }
}
