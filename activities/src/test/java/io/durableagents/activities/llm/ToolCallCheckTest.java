package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import io.durableagents.workflows.llm.ToolCall;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A model's tool call checked against the tools it was offered, with errors the agent can correct. */
class ToolCallCheckTest {
  private static final Map<String, ToolSpecification> OFFERED = Map.of("lookup", ToolSpecification.builder()
      .name("lookup").parameters(JsonObjectSchema.builder().addStringProperty("key").required("key").build())
      .build());

  private static ToolCall check(String name, String arguments) {
    return ToolCallCheck.checkToolCall(
        ToolExecutionRequest.builder().name(name).arguments(arguments).build(), 2, OFFERED);
  }

  @Test
  void aValidCallWithoutAnIdIsNamedByItsPlace() {
    ToolCall call = check("lookup", "{\"key\":\"k1\"}");
    assertNull(call.error());
    assertEquals("call-3", call.id());
  }

  @Test
  void anUnknownToolBrokenJsonAndAMissingArgumentAreErrors() {
    assertEquals("unknown tool 'find'; available tools: lookup", check("find", "{}").error());
    ToolCall broken = check("lookup", "{key");
    assertEquals("{key", broken.rawArguments());
    assertTrue(broken.error().startsWith("the arguments of lookup are not valid JSON ("), broken.error());
    assertTrue(check("lookup", "").error().startsWith("the arguments of lookup do not fit its schema: "));
  }
}
