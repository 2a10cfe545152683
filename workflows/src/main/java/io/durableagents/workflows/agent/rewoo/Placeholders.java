package io.durableagents.workflows.agent.rewoo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.durableagents.api.Json;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ReWOO's {@code {{En}}} placeholders, substituted with their types kept (jeevesagent substitutes
 * them as plain strings only).
 *
 * <ul>
 *   <li>{@code "{{E1}}"} as a whole argument value becomes E1's output as a JSON value: the parsed
 *       node when the output is JSON ({@code 391} stays a number, {@code {"a":1}} stays an object),
 *       else a JSON string;
 *   <li>{@code "{{E1.path.to.field}}"} reaches into a JSON output (an array element by its index: {@code
 *       {{E1.items.0}}}); a path that is not there is an error for that step, never a crash;
 *   <li>a placeholder inside a longer string ({@code "{{E1}} + 9"}) is replaced by text: a string
 *       output as it is, any other JSON value as compact JSON;
 *   <li>{@code "{{E1|text}}"} is always text, even as a whole value. The LLM activity writes this form
 *       for a whole-value placeholder that sits where the tool's schema expects a string, so that
 *       {@code {"expression": "{{E1}}"}} still passes {@code "391"}, not the number 391, to a string
 *       parameter.
 * </ul>
 *
 * <p>Pure: no Temporal, no I/O, so it is unit-tested on its own.
 *
 * <pre>{@code
 * Placeholders.Resolved r = Placeholders.resolve(step.args(), Map.of("E1", "391"));
 * if (r.error() == null) { run(step.tool(), r.arguments()); }
 * }</pre>
 */
public final class Placeholders {
  /** An id, an optional dotted path and an optional {@code |text} marker, between double braces. */
  private static final Pattern PLACEHOLDER =
      Pattern.compile("\\{\\{\\s*([A-Za-z0-9_-]+)((?:\\.[^.{}|\\s]+)*)\\s*(\\|\\s*text)?\\s*\\}\\}");

  /** What a step id may be made of, so that a placeholder can name it. */
  public static final Pattern STEP_ID = Pattern.compile("[A-Za-z0-9_-]+");

  private Placeholders() {}

  /**
   * The result of substituting a step's arguments.
   *
   * @param arguments the arguments with every placeholder replaced, or null when {@code error} is set
   * @param error why they could not be substituted (an unknown step, a missing path), or null
   */
  public record Resolved(JsonNode arguments, String error) {}

  /** True when {@code text} is exactly one placeholder (spaces around it allowed). */
  public static boolean isWholePlaceholder(String text) {
    return text != null && PLACEHOLDER.matcher(text.trim()).matches();
  }

  /** The step ids that {@code args} references, in order of first appearance. */
  public static Set<String> references(JsonNode args) {
    Set<String> ids = new LinkedHashSet<>();
    collect(args, ids);
    return ids;
  }

  private static void collect(JsonNode node, Set<String> ids) {
    if (node == null) {
      return;
    }
    if (node.isTextual()) {
      Matcher m = PLACEHOLDER.matcher(node.asText());
      while (m.find()) {
        ids.add(m.group(1));
      }
    } else if (node.isContainerNode()) {
      for (JsonNode child : node) {
        collect(child, ids);
      }
    }
  }

  /** {@code "{{E1}}"} or {@code "{{E1.a.b}}"} as the text form {@code "{{E1|text}}"}/{@code "{{E1.a.b|text}}"}. */
  public static String asText(String wholePlaceholder) {
    Matcher m = PLACEHOLDER.matcher(wholePlaceholder.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a placeholder: " + wholePlaceholder);
    }
    return "{{" + m.group(1) + m.group(2) + "|text}}";
  }

  /**
   * Substitutes every placeholder in {@code args} with the outputs of earlier steps.
   *
   * @param outputs each step's output text, by step id; a step missing here is an error
   */
  public static Resolved resolve(JsonNode args, Map<String, String> outputs) {
    try {
      return new Resolved(substitute(args == null ? Json.object() : args, outputs), null);
    } catch (IllegalArgumentException e) {
      return new Resolved(null, e.getMessage());
    }
  }

  private static JsonNode substitute(JsonNode node, Map<String, String> outputs) {
    if (node.isObject()) {
      ObjectNode copy = JsonNodeFactory.instance.objectNode();
      for (Map.Entry<String, JsonNode> f : node.properties()) {
        copy.set(f.getKey(), substitute(f.getValue(), outputs));
      }
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = JsonNodeFactory.instance.arrayNode();
      for (JsonNode child : node) {
        copy.add(substitute(child, outputs));
      }
      return copy;
    }
    if (!node.isTextual()) {
      return node;
    }
    String text = node.asText();
    Matcher whole = PLACEHOLDER.matcher(text.trim());
    if (whole.matches() && whole.group(3) == null) {
      return valueOf(whole.group(1), whole.group(2), outputs);
    }
    Matcher m = PLACEHOLDER.matcher(text);
    if (!m.find()) {
      return node;
    }
    StringBuilder sb = new StringBuilder();
    m.reset();
    while (m.find()) {
      JsonNode value = valueOf(m.group(1), m.group(2), outputs);
      m.appendReplacement(sb, Matcher.quoteReplacement(value.isTextual() ? value.asText() : value.toString()));
    }
    m.appendTail(sb);
    return TextNode.valueOf(whole.matches() ? sb.toString().trim() : sb.toString());
  }

  /** Step {@code id}'s output as a JSON value, reached into along {@code path} (".a.b" or ""). */
  private static JsonNode valueOf(String id, String path, Map<String, String> outputs) {
    if (!outputs.containsKey(id) || outputs.get(id) == null) {
      throw new IllegalArgumentException("{{" + id + path + "}}: step " + id + " has no output");
    }
    String output = outputs.get(id);
    JsonNode parsed = Json.tryParse(output);
    // A bare word such as "yes" is not JSON; an empty output is not either. Both stay text.
    JsonNode value = parsed == null || parsed.isMissingNode() ? TextNode.valueOf(output) : parsed;
    if (path.isEmpty()) {
      return value;
    }
    List<String> walked = new ArrayList<>();
    for (String segment : path.substring(1).split("\\.")) {
      JsonNode next = null;
      if (value.isObject()) {
        next = value.get(segment);
      } else if (value.isArray() && segment.chars().allMatch(Character::isDigit)) {
        next = value.get(Integer.parseInt(segment));
      }
      if (next == null) {
        String at = walked.isEmpty() ? id : id + "." + String.join(".", walked);
        throw new IllegalArgumentException("{{" + id + path + "}}: " + at + " has no field '" + segment
            + "' (" + describe(value) + ")");
      }
      walked.add(segment);
      value = next;
    }
    return value;
  }

  private static String describe(JsonNode value) {
    if (value.isObject()) {
      List<String> names = new ArrayList<>();
      value.fieldNames().forEachRemaining(names::add);
      return names.isEmpty() ? "it is an empty object" : "its fields are " + String.join(", ", names);
    }
    if (value.isArray()) {
      return "it is an array of " + value.size();
    }
    return "it is " + (value.isTextual() ? "text, not JSON" : "the value " + value);
  }
}
