package io.durableagents.workflows.scenario;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.api.InvalidParameterException;
import io.durableagents.api.Param;
import io.durableagents.api.Scenario;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads, checks and describes a scenario's parameters: one declaration (the parameters record and its
 * {@link Param} annotations) gives the JSON a workflow input carries, the checks, the command line's
 * {@code --param} values and the help text.
 *
 * <p>Names are the record components' names in snake_case. A value a run does not set takes the
 * scenario's {@link Scenario#defaults()}. Every problem is an {@link InvalidParameterException} naming
 * the scenario, the parameter, the value and what is allowed: an unknown name (with the known ones), a
 * value of the wrong type, a number out of its {@link Param} range, or what {@link
 * Scenario#check(Record)} rejects.
 *
 * <pre>{@code
 * EpsteinParameters p = ScenarioParameters.read(new EpsteinScenario(), input.parameters());
 * ObjectNode json = ScenarioParameters.fromText(scenario, Map.of("legitimacy", "0.6"));
 * }</pre>
 */
public final class ScenarioParameters {
  /** The mapper of parameters: snake_case names, unknown names rejected, numbers kept exact. */
  static final ObjectMapper MAPPER = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
      .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
      .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);

  private ScenarioParameters() {}

  /** The parameters record as the JSON object a workflow input carries (snake_case names). */
  public static ObjectNode toJson(Record parameters) {
    return parameters == null ? null : MAPPER.valueToTree(parameters);
  }

  /** Every parameter of {@code scenario}, in the record's order. */
  public static List<ParameterSpec> specs(Scenario<?> scenario) {
    ObjectNode defaults = toJson(scenario.defaults());
    if (defaults == null) {
      throw new IllegalArgumentException("defaults() returned null");
    }
    List<ParameterSpec> specs = new ArrayList<>();
    for (RecordComponent c : scenario.parametersType().getRecordComponents()) {
      String name = snake(c.getName());
      Param p = c.getAnnotation(Param.class);
      Class<?> t = c.getType();
      String type;
      List<String> allowed = List.of();
      if (t == int.class || t == Integer.class || t == long.class || t == Long.class
          || t == short.class || t == Short.class) {
        type = "integer";
      } else if (t == double.class || t == Double.class || t == float.class || t == Float.class) {
        type = "number";
      } else if (t == boolean.class || t == Boolean.class) {
        type = "boolean";
      } else if (t.isEnum()) {
        type = "one of";
        allowed = Arrays.stream(t.getEnumConstants()).map(Object::toString).toList();
      } else if (t == String.class) {
        type = "text";
      } else {
        type = "json";
      }
      JsonAlias alias = c.getAnnotation(JsonAlias.class);
      if (alias == null) {
        alias = c.getAccessor().getAnnotation(JsonAlias.class);
      }
      specs.add(new ParameterSpec(name, type, defaults.get(name),
          p == null ? "" : p.value(),
          p == null ? Double.NEGATIVE_INFINITY : p.min(),
          p == null ? Double.POSITIVE_INFINITY : p.max(),
          allowed, alias == null ? List.of() : List.of(alias.value()), p != null && p.adjustable()));
    }
    return specs;
  }

  /**
   * The parameters of a run: {@code json}'s values over the scenario's defaults, checked.
   *
   * @param json a JSON object of parameter values by name (null: the defaults)
   * @throws InvalidParameterException naming the scenario, the parameter, the value and what is allowed
   */
  public static <P extends Record> P read(Scenario<P> scenario, JsonNode json) {
    List<ParameterSpec> specs = specs(scenario);
    ObjectNode merged = toJson(scenario.defaults());
    if (json != null && !json.isNull() && !json.isMissingNode()) {
      if (!json.isObject()) {
        throw invalid(scenario, new InvalidParameterException(null,
            "parameters must be a JSON object of name: value, was " + json));
      }
      Iterator<Map.Entry<String, JsonNode>> fields = json.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> f = fields.next();
        ParameterSpec spec = find(specs, f.getKey());
        if (spec == null) {
          throw invalid(scenario, new InvalidParameterException(f.getKey(), "there is no parameter '"
              + f.getKey() + "'; parameters: " + String.join(", ", names(specs))));
        }
        merged.set(spec.name(), f.getValue());
      }
    }
    for (ParameterSpec spec : specs) {
      checkValue(scenario, spec, merged.get(spec.name()));
    }
    P parameters;
    try {
      parameters = MAPPER.treeToValue(merged, scenario.parametersType());
    } catch (Exception e) {
      Throwable cause = e;
      while (cause.getCause() != null && !(cause instanceof IllegalArgumentException)) {
        cause = cause.getCause();
      }
      if (cause instanceof InvocationTargetException && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof InvalidParameterException) {
        throw invalid(scenario, (InvalidParameterException) cause);
      }
      throw invalid(scenario, new InvalidParameterException(null, "parameters " + merged
          + " cannot be read: " + firstLine(cause.getMessage())));
    }
    try {
      scenario.check(parameters);
    } catch (InvalidParameterException e) {
      throw invalid(scenario, e);
    } catch (IllegalArgumentException e) {
      throw invalid(scenario, new InvalidParameterException(null, e.getMessage()));
    }
    return parameters;
  }

  /**
   * Parameter values written as text ({@code --param legitimacy=0.6}) as the JSON object a workflow
   * input carries, each read as its parameter's type. Names match ignoring case, {@code -} and {@code
   * _} ({@code max-jail-term}, {@code maxJailTerm}). Values not given are left out (the workflow
   * takes the defaults).
   *
   * @throws InvalidParameterException naming the parameter and what is allowed
   */
  public static ObjectNode fromText(Scenario<?> scenario, Map<String, String> values) {
    List<ParameterSpec> specs = specs(scenario);
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, String> e : values.entrySet()) {
      ParameterSpec spec = find(specs, e.getKey());
      if (spec == null) {
        throw invalid(scenario, new InvalidParameterException(e.getKey(), "there is no parameter '"
            + e.getKey() + "'; parameters: " + String.join(", ", names(specs))));
      }
      String text = e.getValue().trim();
      JsonNode value;
      try {
        switch (spec.type()) {
          case "integer":
            value = JsonNodeFactory.instance.numberNode(Long.parseLong(text));
            break;
          case "number":
            value = JsonNodeFactory.instance.numberNode(Double.parseDouble(text));
            break;
          case "boolean":
            if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
              throw new NumberFormatException(text);
            }
            value = JsonNodeFactory.instance.booleanNode(Boolean.parseBoolean(text.toLowerCase(Locale.ROOT)));
            break;
          case "text":
          case "one of":
            value = JsonNodeFactory.instance.textNode(text);
            break;
          default:
            value = MAPPER.readTree(text);
        }
      } catch (Exception ex) {
        throw invalid(scenario, new InvalidParameterException(spec.name(), "'" + text + "'", spec.allowed()));
      }
      json.set(spec.name(), value);
    }
    read(scenario, json);
    return json;
  }

  private static void checkValue(Scenario<?> scenario, ParameterSpec spec, JsonNode v) {
    if (v == null || v.isNull()) {
      throw invalid(scenario, new InvalidParameterException(spec.name(), "null", spec.allowed()));
    }
    switch (spec.type()) {
      case "integer":
        if (!v.isIntegralNumber()) {
          throw invalid(scenario, new InvalidParameterException(spec.name(), v, spec.allowed()));
        }
        inRange(scenario, spec, v);
        break;
      case "number":
        if (!v.isNumber()) {
          throw invalid(scenario, new InvalidParameterException(spec.name(), v, spec.allowed()));
        }
        inRange(scenario, spec, v);
        break;
      case "boolean":
        if (!v.isBoolean()) {
          throw invalid(scenario, new InvalidParameterException(spec.name(), v, spec.allowed()));
        }
        break;
      case "one of":
        if (!v.isTextual() || !spec.allowedValues().contains(v.asText())) {
          throw invalid(scenario, new InvalidParameterException(spec.name(), v, spec.allowed()));
        }
        break;
      case "text":
        if (!v.isTextual()) {
          throw invalid(scenario, new InvalidParameterException(spec.name(), v, spec.allowed()));
        }
        break;
      default:
        break;
    }
  }

  private static void inRange(Scenario<?> scenario, ParameterSpec spec, JsonNode v) {
    double d = v.asDouble();
    if (Double.isNaN(d) || d < spec.min() || d > spec.max()) {
      throw invalid(scenario, new InvalidParameterException(spec.name(), v, spec.allowed()));
    }
  }

  private static ParameterSpec find(List<ParameterSpec> specs, String name) {
    String wanted = normal(name);
    for (ParameterSpec s : specs) {
      if (normal(s.name()).equals(wanted)) {
        return s;
      }
      for (String alias : s.aliases()) {
        if (normal(alias).equals(wanted)) {
          return s;
        }
      }
    }
    return null;
  }

  private static List<String> names(List<ParameterSpec> specs) {
    return specs.stream().map(ParameterSpec::name).toList();
  }

  private static String normal(String name) {
    return name == null ? "" : name.replace("_", "").replace("-", "").toLowerCase(Locale.ROOT);
  }

  /** {@code maxJailTerm} as {@code max_jail_term}, as Jackson's SNAKE_CASE strategy writes it. */
  static String snake(String camel) {
    return PropertyNamingStrategies.SnakeCaseStrategy.INSTANCE.translate(camel);
  }

  private static InvalidParameterException invalid(Scenario<?> scenario, InvalidParameterException e) {
    String message = scenario.name() + ": " + e.getMessage();
    if (e.getMessage() != null && e.getMessage().startsWith(scenario.name() + ": ")) {
      message = e.getMessage();
    }
    InvalidParameterException wrapped = new InvalidParameterException(e.parameter(), message);
    wrapped.initCause(e.getCause());
    return wrapped;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
