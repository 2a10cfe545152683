package io.durableagents.activities.rules;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import io.durableagents.workflows.memory.MemoryPrompts;
import java.util.ArrayList;
import java.util.List;

/**
 * The offline {@code rules} model's answers to an agent's memory calls: a rule-based summary when asked to
 * consolidate, and a grade per entry when asked how important each is.
 */
final class RulesMemory {
  private RulesMemory() {}

  /**
   * The answer to a memory call, or null when the request is not one: a consolidation gets a
   * rule-based summary (the summary so far and the new entries, joined); an importance grading gets
   * one {@code Importance: n} line per entry, 5 for arrests, jail, deals and messages from others, 4
   * for a change of state, 2 for a blocked or failed action, 1 for the rest.
   */
  static AiMessage memory(List<ChatMessage> messages) {
    if (messages.isEmpty() || !(messages.get(0) instanceof SystemMessage)) {
      return null;
    }
    String system = RulesPrompts.text(messages.get(0));
    boolean consolidation = system.startsWith(MemoryPrompts.CONSOLIDATION_HEADER);
    if (!consolidation && !system.startsWith(MemoryPrompts.IMPORTANCE_HEADER)) {
      return null;
    }
    String summary = null;
    List<String> entries = new ArrayList<>();
    for (ChatMessage m : messages.subList(1, messages.size())) {
      for (String line : RulesPrompts.text(m).split("\n")) {
        if (line.startsWith(MemoryPrompts.SUMMARY_PREFIX)) {
          summary = line.substring(MemoryPrompts.SUMMARY_PREFIX.length()).strip();
        } else if (line.startsWith(MemoryPrompts.ENTRY_PREFIX)) {
          entries.add(line.substring(MemoryPrompts.ENTRY_PREFIX.length()).strip());
        }
      }
    }
    if (consolidation) {
      StringBuilder sb = new StringBuilder(RulesChatModel.RULE_SUMMARY_PREFIX);
      if (summary != null && !summary.equals("(none)")) {
        sb.append(summary.startsWith(RulesChatModel.RULE_SUMMARY_PREFIX)
            ? summary.substring(RulesChatModel.RULE_SUMMARY_PREFIX.length()) : summary).append(" | ");
      }
      sb.append(String.join(" | ", entries));
      return AiMessage.from(sb.toString());
    }
    StringBuilder sb = new StringBuilder(RulesChatModel.DISCLAIMER);
    for (String entry : entries) {
      sb.append('\n').append(MemoryPrompts.IMPORTANCE_PREFIX).append(importance(entry));
    }
    return AiMessage.from(sb.toString());
  }

  /** The highest grade of an entry's parts (an entry lists a step's outcomes, separated by ';'). */
  private static int importance(String entry) {
    int best = 1;
    for (String part : entry.toLowerCase(java.util.Locale.ROOT).split(";")) {
      int grade;
      if (part.contains("blocked") || part.contains("cannot") || part.contains("no citizen")
          || part.contains("out of your vision") || part.contains("only ")
          || part.contains("already")) {
        grade = 2;
      } else if (part.contains("arrested") || part.contains("jail") || part.contains(" says")
          || part.contains("bought") || part.contains("sold")) {
        grade = 5;
      } else if (part.contains("you are now")) {
        grade = 4;
      } else {
        grade = 1;
      }
      best = Math.max(best, grade);
    }
    return best;
  }
}
