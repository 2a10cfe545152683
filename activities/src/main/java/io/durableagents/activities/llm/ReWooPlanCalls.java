package io.durableagents.activities.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import io.durableagents.activities.tools.ToolCallValidator;
import io.durableagents.api.Json;
import io.durableagents.workflows.agent.rewoo.Placeholders;
import io.durableagents.workflows.agent.rewoo.ReWooPlanValidator;
import io.durableagents.workflows.llm.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a ReWOO planner's JSON answer as tool calls checked against the tools' schemas, in the LLM
 * activity, which is where the schemas are (workflow code only knows tool names).
 *
 * <p>Each element of the plan ({@code [...]} or {@code {"plan": [...]}}) becomes one {@link ToolCall},
 * in plan order, with the step's id as its id: a valid call, or one with {@code error} set (an unknown
 * tool, arguments that are not an object or do not fit the schema). Placeholders are allowed for what
 * they will become: a whole-value {@code "{{E1}}"} or {@code "{{E1.a.b}}"} fits any schema, a string
 * with placeholders inside is checked as a string. A whole-value placeholder where the schema expects a
 * string is returned in its text form {@code "{{E1|text}}"}, so that the workflow passes the output's
 * text (not the number 391) to a string parameter. The workflow's {@code ReWooPlanValidator} checks
 * the rest (ids, references, cycles, length) and reads the errors found here.
 *
 * <pre>{@code
 * List<ToolCall> steps = ReWooPlanCalls.check(answerText, offeredToolsByName);
 * }</pre>
 */
public final class ReWooPlanCalls {
  private ReWooPlanCalls() {}

  /**
   * The plan's steps as checked tool calls, or an empty list when the text is not a plan (the
   * workflow's validator then says why).
   */
  public static List<ToolCall> check(String text, Map<String, ToolSpecification> offered) {
    List<JsonNode> elements;
    try {
      elements = ReWooPlanValidator.parseSteps(text);
    } catch (IllegalArgumentException notAPlan) {
      return List.of();
    }
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < elements.size(); i++) {
      calls.add(checkStep(elements.get(i), i, offered));
    }
    return calls;
  }

  private static ToolCall checkStep(JsonNode step, int index, Map<String, ToolSpecification> offered) {
    String fallbackId = "step-" + (index + 1);
    if (!step.isObject()) {
      return new ToolCall(fallbackId, null, null, step.toString(), "step " + (index + 1) + " is not an object");
    }
    String id = ReWooPlanValidator.id(step.get("id"));
    id = id == null ? fallbackId : id;
    String name = step.path("tool").isTextual() ? step.path("tool").asText() : null;
    JsonNode args = step.get("args") == null || step.get("args").isNull()
        ? Json.object() : step.get("args");
    ToolSpecification spec = name == null ? null : offered.get(name);
    if (spec == null) {
      return new ToolCall(id, name, args, null, "unknown tool '" + name + "'; available tools: "
          + (offered.isEmpty() ? "none" : String.join(", ", offered.keySet())));
    }
    if (!args.isObject()) {
      return new ToolCall(id, name, null, args.toString(), "the arguments of " + name + " must be an object");
    }
    List<String> problems = ToolCallValidator.validate(spec, args, Placeholders::isWholePlaceholder);
    if (!problems.isEmpty()) {
      return new ToolCall(id, name, args, null,
          "the arguments of " + name + " do not fit its schema: " + String.join("; ", problems));
    }
    ObjectNode marked = (ObjectNode) args.deepCopy();
    if (spec.parameters() != null) {
      Map<String, JsonSchemaElement> definitions = spec.parameters().definitions() == null
          ? Map.of() : spec.parameters().definitions();
      markText(spec.parameters(), marked, definitions);
    }
    return ToolCall.of(id, name, marked);
  }

  /** Rewrites, in place, whole-value placeholders that sit where the schema expects a string. */
  private static void markText(JsonSchemaElement schema, JsonNode value, Map<String, JsonSchemaElement> defs) {
    schema = resolve(schema, defs);
    if (schema instanceof JsonObjectSchema && value.isObject()) {
      Map<String, JsonSchemaElement> properties = ((JsonObjectSchema) schema).properties();
      if (properties == null) {
        return;
      }
      ObjectNode object = (ObjectNode) value;
      List<String> toText = new ArrayList<>();
      for (Map.Entry<String, JsonNode> f : object.properties()) {
        JsonSchemaElement property = properties.get(f.getKey());
        if (property == null) {
          continue;
        }
        if (expectsText(property, defs) && isWhole(f.getValue())) {
          toText.add(f.getKey());
        } else {
          markText(property, f.getValue(), defs);
        }
      }
      for (String name : toText) {
        object.set(name, TextNode.valueOf(Placeholders.asText(object.get(name).asText())));
      }
    } else if (schema instanceof JsonArraySchema && value.isArray()) {
      JsonSchemaElement items = ((JsonArraySchema) schema).items();
      if (items == null) {
        return;
      }
      ArrayNode array = (ArrayNode) value;
      for (int i = 0; i < array.size(); i++) {
        if (expectsText(items, defs) && isWhole(array.get(i))) {
          array.set(i, TextNode.valueOf(Placeholders.asText(array.get(i).asText())));
        } else {
          markText(items, array.get(i), defs);
        }
      }
    }
  }

  private static boolean isWhole(JsonNode value) {
    return value.isTextual() && Placeholders.isWholePlaceholder(value.asText());
  }

  /** True when only text fits: a string, an enum, or a choice between those. */
  private static boolean expectsText(JsonSchemaElement schema, Map<String, JsonSchemaElement> defs) {
    schema = resolve(schema, defs);
    if (schema instanceof JsonStringSchema || schema instanceof JsonEnumSchema) {
      return true;
    }
    if (schema instanceof JsonAnyOfSchema) {
      for (JsonSchemaElement option : ((JsonAnyOfSchema) schema).anyOf()) {
        if (!expectsText(option, defs)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  private static JsonSchemaElement resolve(JsonSchemaElement schema, Map<String, JsonSchemaElement> defs) {
    // One level is enough for LangChain4j's schemas, whose definitions are objects, not references.
    if (schema instanceof JsonReferenceSchema) {
      JsonSchemaElement target = defs.get(((JsonReferenceSchema) schema).reference());
      return target == null ? schema : target;
    }
    return schema;
  }
}
