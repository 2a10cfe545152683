package io.durableagents.activities.rules;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.durableagents.api.RuleDecision;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The offline {@code rules} model's policy for a single task outside simulations: it finds what the
 * built-in tools can do for the task, namely arithmetic for {@code calculator} and a file to read for
 * {@code read_file}, so that {@code starter agent} runs every strategy end to end without a model.
 * It is not an LLM: it only recognises these two kinds of request.
 */
public final class TaskRulePolicy {
  /** The calculator tool's name and argument. */
  public static final String CALCULATOR = "calculator";

  /** The file reader's name and argument. */
  public static final String READ_FILE = "read_file";

  /** Digits, operators and parentheses with at least one operator between numbers: {@code 17 * (23 + 4)}. */
  private static final Pattern EXPRESSION =
      Pattern.compile("[(\\s]*-?\\d+(?:\\.\\d+)?(?:\\s*[-+*/^%]\\s*[(\\s]*-?\\d+(?:\\.\\d+)?\\)*)+\\)*");

  /** "read (the) (file) notes.txt". */
  private static final Pattern FILE =
      Pattern.compile("(?i)\\bread(?:\\s+the)?(?:\\s+file)?\\s+['\"]?([\\w./-]+\\.\\w+)");

  private TaskRulePolicy() {}

  /** Every arithmetic expression in {@code text}, in order (the autonomous rules plan one item each). */
  public static List<String> expressions(String text) {
    List<String> found = new ArrayList<>();
    if (text != null) {
      Matcher m = EXPRESSION.matcher(text);
      while (m.find()) {
        found.add(m.group().trim());
      }
    }
    return found;
  }

  /** The tool calls the task asks for, among the offered tools, in a stable order. */
  public static List<RuleDecision.Action> toolCalls(String task, List<String> offered) {
    List<RuleDecision.Action> calls = new ArrayList<>();
    if (task == null) {
      return calls;
    }
    Matcher file = FILE.matcher(task);
    if (offered.contains(READ_FILE) && file.find()) {
      calls.add(new RuleDecision.Action(READ_FILE,
          JsonNodeFactory.instance.objectNode().put("path", file.group(1))));
    }
    Matcher expression = EXPRESSION.matcher(task);
    if (offered.contains(CALCULATOR) && expression.find()) {
      calls.add(new RuleDecision.Action(CALCULATOR,
          JsonNodeFactory.instance.objectNode().put("expression", expression.group().trim())));
    }
    return calls;
  }
}
