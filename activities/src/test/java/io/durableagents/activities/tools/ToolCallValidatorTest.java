package io.durableagents.activities.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolCallValidatorTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** A schema with every kind the validator checks, written out by hand. */
  private static final JsonObjectSchema ORDER = JsonObjectSchema.builder()
      .addStringProperty("customer")
      .addIntegerProperty("quantity")
      .addNumberProperty("discount")
      .addBooleanProperty("express")
      .addEnumProperty("size", List.of("S", "M", "L"))
      .addProperty("tags", JsonArraySchema.builder().items(new JsonStringSchema()).build())
      .addProperty("address", JsonObjectSchema.builder()
          .addStringProperty("city")
          .addIntegerProperty("zip")
          .required("city")
          .build())
      .addProperty("lines", JsonArraySchema.builder().items(JsonObjectSchema.builder()
              .addStringProperty("sku")
              .addIntegerProperty("count")
              .required("sku", "count")
              .build())
          .build())
      .required("customer", "quantity")
      .build();

  private static List<String> check(String json) throws Exception {
    return ToolCallValidator.validate(ORDER, MAPPER.readTree(json));
  }

  @Test
  void argumentsThatFitHaveNoProblems() throws Exception {
    assertEquals(List.of(), check("{\"customer\":\"Ada\",\"quantity\":2}"));
    assertEquals(List.of(), check("{\"customer\":\"Ada\",\"quantity\":2.0,\"discount\":0.5,\"express\":true,"
        + "\"size\":\"M\",\"tags\":[\"gift\"],\"address\":{\"city\":\"Paris\",\"zip\":75001},"
        + "\"lines\":[{\"sku\":\"A-1\",\"count\":3}]}"));
    assertEquals(List.of(), check("{\"customer\":\"Ada\",\"quantity\":1,\"size\":null}"),
        "an optional property may be null");
  }

  @Test
  void requiredPropertiesMustBePresentAndNotNull() throws Exception {
    assertEquals(List.of("customer: required but missing", "quantity: required but missing"), check("{}"));
    assertEquals(List.of("quantity: required but missing"), check("{\"customer\":\"Ada\",\"quantity\":null}"));
    assertEquals(List.of("customer: required but missing", "quantity: required but missing"),
        ToolCallValidator.validate(ORDER, null), "no arguments at all count as {}");
  }

  @Test
  void typesAreChecked() throws Exception {
    assertEquals(List.of("customer: expected a string, got number 7"), check("{\"customer\":7,\"quantity\":1}"));
    assertEquals(List.of("quantity: expected an integer, got number 1.5"), check("{\"customer\":\"A\",\"quantity\":1.5}"));
    assertEquals(List.of("quantity: expected an integer, got string \"2\""), check("{\"customer\":\"A\",\"quantity\":\"2\"}"));
    assertEquals(List.of("discount: expected a number, got string \"10%\""),
        check("{\"customer\":\"A\",\"quantity\":1,\"discount\":\"10%\"}"));
    assertEquals(List.of("express: expected true or false, got string \"yes\""),
        check("{\"customer\":\"A\",\"quantity\":1,\"express\":\"yes\"}"));
    assertEquals(List.of("tags: expected an array, got string \"gift\""),
        check("{\"customer\":\"A\",\"quantity\":1,\"tags\":\"gift\"}"));
    assertEquals(List.of("address: expected an object, got string \"Paris\""),
        check("{\"customer\":\"A\",\"quantity\":1,\"address\":\"Paris\"}"));
    assertEquals(List.of("arguments: expected an object, got array [1]"), check("[1]"));
  }

  @Test
  void enumValuesAreChecked() throws Exception {
    assertEquals(List.of("size: \"XL\" is not one of S, M, L"), check("{\"customer\":\"A\",\"quantity\":1,\"size\":\"XL\"}"));
    assertEquals(List.of("size: 1 is not one of S, M, L"), check("{\"customer\":\"A\",\"quantity\":1,\"size\":1}"));
  }

  @Test
  void nestedObjectsAndArraysAreCheckedWithTheirPath() throws Exception {
    assertEquals(List.of("address.city: required but missing", "address.zip: expected an integer, got string \"x\""),
        check("{\"customer\":\"A\",\"quantity\":1,\"address\":{\"zip\":\"x\"}}"));
    assertEquals(List.of("tags[1]: expected a string, got number 2"),
        check("{\"customer\":\"A\",\"quantity\":1,\"tags\":[\"a\",2]}"));
    assertEquals(List.of("lines[0].count: required but missing", "lines[1].sku: expected a string, got number 5"),
        check("{\"customer\":\"A\",\"quantity\":1,\"lines\":[{\"sku\":\"A\"},{\"sku\":5,\"count\":1}]}"));
  }

  @Test
  void unknownPropertiesAreAnErrorAtEveryLevel() throws Exception {
    List<String> top = check("{\"customer\":\"A\",\"quantity\":1,\"colour\":\"red\"}");
    assertEquals(1, top.size());
    assertTrue(top.get(0).startsWith("colour: unknown argument; expected customer, quantity"), top.get(0));
    assertEquals(List.of("address.street: unknown argument; expected city, zip"),
        check("{\"customer\":\"A\",\"quantity\":1,\"address\":{\"city\":\"P\",\"street\":\"x\"}}"));
    JsonObjectSchema open = JsonObjectSchema.builder().addStringProperty("a").additionalProperties(true).build();
    assertEquals(List.of(), ToolCallValidator.validate(open, MAPPER.readTree("{\"a\":\"x\",\"b\":1}")),
        "unless the schema allows additional properties");
  }

  // ---- schemas as LangChain4j derives them from @Tool methods ----

  /** A tool with a nested record, a list, primitives, an enum and an optional parameter. */
  public static class Shipping {
    public enum Speed { standard, express }

    public record Parcel(String label, List<Integer> weightsInGrams) {}

    @Tool(name = "ship", value = "Ship parcels.")
    public String ship(@P("the parcel") Parcel parcel, @P("how many copies") int copies,
        @P("insured") boolean insured, @P("the speed") Speed speed,
        @P(value = "a note", required = false) String note) {
      return "shipped";
    }

    @Tool(name = "ping", value = "Ping.")
    public String ping() {
      return "pong";
    }
  }

  private static ToolSpecification tool(String name) {
    return ToolSpecifications.toolSpecificationsFrom(new Shipping()).stream()
        .filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void derivedSchemasAreCheckedToo() throws Exception {
    ToolSpecification ship = tool("ship");
    JsonNode ok = MAPPER.readTree("{\"parcel\":{\"label\":\"box\",\"weightsInGrams\":[100,250]},"
        + "\"copies\":2,\"insured\":false,\"speed\":\"express\"}");
    assertEquals(List.of(), ToolCallValidator.validate(ship, ok));
    List<String> bad = ToolCallValidator.validate(ship, MAPPER.readTree(
        "{\"parcel\":{\"label\":\"box\",\"weightsInGrams\":[100,\"heavy\"]},\"copies\":2,\"speed\":\"rocket\"}"));
    assertEquals(List.of("insured: required but missing",
        "parcel.weightsInGrams[1]: expected an integer, got string \"heavy\"",
        "speed: \"rocket\" is not one of standard, express"), bad);
  }

  @Test
  void aToolWithoutParametersTakesNoArguments() throws Exception {
    ToolSpecification ping = tool("ping");
    assertEquals(List.of(), ToolCallValidator.validate(ping, MAPPER.readTree("{}")));
    assertEquals(List.of(), ToolCallValidator.validate(ping, null));
    assertEquals(1, ToolCallValidator.validate(ping, MAPPER.readTree("{\"x\":1}")).size());
  }

  @Test
  void wholeValuePlaceholdersFitAnyTypeWhenThePredicateAllowsThem() throws Exception {
    ToolSpecification order = ToolSpecification.builder().name("order").parameters(ORDER).build();
    JsonNode args = MAPPER.readTree("{\"customer\":\"{{E1}}\",\"quantity\":\"{{E2.n}}\","
        + "\"address\":\"{{E3}}\",\"tags\":[\"{{E1}}\"],\"express\":\"{{E4}}\"}");
    assertEquals(List.of(), ToolCallValidator.validate(order, args,
        io.durableagents.workflows.agent.rewoo.Placeholders::isWholePlaceholder));
    assertEquals(3, ToolCallValidator.validate(order, args).size(),
        "without the predicate, quantity, address and express are strings of the wrong type");
    JsonNode embedded = MAPPER.readTree("{\"customer\":\"Ada\",\"quantity\":\"{{E2}} more\"}");
    assertEquals(List.of("quantity: expected an integer, got string \"{{E2}} more\""),
        ToolCallValidator.validate(order, embedded,
            io.durableagents.workflows.agent.rewoo.Placeholders::isWholePlaceholder));
  }
}
