package io.durableagents.workflows.memory;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * How the agents of a simulation remember. Memory is workflow state: it is carried across
 * continue-as-new and bounded, so histories stay bounded too.
 *
 * <pre>{@code
 * MemoryOptions memory = new MemoryOptions(MemoryKind.LONG_TERM, 5, null);
 * }</pre>
 *
 * @param kind the memory module (default {@link MemoryKind#NONE})
 * @param capacity the most entries kept per agent (default {@link #DEFAULT_CAPACITY}): the short-term
 *     window, or the episodic store
 * @param maxSummaryChars the longest long-term summary kept (default {@link #DEFAULT_MAX_SUMMARY_CHARS});
 *     a longer answer is cut to its last characters, the newest part of the summary
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MemoryOptions(MemoryKind kind, Integer capacity, Integer maxSummaryChars) {
  public static final int DEFAULT_CAPACITY = 5;
  public static final int DEFAULT_MAX_SUMMARY_CHARS = 1500;
  public static final MemoryOptions NONE = new MemoryOptions(MemoryKind.NONE, null, null);

  public MemoryOptions {
    kind = kind == null ? MemoryKind.NONE : kind;
    capacity = capacity == null ? DEFAULT_CAPACITY : capacity;
    maxSummaryChars = maxSummaryChars == null ? DEFAULT_MAX_SUMMARY_CHARS : maxSummaryChars;
  }

  /** A memory of {@code kind} with the default sizes. */
  public static MemoryOptions of(MemoryKind kind, int capacity) {
    return new MemoryOptions(kind, capacity, null);
  }

  /**
   * Checks the sizes.
   *
   * @throws IllegalArgumentException naming the bad field
   */
  public void validate() {
    if (capacity < 1) {
      throw new IllegalArgumentException("memory capacity must be >= 1, was " + capacity);
    }
    if (maxSummaryChars < 100) {
      throw new IllegalArgumentException("memory maxSummaryChars must be >= 100, was " + maxSummaryChars);
    }
  }
}
