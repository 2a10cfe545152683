package io.durableagents.workflows.agent.react;

import io.durableagents.api.Json;
import io.durableagents.workflows.llm.ToolCall;

/**
 * Counts calls of the same tool with the same arguments in a row, across the turns of one ReAct run,
 * so that the loop is forced to finish when an agent repeats itself {@code repeatLimit} times. Pure, so
 * workflow code.
 */
final class RepeatedCalls {
  private final int repeatLimit;
  private String lastSignature;
  private int sameInARow;

  /** Counts up to {@code repeatLimit} calls in a row. */
  RepeatedCalls(int repeatLimit) {
    this.repeatLimit = repeatLimit;
  }

  /**
   * Counts calls of the same tool with the same arguments in a row, across turns; true when this
   * call reaches {@code repeatLimit}.
   */
  boolean count(String tool, String arguments) {
    String signature = tool + " " + arguments;
    if (signature.equals(lastSignature)) {
      sameInARow++;
    } else {
      lastSignature = signature;
      sameInARow = 1;
    }
    return sameInARow >= repeatLimit;
  }

  /** Why the loop was forced to finish when {@code tool} was repeated. */
  String reason(String tool) {
    return "repeated action (" + tool + " with the same arguments " + repeatLimit
        + " times in a row)";
  }

  /** Arguments as sorted-key JSON, so that the same arguments in another key order count as the same. */
  static String signature(ToolCall call) {
    if (call.arguments() == null) {
      return String.valueOf(call.rawArguments());
    }
    return Json.write(Json.MAPPER.convertValue(call.arguments(), Object.class));
  }
}
