package io.durableagents.workflows.agent.rewoo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Typed placeholder substitution. */
class PlaceholdersTest {
  private static JsonNode json(String text) {
    return Json.tryParse(text);
  }

  private static JsonNode resolved(String args, Map<String, String> outputs) {
    Placeholders.Resolved r = Placeholders.resolve(json(args), outputs);
    assertNull(r.error(), r.error());
    return r.arguments();
  }

  @Test
  void aWholeValueKeepsTheOutputsJsonType() {
    JsonNode args = resolved("{\"n\":\"{{E1}}\",\"o\":\"{{E2}}\",\"l\":\"{{E3}}\",\"t\":\"{{E4}}\",\"b\":\"{{E5}}\"}",
        Map.of("E1", "391", "E2", "{\"city\":\"Paris\",\"zip\":75001}", "E3", "[1,2]",
            "E4", "sunny and warm", "E5", "true"));
    assertTrue(args.get("n").isNumber(), "a number stays a number: " + args);
    assertEquals(391, args.get("n").asInt());
    assertTrue(args.get("o").isObject(), "an object stays an object");
    assertEquals("Paris", args.get("o").get("city").asText());
    assertTrue(args.get("l").isArray());
    assertTrue(args.get("t").isTextual(), "text that is not JSON is a JSON string");
    assertEquals("sunny and warm", args.get("t").asText());
    assertTrue(args.get("b").isBoolean());
  }

  @Test
  void insideALongerStringThePlaceholderIsReplacedByText() {
    JsonNode args = resolved("{\"expression\":\"{{E1}} + 9\",\"note\":\"in {{E2.city}}: {{E2}}\"}",
        Map.of("E1", "391", "E2", "{\"city\":\"Paris\"}"));
    assertEquals("391 + 9", args.get("expression").asText());
    assertEquals("in Paris: {\"city\":\"Paris\"}", args.get("note").asText());
  }

  @Test
  void aPathReachesIntoAStructuredOutputIncludingArrayElements() {
    Map<String, String> outputs = Map.of("E1", "{\"weather\":{\"temp\":21.5,\"days\":[\"mon\",\"tue\"]}}");
    JsonNode args = resolved("{\"t\":\"{{E1.weather.temp}}\",\"d\":\"{{E1.weather.days.1}}\",\"w\":\"{{E1.weather}}\"}",
        outputs);
    assertEquals(21.5, args.get("t").asDouble());
    assertTrue(args.get("t").isNumber());
    assertEquals("tue", args.get("d").asText());
    assertTrue(args.get("w").isObject());
  }

  @Test
  void aMissingPathIsAClearErrorNotACrash() {
    Placeholders.Resolved r = Placeholders.resolve(json("{\"t\":\"{{E1.weather.wind}}\"}"),
        Map.of("E1", "{\"weather\":{\"temp\":21}}"));
    assertNull(r.arguments());
    assertEquals("{{E1.weather.wind}}: E1.weather has no field 'wind' (its fields are temp)", r.error());

    Placeholders.Resolved text = Placeholders.resolve(json("{\"t\":\"{{E1.a}}\"}"), Map.of("E1", "plain words"));
    assertTrue(text.error().contains("it is text, not JSON"), text.error());

    Placeholders.Resolved unknown = Placeholders.resolve(json("{\"t\":\"{{E7}}\"}"), Map.of());
    assertEquals("{{E7}}: step E7 has no output", unknown.error());
  }

  @Test
  void theTextFormIsTextEvenAsAWholeValue() {
    JsonNode args = resolved("{\"expression\":\"{{E1|text}}\",\"city\":\"{{E2.city|text}}\"}",
        Map.of("E1", "391", "E2", "{\"city\":\"Paris\"}"));
    assertTrue(args.get("expression").isTextual());
    assertEquals("391", args.get("expression").asText());
    assertEquals("Paris", args.get("city").asText());
    assertEquals("{{E1.a|text}}", Placeholders.asText("{{E1.a}}"));
  }

  @Test
  void argumentsWithoutPlaceholdersAreUnchangedAndNestedOnesAreFound() {
    JsonNode args = json("{\"a\":1,\"b\":[\"x\",{\"c\":\"{{E2}} and {{E1}}\"}],\"d\":\"{{E2}}\"}");
    assertEquals(List.of("E2", "E1"), List.copyOf(Placeholders.references(args)));
    assertEquals(json("{\"a\":1}"), resolved("{\"a\":1}", Map.of()));
    JsonNode nested = resolved("{\"b\":[\"{{E1}}\",{\"c\":\"{{E1}}!\"}]}", Map.of("E1", "5"));
    assertEquals(json("{\"b\":[5,{\"c\":\"5!\"}]}"), nested);
    assertTrue(Placeholders.isWholePlaceholder(" {{E1.x}} "));
    assertFalse(Placeholders.isWholePlaceholder("{{E1}} + 1"));
    assertFalse(Placeholders.isWholePlaceholder("{{not a placeholder}}"));
  }
}
