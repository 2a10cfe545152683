package io.durableagents.workflows.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Param;
import java.util.List;

/**
 * One parameter of a scenario, as its {@link Param} declares it: what {@code help simulate --scenario
 * <name>} lists and what the command line's {@code --param name=value} is read with.
 *
 * @param name the name in snake_case ({@code max_jail_term})
 * @param type {@code integer}, {@code number}, {@code boolean}, {@code text}, {@code one of} (an enum:
 *     see {@code allowedValues}) or {@code json} (a list or a record)
 * @param defaultValue the value a run gets when it sets none
 * @param description what the parameter means
 * @param min the smallest allowed value (numbers; negative infinity when unbounded)
 * @param max the largest allowed value (numbers; positive infinity when unbounded)
 * @param allowedValues the values of an enum parameter (empty for other types)
 * @param aliases other names that older inputs used for it (read, never written)
 * @param adjustable whether it may change while a simulation runs ({@link Param#adjustable()})
 */
public record ParameterSpec(
    String name,
    String type,
    JsonNode defaultValue,
    String description,
    double min,
    double max,
    List<String> allowedValues,
    List<String> aliases,
    boolean adjustable) {

  /** A parameter fixed for the whole run. */
  public ParameterSpec(String name, String type, JsonNode defaultValue, String description, double min,
      double max, List<String> allowedValues, List<String> aliases) {
    this(name, type, defaultValue, description, min, max, allowedValues, aliases, false);
  }

  /** What is allowed, in words: {@code "an integer from 0 to 1000"}. */
  public String allowed() {
    switch (type) {
      case "integer":
        return "an integer" + range();
      case "number":
        return "a number" + range();
      case "boolean":
        return "true or false";
      case "one of":
        return "one of " + String.join(", ", allowedValues);
      case "text":
        return "a text";
      default:
        return "JSON";
    }
  }

  private String range() {
    boolean low = min != Double.NEGATIVE_INFINITY;
    boolean high = max != Double.POSITIVE_INFINITY;
    if (low && high) {
      return " from " + number(min) + " to " + number(max);
    }
    if (low) {
      return " >= " + number(min);
    }
    if (high) {
      return " <= " + number(max);
    }
    return "";
  }

  private static String number(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }
}
