package io.durableagents.activities.rules;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What a rule-based policy decided for one agent step: the reasoning, as numbered thoughts, and the
 * actions.
 */
public record RuleDecision(List<String> thoughts, List<Action> actions) {
  /** One action: a tool and its arguments. */
  public record Action(String tool, ObjectNode arguments) {}
}
