package io.durableagents.starter.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the page's buttons do, each one a command the CLI has, sent the way the CLI sends it (the same
 * signals and Updates, the same validators), answered with what it did in the CLI's words.
 *
 * <table>
 *   <caption>actions</caption>
 *   <tr><th>POST /api/simulations/{id}/...</th><th>body</th><th>as the CLI's</th></tr>
 *   <tr><td>pause, resume, stop</td><td>{}</td><td>pause, resume, stop</td></tr>
 *   <tr><td>intervene</td><td>{"parameters": {name: value}, "atStep": n, "note": text}</td><td>intervene</td></tr>
 *   <tr><td>fork</td><td>{"atStep": n, "steps": total}</td><td>fork --no-wait</td></tr>
 *   <tr><td>approve, edit, deny</td><td>{"call": name, "arguments": {...}, "reason": text}</td>
 *       <td>approve [--args], deny</td></tr>
 * </table>
 */
final class PageActions {
  private final WorkflowClient client;
  private final ObjectMapper json;

  PageActions(WorkflowClient client, ObjectMapper json) {
    this.client = client;
    this.json = json;
  }

  String act(String id, String action, JsonNode body) {
    return switch (action) {
      case "pause" -> signal(id, action, sim -> sim.pause(), "Pause requested: " + id
          + " stops after the step in progress (Resume to go on).");
      case "resume" -> signal(id, action, sim -> sim.resume(), "Resume requested: " + id + " goes on.");
      case "stop" -> signal(id, action, sim -> sim.stop(), "Stop requested: " + id
          + " ends after the step in progress; its result holds every step done.");
      case "intervene" -> {
        Map<String, String> values = new LinkedHashMap<>();
        body.path("parameters").fields().forEachRemaining(e -> {
          String v = e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString();
          if (!v.isBlank()) {
            values.put(e.getKey(), v);
          }
        });
        yield ViewActions.intervene(client, id, values, integer(body, "atStep"), text(body, "note"));
      }
      case "fork" -> {
        Integer at = integer(body, "atStep");
        if (at == null) {
          throw ViewActions.usage("no step to fork at", "Give atStep, a completed step.");
        }
        yield ViewActions.fork(client, id, at, integer(body, "steps")).message();
      }
      case "approve", "edit", "deny" -> {
        String call = text(body, "call");
        if (call == null) {
          throw ViewActions.usage("no call given", "Give the call as the page lists it.");
        }
        JsonNode arguments = body.get("arguments");
        if (arguments != null && arguments.isTextual()) {
          arguments = io.durableagents.api.Json.tryParse(arguments.asText());
        }
        String by = text(body, "by");
        yield ViewActions.decide(client, id, call, action, arguments, text(body, "reason"),
            by != null ? by : ViewActions.environment().getOrDefault("USER", "view"));
      }
      default -> throw ViewActions.usage("no action '" + action + "'",
          "The page can pause, resume, stop, intervene, fork, approve, edit and deny.");
    };
  }

  private String signal(String id, String action, java.util.function.Consumer<SimulationWorkflow> send, String said) {
    SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class, id);
    try {
      send.accept(sim);
    } catch (WorkflowNotFoundException e) {
      throw ViewActions.usage("'" + id + "' has ended: nothing to " + action,
          "Fork it at any of its steps to go on from there.");
    }
    return said;
  }

  private static Integer integer(JsonNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull() || (v.isTextual() && v.asText().isBlank())) {
      return null;
    }
    if (v.canConvertToInt() && v.isIntegralNumber()) {
      return v.asInt();
    }
    try {
      return Integer.parseInt(v.asText().trim());
    } catch (NumberFormatException e) {
      throw ViewActions.usage(field + " " + v.asText() + " is not a step", "Give a whole number.");
    }
  }

  private static String text(JsonNode body, String field) {
    JsonNode v = body.get(field);
    return v == null || v.isNull() || v.asText().isBlank() ? null : v.asText();
  }
}
