package io.durableagents.workflows.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The prompts of memory: the memory section every strategy puts in its system prompt, and the two
 * calls memory makes itself (consolidation into the long-term summary, importance grading).
 */
public final class MemoryPrompts {
  /** The purpose of a long-term consolidation call (metrics read {@code memory} as its strategy). */
  public static final String CONSOLIDATION_PURPOSE = "memory-consolidation";

  /** The purpose of an episodic importance grading call. */
  public static final String IMPORTANCE_PURPOSE = "memory-importance";

  /** The first line of the consolidation call's system prompt, which the rules model recognises. */
  public static final String CONSOLIDATION_HEADER = "You keep the long-term memory of an agent.";

  /** The first line of the grading call's system prompt, which the rules model recognises. */
  public static final String IMPORTANCE_HEADER = "You grade how important an agent's memories are.";

  /** Line prefixes of the consolidation request and of the grading answer. */
  public static final String SUMMARY_PREFIX = "Summary so far: ";

  public static final String ENTRY_PREFIX = "- ";
  public static final String IMPORTANCE_PREFIX = "Importance: ";

  /** The grade of an entry whose grade could not be read from the answer. */
  public static final int DEFAULT_IMPORTANCE = 3;

  private static final Pattern GRADE = Pattern.compile("(?i)importance\\s*[:=]\\s*\\**\\s*([0-9]+)");

  private MemoryPrompts() {}

  /** The memory section of an agent's system prompt, or an empty string when it remembers nothing. */
  public static String section(AgentMemory memory) {
    if (memory == null || memory.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder("\nYour memory (").append(memory.kind().label()).append("):\n");
    if (memory.summary() != null && !memory.summary().isBlank()) {
      sb.append("Long-term summary of ").append(memory.consolidatedEntries())
          .append(" earlier entries: ").append(memory.summary().strip().replace('\n', ' ')).append('\n');
    }
    for (MemoryEntry e : memory.entries()) {
      sb.append(ENTRY_PREFIX).append("step ").append(e.step());
      if (e.importance() != null) {
        sb.append(" (importance ").append(e.importance()).append("/5)");
      }
      sb.append(": ").append(e.text().replace('\n', ' ')).append('\n');
    }
    return sb.toString();
  }

  /** The consolidation call's system prompt. */
  public static String consolidationSystem(int maxChars) {
    return CONSOLIDATION_HEADER + "\nFold the new entries into the summary so far. Keep every fact "
        + "that may matter later (who did what to whom, promises, prices, arrests, messages); drop "
        + "repetition. Answer with the new summary only, in plain text, at most " + maxChars
        + " characters.";
  }

  /** The consolidation call's user message: the summary so far and the entries to fold in. */
  public static String consolidationUser(String summary, List<MemoryEntry> entries) {
    StringBuilder sb = new StringBuilder();
    sb.append(SUMMARY_PREFIX).append(summary == null || summary.isBlank() ? "(none)"
        : summary.strip().replace('\n', ' ')).append('\n');
    sb.append("New entries:\n");
    for (MemoryEntry e : entries) {
      sb.append(ENTRY_PREFIX).append("step ").append(e.step()).append(": ")
          .append(e.text().replace('\n', ' ')).append('\n');
    }
    return sb.toString();
  }

  /** The grading call's system prompt. */
  public static String importanceSystem() {
    return IMPORTANCE_HEADER + "\nRate each entry from 1 (mundane: a routine move) to 5 (crucial: "
        + "an arrest, a deal, a threat, a change of mind). Answer with exactly one line per entry, in "
        + "the order given, each of the form '" + IMPORTANCE_PREFIX + "<1-5>', and nothing else.";
  }

  /** The grading call's user message: the entries to grade, one per line. */
  public static String importanceUser(List<MemoryEntry> entries) {
    StringBuilder sb = new StringBuilder("Entries:\n");
    for (MemoryEntry e : entries) {
      sb.append(ENTRY_PREFIX).append("step ").append(e.step()).append(": ")
          .append(e.text().replace('\n', ' ')).append('\n');
    }
    return sb.toString();
  }

  /**
   * The grades in a grading answer, one per entry in order: the numbers after {@code Importance:},
   * clamped to [1, 5]; an entry the answer has no grade for gets {@link #DEFAULT_IMPORTANCE}.
   */
  public static List<Integer> parseImportance(String answer, int entries) {
    List<Integer> grades = new ArrayList<>();
    if (answer != null) {
      Matcher m = GRADE.matcher(answer);
      while (m.find() && grades.size() < entries) {
        int g;
        try {
          g = Integer.parseInt(m.group(1));
        } catch (NumberFormatException e) {
          g = DEFAULT_IMPORTANCE;
        }
        grades.add(Math.max(1, Math.min(5, g)));
      }
    }
    while (grades.size() < entries) {
      grades.add(DEFAULT_IMPORTANCE);
    }
    return grades;
  }
}
