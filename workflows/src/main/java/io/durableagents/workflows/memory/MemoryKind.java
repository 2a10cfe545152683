package io.durableagents.workflows.memory;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How an agent remembers across simulation steps, after Mesa-LLM's memory modules. */
public enum MemoryKind {
  /** No memory: each step sees only its observation (and the last step's plan). */
  NONE,

  /** Mesa-LLM's {@code ShortTermMemory}: the last {@code capacity} entries; older ones are dropped. */
  SHORT_TERM,

  /**
   * Mesa-LLM's {@code STLTMemory}: the last {@code capacity} entries, and a long-term summary into
   * which an LLM call ({@code memory-consolidation}) folds every entry that leaves the short-term
   * window. Entries leave only once the summary that holds them has come back, so none is lost.
   */
  LONG_TERM,

  /**
   * Mesa-LLM's {@code EpisodicMemory}: each new entry is graded for importance (1 to 5) by an LLM call
   * ({@code memory-importance}, one per agent and step); when more than {@code capacity} are kept, the
   * entry with the lowest importance plus recency goes.
   */
  EPISODIC;

  /**
   * Parses {@code none}, {@code short-term}, {@code long-term} or {@code episodic}
   * (case-insensitively, {@code _} for {@code -} allowed).
   *
   * @throws IllegalArgumentException naming the allowed values
   */
  public static MemoryKind parse(String value) {
    String v = value == null ? "" : value.trim().replace('-', '_');
    for (MemoryKind k : values()) {
      if (k.name().equalsIgnoreCase(v)) {
        return k;
      }
    }
    throw new IllegalArgumentException("memory '" + value + "' is not one of: " + allowed());
  }

  /** The allowed names, as users write them. */
  public static String allowed() {
    return Arrays.stream(values()).map(MemoryKind::label).collect(Collectors.joining(", "));
  }

  /** The name as users write it: {@code short-term}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
