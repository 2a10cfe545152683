package io.durableagents.activities.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Checks a tool call's arguments against the tool's JSON schema, as LangChain4j derives it from
 * {@code @Tool}/{@code @P} ({@link JsonObjectSchema} and its elements): required properties, the types
 * string, integer, number, boolean, array and object, enum values, nested objects and arrays,
 * references to the schema's definitions, and no properties the schema does not name (unless it
 * allows additional properties). A property that is present but {@code null} counts as missing.
 *
 * <p>The result is a list of what is wrong, each naming the argument's path, in words a model can act
 * on; empty when the arguments fit.
 *
 * <p>For the steps of a ReWOO plan, whose arguments may hold {@code {{E1}}} placeholders filled in
 * only when the step runs, a predicate says which string values are whole-value placeholders: such a
 * value fits any schema (its type is known only later), while a string with a placeholder inside it
 * is checked as the string it is.
 *
 * <pre>{@code
 * List<String> problems = ToolCallValidator.validate(tool.specification(), arguments);
 * // e.g. ["direction: \"Up\" is not one of North, NorthEast, ...", "speed: unknown argument; ..."]
 * }</pre>
 */
public final class ToolCallValidator {
  /** No string is a placeholder: every value is checked as it is. */
  private static final Predicate<String> NO_PLACEHOLDERS = text -> false;

  private ToolCallValidator() {}

  /**
   * What is wrong with {@code arguments} for {@code tool}, or an empty list when they fit. A tool
   * without parameters takes no arguments (an empty object or null).
   */
  public static List<String> validate(ToolSpecification tool, JsonNode arguments) {
    return validate(tool, arguments, NO_PLACEHOLDERS);
  }

  /**
   * As {@link #validate(ToolSpecification, JsonNode)}, except that a string value for which {@code
   * wholeValuePlaceholder} is true fits any schema.
   */
  public static List<String> validate(
      ToolSpecification tool, JsonNode arguments, Predicate<String> wholeValuePlaceholder) {
    JsonObjectSchema schema = tool.parameters();
    if (schema == null) {
      List<String> errors = new ArrayList<>();
      if (arguments != null && !arguments.isNull() && !(arguments.isObject() && arguments.isEmpty())) {
        errors.add(tool.name() + " takes no arguments, got " + arguments);
      }
      return errors;
    }
    return validate(schema, arguments, wholeValuePlaceholder);
  }

  /** What is wrong with {@code arguments} for {@code schema}; null arguments count as {@code {}}. */
  public static List<String> validate(JsonObjectSchema schema, JsonNode arguments) {
    return validate(schema, arguments, NO_PLACEHOLDERS);
  }

  private static List<String> validate(
      JsonObjectSchema schema, JsonNode arguments, Predicate<String> wholeValuePlaceholder) {
    JsonNode value = arguments == null || arguments.isNull()
        ? JsonNodeFactory.instance.objectNode() : arguments;
    List<String> errors = new ArrayList<>();
    Map<String, JsonSchemaElement> definitions =
        schema.definitions() == null ? Map.of() : schema.definitions();
    new Check(definitions, errors, wholeValuePlaceholder).check(schema, value, "");
    return errors;
  }

  /** One validation run: the root's definitions and the errors found so far. */
  private static final class Check {
    private final Map<String, JsonSchemaElement> definitions;
    private final List<String> errors;
    private final Predicate<String> wholeValuePlaceholder;

    Check(Map<String, JsonSchemaElement> definitions, List<String> errors,
        Predicate<String> wholeValuePlaceholder) {
      this.definitions = definitions;
      this.errors = errors;
      this.wholeValuePlaceholder = wholeValuePlaceholder;
    }

