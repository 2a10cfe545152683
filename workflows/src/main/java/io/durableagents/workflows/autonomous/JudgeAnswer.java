package io.durableagents.workflows.autonomous;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a judge's answer, JSON with one result per success criterion (bare, or in a code fence or
 * prose), into a {@link JudgeVerdict}; an answer that is not JSON or lacks a criterion is a judge
 * failure. Pure, so workflow code.
 */
final class JudgeAnswer {
  private JudgeAnswer() {}

  /** The verdict in a judge's answer, or null when it lacks a criterion or is not JSON. */
  static JudgeVerdict parse(int round, String text, List<String> criteria) {
    JsonNode root = Json.tryParse(text == null ? "" : stripFence(text));
    if (root == null) {
      return null;
    }
    JsonNode results = root.isArray() ? root : root.path("results");
    if (!results.isArray()) {
      return null;
    }
    List<JudgeVerdict.CriterionResult> out = new ArrayList<>();
    boolean all = true;
    for (String criterion : criteria) {
      JudgeVerdict.CriterionResult found = null;
      for (JsonNode r : results) {
        if (criterion.equalsIgnoreCase(r.path("criterion").asText()) && r.path("passed").isBoolean()) {
          found = new JudgeVerdict.CriterionResult(criterion, r.path("passed").asBoolean(),
              r.path("reason").asText(""));
          break;
        }
      }
      if (found == null) {
        return null;
      }
      all &= found.passed();
      out.add(found);
    }
    return new JudgeVerdict(round, all, out);
  }

  private static String stripFence(String text) {
    String t = text.strip();
    int start = t.indexOf('{');
    int arrayStart = t.indexOf('[');
    if (start < 0 || (arrayStart >= 0 && arrayStart < start)) {
      start = arrayStart;
    }
    int end = Math.max(t.lastIndexOf('}'), t.lastIndexOf(']'));
    return start >= 0 && end > start ? t.substring(start, end + 1) : t;
  }
}
