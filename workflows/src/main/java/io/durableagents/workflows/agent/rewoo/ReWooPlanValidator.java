package io.durableagents.workflows.agent.rewoo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import io.durableagents.workflows.llm.ToolCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks a ReWOO plan before any of its tools runs, and lists everything wrong with it in words the
 * planner can act on.
 *
 * <p>A plan is a JSON array of steps {@code [{"id":"E1","tool":"calculator","args":{...}}, ...]}, or
 * an object {@code {"plan": [...]}} (OpenAI's JSON mode only allows an object); a Markdown code fence
 * around it is tolerated. It is valid when it parses, every step has an id (letters, digits, {@code _}
 * or {@code -}) and a tool, ids are unique, every tool is one the agent may use (its {@code
 * selected_tools}), the arguments are an object that fits the tool's schema, placeholders reference
 * only earlier steps that exist (so there is no cycle), and there are at most {@code maxSteps} steps.
 *
 * <p>The schemas live in the activities module, so the schema check is done there: the LLM activity
 * parses a JSON-format planner answer that was offered tools and returns its steps as {@link ToolCall}s
 * (id = step id), each checked with the tool's schema, a whole-value placeholder fitting any type (see
 * {@code LlmActivitiesImpl}). This class reads their errors and takes their arguments (where the
 * activity marked text placeholders). Doing it in the call that already holds the schemas costs no
 * extra activity and no extra history event per plan.
 *
 * <p>Pure: no Temporal, no I/O.
 *
 * <pre>{@code
 * ReWooPlanValidator.Result plan = ReWooPlanValidator.validate(
 *     response.text(), response.toolCalls(), agentTools, selectedTools, options.maxPlanSteps());
 * if (!plan.valid()) { ... send plan.errors() back to the planner once ... }
 * }</pre>
 */
public final class ReWooPlanValidator {
  /** The key of the steps in the object form of a plan. */
  public static final String PLAN_KEY = "plan";

  private ReWooPlanValidator() {}

  /**
   * A checked plan.
   *
   * @param steps the steps, in plan order (those that could be read, even when the plan is invalid)
   * @param errors everything wrong with the plan; empty when it is valid
   */
  public record Result(List<ReWooStep> steps, List<String> errors) {
    public Result {
      steps = List.copyOf(steps);
      errors = List.copyOf(errors);
    }

    public boolean valid() {
      return errors.isEmpty();
    }
  }

  /** A plan rejected for {@code reason}, before its text is read. */
  public static Result rejected(String reason) {
    return new Result(List.of(), List.of(reason));
  }

