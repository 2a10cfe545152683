package io.durableagents.workflows.agent.react;

import io.durableagents.workflows.llm.ToolCall;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Keeps the tool call ids of one ReAct run unique. A provider that gives no ids gets {@code call-1},
 * {@code call-2}... from the activity in every answer; an id is part of the tool call's idempotency
 * key, so a repeated one is renamed (deterministically) in the conversation too. Pure, so workflow
 * code.
 */
final class UniqueCallIds {
  // Only asked whether it contains an id: its order never matters.
  private final Set<String> callIds = new HashSet<>();

  /** The calls of turn {@code iteration} with ids unique in this run. */
  List<ToolCall> of(List<ToolCall> calls, int iteration) {
    List<ToolCall> unique = new ArrayList<>();
    for (ToolCall c : calls) {
      String id = c.id();
      if (id == null || id.isBlank() || callIds.contains(id)) {
        String base = (id == null || id.isBlank() ? "call" : id) + "-t" + iteration;
        id = base;
        for (int n = 2; callIds.contains(id); n++) {
          id = base + "-" + n;
        }
      }
      callIds.add(id);
      unique.add(id.equals(c.id()) ? c
          : new ToolCall(id, c.name(), c.arguments(), c.rawArguments(), c.error()));
    }
    return unique;
  }
}
