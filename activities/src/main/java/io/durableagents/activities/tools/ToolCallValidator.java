package io.durableagents.activities.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Checks a tool call's arguments against the tool's JSON schema (as LangChain4j derives it from
 * {@code @Tool}/{@code @P}): required properties, types, enum values, nested objects and arrays, and no
 * unknown properties. The result is a readable list of what is wrong, for the model to correct.
 */
public final class ToolCallValidator {
  private ToolCallValidator() {}

  /** What is wrong with {@code arguments}, or an empty list when they fit. */
  public static List<String> validate(ToolSpecification tool, JsonNode arguments) {
    List<String> errors = new ArrayList<>();
    JsonObjectSchema schema = tool.parameters();
    if (arguments == null || arguments.isNull()) {
      arguments = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    }
    if (schema == null) {
      if (arguments.isObject() && arguments.size() > 0) {
        errors.add(tool.name() + " takes no arguments");
      }
      return errors;
    }
    check(schema, arguments, "", errors);
    return errors;
  }

  private static void check(JsonSchemaElement schema, JsonNode value, String path, List<String> errors) {
    String where = path.isEmpty() ? "arguments" : path;
    if (schema instanceof JsonObjectSchema) {
      JsonObjectSchema o = (JsonObjectSchema) schema;
      if (!value.isObject()) {
        errors.add(where + ": expected an object, got " + value.getNodeType().name().toLowerCase());
        return;
      }
      Map<String, JsonSchemaElement> props = o.properties() == null ? Map.of() : o.properties();
      if (o.required() != null) {
        for (String r : o.required()) {
          if (!value.has(r) || value.get(r).isNull()) {
            errors.add(prefix(path) + r + ": required but missing");
          }
        }
      }
      for (Iterator<String> it = value.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        JsonSchemaElement p = props.get(name);
        if (p == null) {
          if (!Boolean.TRUE.equals(o.additionalProperties())) {
            errors.add(prefix(path) + name + ": unknown argument; expected " + props.keySet());
          }
        } else if (!value.get(name).isNull()) {
          check(p, value.get(name), prefix(path) + name, errors);
        }
      }
    } else if (schema instanceof JsonStringSchema) {
      if (!value.isTextual()) {
        errors.add(where + ": expected a string, got " + value);
      }
    } else if (schema instanceof JsonIntegerSchema) {
      if (!(value.isIntegralNumber() || (value.isNumber() && value.asDouble() == Math.rint(value.asDouble())))) {
        errors.add(where + ": expected an integer, got " + value);
      }
    } else if (schema instanceof JsonNumberSchema) {
      if (!value.isNumber()) {
        errors.add(where + ": expected a number, got " + value);
      }
    } else if (schema instanceof JsonBooleanSchema) {
      if (!value.isBoolean()) {
        errors.add(where + ": expected true or false, got " + value);
      }
    } else if (schema instanceof JsonEnumSchema) {
      List<String> allowed = ((JsonEnumSchema) schema).enumValues();
      if (!value.isTextual() || !allowed.contains(value.asText())) {
        errors.add(where + ": " + value + " is not one of " + String.join(", ", allowed));
      }
    } else if (schema instanceof JsonArraySchema) {
      if (!value.isArray()) {
        errors.add(where + ": expected an array, got " + value);
        return;
      }
      JsonSchemaElement items = ((JsonArraySchema) schema).items();
      if (items != null) {
        for (int i = 0; i < value.size(); i++) {
          check(items, value.get(i), where + "[" + i + "]", errors);
        }
      }
    } else if (schema instanceof JsonAnyOfSchema) {
      for (JsonSchemaElement option : ((JsonAnyOfSchema) schema).anyOf()) {
        List<String> e = new ArrayList<>();
        check(option, value, path, e);
        if (e.isEmpty()) {
          return;
        }
      }
      errors.add(where + ": " + value + " fits none of the allowed forms");
    }
    // other schema kinds (references, null) are not checked here
  }

  private static String prefix(String path) {
    return path.isEmpty() ? "" : path + ".";
  }
}