  /**
   * The raw step elements of a plan text: the array itself, or the array under {@code "plan"}.
   *
   * @throws IllegalArgumentException saying why the text is not a plan (not JSON, not an array)
   */
  public static List<JsonNode> parseSteps(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("the plan is empty: answer with a JSON array of steps");
    }
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(stripFence(text));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the plan is not JSON (" + firstLine(e.getOriginalMessage())
          + "): answer with a JSON array of steps, or {\"plan\": [...]}");
    }
    if (root != null && root.isObject() && root.has(PLAN_KEY)) {
      root = root.get(PLAN_KEY);
    }
    if (root == null || !root.isArray()) {
      throw new IllegalArgumentException("the plan must be a JSON array of steps, or an object "
          + "{\"plan\": [...]}; got " + (root == null ? "nothing" : kind(root)));
    }
    List<JsonNode> steps = new ArrayList<>();
    root.forEach(steps::add);
    return steps;
  }

  /**
   * Checks a plan.
   *
   * @param text the planner's answer
   * @param checkedCalls the steps as the LLM activity checked them against the tools' schemas, in plan
   *     order; empty when the activity did not read the answer as a plan (then no schema check)
   * @param agentTools every tool the agent has
   * @param allowedTools the tools it may use ({@code selected_tools} applied)
   * @param maxSteps the most steps a plan may have
   */
  public static Result validate(String text, List<ToolCall> checkedCalls, List<String> agentTools,
      List<String> allowedTools, int maxSteps) {
    List<String> errors = new ArrayList<>();
    List<JsonNode> elements;
    try {
      elements = parseSteps(text);
    } catch (IllegalArgumentException e) {
      return new Result(List.of(), List.of(e.getMessage()));
    }
    if (elements.isEmpty()) {
      return new Result(List.of(), List.of("the plan has no steps: give at least one step"
          + " {\"id\", \"tool\", \"args\"} with a tool from: " + names(allowedTools)));
    }
    if (elements.size() > maxSteps) {
      errors.add("the plan has " + elements.size() + " steps; at most " + maxSteps + " are allowed");
    }
    boolean callsMatch = checkedCalls != null && checkedCalls.size() == elements.size();
    List<ReWooStep> steps = new ArrayList<>();
    Map<String, Integer> indexOf = new HashMap<>();
    for (int i = 0; i < elements.size(); i++) {
      JsonNode e = elements.get(i);
      String where = "step " + (i + 1);
      if (!e.isObject()) {
        errors.add(where + " is " + kind(e) + ", not an object {\"id\", \"tool\", \"args\"}");
        continue;
      }
      String id = id(e.get("id"));
      String tool = text(e.get("tool"));
      JsonNode args = e.get("args");
      if (id == null && e.hasNonNull("id") && !e.get("id").isTextual()) {
        errors.add(where + ": \"id\" must be a string such as \"E1\", got " + kind(e.get("id")));
        id = "#" + (i + 1);
      } else if (id == null) {
        errors.add(where + " has no \"id\"");
        id = "#" + (i + 1);
      } else if (!Placeholders.STEP_ID.matcher(id).matches()) {
        errors.add(where + ": id '" + id + "' may only hold letters, digits, '_' and '-'");
      } else if (indexOf.containsKey(id)) {
        errors.add(where + ": id " + id + " is used twice (also by step " + (indexOf.get(id) + 1) + ")");
      } else {
        indexOf.put(id, i);
      }
      where = where + " (" + id + ")";
      if (tool == null) {
        errors.add(where + " has no \"tool\"");
      } else if (!agentTools.contains(tool)) {
        errors.add(where + ": unknown tool '" + tool + "'; available tools: " + names(allowedTools));
      } else if (!allowedTools.contains(tool)) {
        errors.add(where + ": tool '" + tool + "' is not among the selected tools: " + names(allowedTools));
      } else if (args != null && !args.isNull() && !args.isObject()) {
        errors.add(where + ": \"args\" must be an object, got " + kind(args));
      } else if (callsMatch) {
        ToolCall checked = checkedCalls.get(i);
        if (checked.error() != null) {
          errors.add(where + ": " + checked.error());
        } else if (checked.arguments() != null && tool.equals(checked.name())) {
          // The activity's copy may have whole-value placeholders marked as text (string parameters).
          args = checked.arguments();
        }
      }
      steps.add(new ReWooStep(id, tool, args == null || args.isNull() ? Json.object() : args));
    }
    checkReferences(steps, indexOf, errors);
    return new Result(steps, errors);
  }

  /** Every reference must name an earlier step; cycles are reported as such. */
  private static void checkReferences(
      List<ReWooStep> steps, Map<String, Integer> indexOf, List<String> errors) {
    Map<String, Set<String>> graph = new LinkedHashMap<>();
    for (ReWooStep step : steps) {
      Set<String> refs = Placeholders.references(step.args());
      graph.put(step.id(), refs);
      Integer self = indexOf.get(step.id());
      for (String ref : refs) {
        Integer target = indexOf.get(ref);
        if (ref.equals(step.id())) {
          errors.add(step.id() + " references itself ({{" + ref + "}})");
        } else if (target == null) {
          errors.add(step.id() + " references " + ref + ", which is not a step of the plan");
        } else if (self != null && target > self) {
          errors.add(step.id() + " references " + ref + ", which comes later in the plan: a step can "
              + "only use the outputs of earlier steps");
        }
      }
    }
    Set<String> reported = new LinkedHashSet<>();
    Set<String> acyclic = new HashSet<>();
    for (String start : graph.keySet()) {
      List<String> cycle = findCycle(start, graph, new ArrayList<>(), acyclic);
      if (cycle != null && cycle.size() > 2) {
        // Report each cycle once, whichever of its steps it was found from.
        Set<String> members = new TreeSet<>(cycle);
        if (reported.add(members.toString())) {
          errors.add("the steps " + String.join(" -> ", cycle) + " form a cycle");
        }
      }
    }
  }

  /** A path from {@code node} back to a step already on {@code path}, or null. */
  private static List<String> findCycle(
      String node, Map<String, Set<String>> graph, List<String> path, Set<String> acyclic) {
    if (acyclic.contains(node)) {
      return null;
    }
    int at = path.indexOf(node);
    if (at >= 0) {
      List<String> cycle = new ArrayList<>(path.subList(at, path.size()));
      cycle.add(node);
      return cycle;
    }
    path.add(node);
    for (String next : graph.getOrDefault(node, Set.of())) {
      if (graph.containsKey(next)) {
        List<String> cycle = findCycle(next, graph, path, acyclic);
        if (cycle != null) {
          return cycle;
        }
      }
    }
    path.remove(path.size() - 1);
    // Explored to the end without meeting the path again: no later search needs to enter it.
    acyclic.add(node);
    return null;
  }

  /**
   * The topological levels of a valid plan: level 0 holds the steps that reference no other step,
   * level n those whose deepest dependency is at level n-1. Steps keep their plan order in a level.
   */
  public static List<List<ReWooStep>> levels(List<ReWooStep> steps) {
    Map<String, Integer> levelOf = new HashMap<>();
    List<List<ReWooStep>> levels = new ArrayList<>();
    for (ReWooStep step : steps) {
      int level = 0;
      for (String ref : Placeholders.references(step.args())) {
        Integer l = levelOf.get(ref);
        if (l != null) {
          level = Math.max(level, l + 1);
        }
      }
      levelOf.put(step.id(), level);
      while (levels.size() <= level) {
        levels.add(new ArrayList<>());
      }
      levels.get(level).add(step);
    }
    return levels;
  }

  private static String stripFence(String text) {
    String t = text.trim();
    if (t.startsWith("```")) {
      int firstNewline = t.indexOf('\n');
      int lastFence = t.lastIndexOf("```");
      if (firstNewline > 0 && lastFence > firstNewline) {
        return t.substring(firstNewline + 1, lastFence);
      }
    }
    return t;
  }

  /** A step's id: a string, or a whole number taken as its decimal string ({@code 1} is {@code "1"}). */
  public static String id(JsonNode node) {
    if (node != null && node.isIntegralNumber()) {
      return node.asText();
    }
    return text(node);
  }

  private static String text(JsonNode node) {
    return node != null && node.isTextual() && !node.asText().isBlank() ? node.asText().trim() : null;
  }

  private static String names(List<String> tools) {
    return tools.isEmpty() ? "none" : String.join(", ", tools);
  }

  private static String kind(JsonNode node) {
    String type = node.getNodeType().name().toLowerCase(Locale.ROOT);
    return "a JSON " + type + (node.isObject() ? " without \"" + PLAN_KEY + "\"" : "");
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "";
    }
    int nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl);
  }
}
