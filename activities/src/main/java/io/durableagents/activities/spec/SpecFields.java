package io.durableagents.activities.spec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;

/**
 * Reads the fields of a spec's YAML: only the names a section allows, and values of the right type within
 * their range; every error names the field and what is allowed.
 */
final class SpecFields {
  private SpecFields() {}

  /** Refuses a field of {@code node} not in {@code allowed}, naming it as {@code at.field}. */
  static void allowOnly(JsonNode node, String at, String... allowed) {
    if (node == null || !node.isObject()) {
      return;
    }
    List<String> names = List.of(allowed);
    Iterator<String> fields = node.fieldNames();
    while (fields.hasNext()) {
      String f = fields.next();
      if (!names.contains(f)) {
        throw new AgentSpecException(at.isEmpty() ? f : at + "." + f,
            "not a field here; allowed: " + String.join(", ", names));
      }
    }
  }

  /** The text of {@code field}, or {@code otherwise} when it is absent or null. */
  static String text(JsonNode node, String field, String otherwise) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? otherwise : v.asText();
  }

  /** The boolean {@code field}, or {@code otherwise}; anything but true or false is refused. */
  static boolean bool(JsonNode node, String field, boolean otherwise) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return otherwise;
    }
    if (!v.isBoolean()) {
      throw new AgentSpecException(field, "'" + v.asText() + "' is not one of: true, false");
    }
    return v.asBoolean();
  }

  /** The integer {@code field} from {@code min} to {@code max}, or {@code otherwise}; named {@code at} in errors. */
  static int integer(JsonNode node, String at, String field, int otherwise, int min, int max) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return otherwise;
    }
    if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < min || v.asInt() > max) {
      throw new AgentSpecException(at, "'" + v.asText() + "' is not an integer from " + min + " to " + max);
    }
    return v.asInt();
  }

  /** The number at {@code at} (its last part names the field) from {@code min} to {@code max}. */
  static double number(JsonNode node, String at, double min, double max) {
    JsonNode v = node.get(at.substring(at.lastIndexOf('.') + 1));
    if (!v.isNumber() || v.asDouble() < min || v.asDouble() > max) {
      throw new AgentSpecException(at, "'" + v.asText() + "' is not a number from " + min + " to " + max);
    }
    return v.asDouble();
  }
}
