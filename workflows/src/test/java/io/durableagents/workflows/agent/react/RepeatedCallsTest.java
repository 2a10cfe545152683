package io.durableagents.workflows.agent.react;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.api.Json;
import io.durableagents.workflows.llm.ToolCall;
import org.junit.jupiter.api.Test;

/** The same tool with the same arguments, in a row, up to the limit. */
class RepeatedCallsTest {
  @Test
  void theLimitIsReachedBySameCallsInARowOnly() {
    RepeatedCalls repeats = new RepeatedCalls(3);
    assertFalse(repeats.count("lookup", "{\"q\":\"a\"}"));
    assertFalse(repeats.count("lookup", "{\"q\":\"a\"}"));
    assertFalse(repeats.count("lookup", "{\"q\":\"b\"}"), "other arguments start again");
    assertFalse(repeats.count("lookup", "{\"q\":\"b\"}"));
    assertTrue(repeats.count("lookup", "{\"q\":\"b\"}"));
    assertEquals("repeated action (lookup with the same arguments 3 times in a row)", repeats.reason("lookup"));
  }

  @Test
  void argumentsInAnotherKeyOrderAreTheSame() throws Exception {
    ToolCall ab = new ToolCall("1", "move", Json.MAPPER.readTree("{\"a\":1,\"b\":2}"), null, null);
    ToolCall ba = new ToolCall("2", "move", Json.MAPPER.readTree("{\"b\":2,\"a\":1}"), null, null);
    assertEquals(RepeatedCalls.signature(ab), RepeatedCalls.signature(ba));
    assertEquals("not json", RepeatedCalls.signature(new ToolCall("3", "move", null, "not json", null)));
  }
}
