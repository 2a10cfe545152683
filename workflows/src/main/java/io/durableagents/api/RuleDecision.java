package io.durableagents.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What a rule-based policy decided for one agent step: the reasoning, as numbered thoughts, and the
 * actions.
 */
public record RuleDecision(List<String> thoughts, List<Action> actions) {
  /**
   * One action: a tool (a world action or an external tool of the agent's role) and its arguments, a
   * JSON object that fits the tool's {@code @Tool} schema, with the parameters' names as keys:
   *
   * <pre>{@code
   * RuleDecision.Action move = new RuleDecision.Action("move_one_step",
   *     Json.MAPPER.createObjectNode().put("direction", "North"));
   * return Optional.of(new RuleDecision(List.of("The cell to the north is free."), List.of(move)));
   * }</pre>
   *
   * <p>{@code Json} is {@code io.durableagents.api.Json}, the Jackson mapper workflows use.
   */
  public record Action(String tool, ObjectNode arguments) {}
}
