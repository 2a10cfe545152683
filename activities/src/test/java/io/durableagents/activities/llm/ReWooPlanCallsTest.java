package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import io.durableagents.workflows.llm.ToolCall;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The activity side of ReWOO plans: steps read as tool calls, checked with placeholders allowed. */
class ReWooPlanCallsTest {
  private static final ToolSpecification ORDER = ToolSpecification.builder().name("order")
      .parameters(JsonObjectSchema.builder()
          .addProperty("item", JsonStringSchema.builder().build())
          .addProperty("count", JsonIntegerSchema.builder().build())
          .addProperty("size", JsonEnumSchema.builder().enumValues("S", "M", "L").build())
          .addProperty("notes", JsonArraySchema.builder().items(JsonStringSchema.builder().build()).build())
          .required("item", "count")
          .build())
      .build();

  private static Map<String, ToolSpecification> offered() {
    Map<String, ToolSpecification> m = new LinkedHashMap<>();
    m.put("order", ORDER);
    return m;
  }

  private static List<ToolCall> check(String plan) {
    return ReWooPlanCalls.check(plan, offered());
  }

  @Test
  void aBareArrayAndTheObjectFormGiveTheSameCallsWithTheStepIdsAsIds() {
    String steps = "[{\"id\":\"E1\",\"tool\":\"order\",\"args\":{\"item\":\"tea\",\"count\":2}}]";
    List<ToolCall> bare = check(steps);
    List<ToolCall> wrapped = check("{\"plan\":" + steps + "}");
    assertEquals(bare, wrapped);
    assertEquals(1, bare.size());
    assertEquals("E1", bare.get(0).id());
    assertEquals("order", bare.get(0).name());
    assertTrue(bare.get(0).valid());
  }

  @Test
  void aWholeValuePlaceholderFitsAnyTypeAndBecomesTextWhereAStringIsExpected() {
    List<ToolCall> calls = check("[{\"id\":\"E2\",\"tool\":\"order\",\"args\":{\"item\":\"{{E1}}\","
        + "\"count\":\"{{E1.n}}\",\"size\":\"{{E1.size}}\",\"notes\":[\"{{E1}}\",\"plain\"]}}]");
    ToolCall call = calls.get(0);
    assertNull(call.error());
    assertEquals("{{E1|text}}", call.arguments().get("item").asText());
    assertEquals("{{E1.n}}", call.arguments().get("count").asText(), "an integer stays a typed value");
    assertEquals("{{E1.size|text}}", call.arguments().get("size").asText());
    assertEquals("{{E1|text}}", call.arguments().get("notes").get(0).asText());
    assertEquals("plain", call.arguments().get("notes").get(1).asText());
  }

  @Test
  void aStringWithAPlaceholderInsideIsCheckedAsTheStringItIs() {
    ToolCall call = check("[{\"id\":\"E2\",\"tool\":\"order\",\"args\":{\"item\":\"tea\","
        + "\"count\":\"{{E1}} cups\"}}]").get(0);
    assertTrue(call.error().contains("count: expected an integer"), call.error());
  }

  @Test
  void wrongTypesMissingArgumentsAndUnknownToolsAreErrorsPerStep() {
    List<ToolCall> calls = check("[{\"id\":\"E1\",\"tool\":\"order\",\"args\":{\"item\":3}},"
        + "{\"id\":\"E2\",\"tool\":\"fly\",\"args\":{}},"
        + "{\"id\":\"E3\",\"tool\":\"order\",\"args\":[1]},"
        + "\"E4\"]");
    assertEquals(4, calls.size(), "one call per element, so the workflow can match them by position");
    assertTrue(calls.get(0).error().contains("item: expected a string"), calls.get(0).error());
    assertTrue(calls.get(0).error().contains("count: required but missing"), calls.get(0).error());
    assertTrue(calls.get(1).error().startsWith("unknown tool 'fly'"), calls.get(1).error());
    assertTrue(calls.get(2).error().contains("must be an object"), calls.get(2).error());
    assertEquals("step-4", calls.get(3).id());
    assertTrue(calls.get(3).error().contains("not an object"));
  }

  @Test
  void textThatIsNotAPlanGivesNoCalls() {
    assertEquals(List.of(), check("I would use the order tool."));
    assertEquals(List.of(), check("{\"steps\":[]}"));
    assertEquals(List.of(), check(null));
  }
}