    void check(JsonSchemaElement schema, JsonNode value, String path) {
      String where = path.isEmpty() ? "arguments" : path;
      if (value.isTextual() && wholeValuePlaceholder.test(value.asText())) {
        // Filled in when the step runs, with a type known only then.
        return;
      }
      if (schema instanceof JsonObjectSchema) {
        checkObject((JsonObjectSchema) schema, value, path);
      } else if (schema instanceof JsonStringSchema) {
        if (!value.isTextual()) {
          errors.add(where + ": expected a string, got " + describe(value));
        }
      } else if (schema instanceof JsonIntegerSchema) {
        // 3.0 is an integer in JSON Schema; 3.5 is not.
        boolean integral = value.isIntegralNumber()
            || (value.isNumber() && value.asDouble() == Math.rint(value.asDouble()));
        if (!integral) {
          errors.add(where + ": expected an integer, got " + describe(value));
        }
      } else if (schema instanceof JsonNumberSchema) {
        if (!value.isNumber()) {
          errors.add(where + ": expected a number, got " + describe(value));
        }
      } else if (schema instanceof JsonBooleanSchema) {
        if (!value.isBoolean()) {
          errors.add(where + ": expected true or false, got " + describe(value));
        }
      } else if (schema instanceof JsonEnumSchema) {
        List<String> allowed = ((JsonEnumSchema) schema).enumValues();
        if (!value.isTextual() || !allowed.contains(value.asText())) {
          errors.add(where + ": " + value + " is not one of " + String.join(", ", allowed));
        }
      } else if (schema instanceof JsonArraySchema) {
        if (!value.isArray()) {
          errors.add(where + ": expected an array, got " + describe(value));
          return;
        }
        JsonSchemaElement items = ((JsonArraySchema) schema).items();
        if (items != null) {
          for (int i = 0; i < value.size(); i++) {
            if (value.get(i).isNull()) {
              errors.add(where + "[" + i + "]: null is not allowed");
            } else {
              check(items, value.get(i), where + "[" + i + "]");
            }
          }
        }
      } else if (schema instanceof JsonAnyOfSchema) {
        for (JsonSchemaElement option : ((JsonAnyOfSchema) schema).anyOf()) {
          List<String> optionErrors = new ArrayList<>();
          new Check(definitions, optionErrors, wholeValuePlaceholder).check(option, value, path);
          if (optionErrors.isEmpty()) {
            return;
          }
        }
        errors.add(where + ": " + describe(value) + " fits none of the allowed forms");
      } else if (schema instanceof JsonReferenceSchema) {
        JsonSchemaElement target = definitions.get(((JsonReferenceSchema) schema).reference());
        if (target != null && target != schema) {
          check(target, value, path);
        }
      } else if (schema instanceof JsonNullSchema) {
        if (!value.isNull()) {
          errors.add(where + ": expected null, got " + describe(value));
        }
      }
      // A raw schema (JsonRawSchema) is the tool author's own JSON: not checked here.
    }

    private void checkObject(JsonObjectSchema o, JsonNode value, String path) {
      if (!value.isObject()) {
        errors.add((path.isEmpty() ? "arguments" : path) + ": expected an object, got " + describe(value));
        return;
      }
      Map<String, JsonSchemaElement> properties = o.properties() == null ? Map.of() : o.properties();
      if (o.required() != null) {
        for (String name : o.required()) {
          if (!value.hasNonNull(name)) {
            errors.add(prefix(path) + name + ": required but missing");
          }
        }
      }
      for (Map.Entry<String, JsonNode> field : value.properties()) {
        JsonSchemaElement property = properties.get(field.getKey());
        if (property == null) {
          if (!Boolean.TRUE.equals(o.additionalProperties())) {
            errors.add(prefix(path) + field.getKey() + ": unknown argument; expected "
                + (properties.isEmpty() ? "none" : String.join(", ", properties.keySet())));
          }
        } else if (!field.getValue().isNull()) {
          check(property, field.getValue(), prefix(path) + field.getKey());
        }
      }
    }
  }

  private static String describe(JsonNode value) {
    String type = value.getNodeType().name().toLowerCase(Locale.ROOT);
    String text = value.toString();
    return text.length() > 60 ? type : type + " " + text;
  }

  private static String prefix(String path) {
    return path.isEmpty() ? "" : path + ".";
  }
}
