package io.durableagents.workflows.agent.react;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.durableagents.api.Json;
import io.durableagents.workflows.llm.ToolCall;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tool call ids stay unique within a run, since they are part of each call's idempotency key. */
class UniqueCallIdsTest {
  private static ToolCall call(String id) {
    return new ToolCall(id, "calculator", Json.object(), "{}", null);
  }

  private static List<String> ids(List<ToolCall> calls) {
    return calls.stream().map(ToolCall::id).toList();
  }

  @Test
  void aRepeatedOrMissingIdIsRenamedAfterItsTurn() {
    UniqueCallIds ids = new UniqueCallIds();
    ToolCall first = call("call-1");
    List<ToolCall> turn1 = ids.of(List.of(first, call(null)), 1);
    assertSame(first, turn1.get(0), "a new id is kept as it is");
    assertEquals(List.of("call-1", "call-t1"), ids(turn1));
    // a provider that numbers from 1 in every answer
    assertEquals(List.of("call-1-t2", "call-2"), ids(ids.of(List.of(call("call-1"), call("call-2")), 2)));
    assertEquals(List.of("call-1-t2-2", "call-t2"), ids(ids.of(List.of(call("call-1"), call(" ")), 2)));
  }
}
