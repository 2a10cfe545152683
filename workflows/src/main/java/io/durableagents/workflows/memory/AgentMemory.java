package io.durableagents.workflows.memory;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What one agent remembers, as workflow state of the simulation and as part of each agent step's input.
 *
 * @param kind the memory module
 * @param entries the entries kept, oldest first
 * @param summary the long-term summary ({@link MemoryKind#LONG_TERM}), or null before the first
 *     consolidation
 * @param consolidatedEntries how many entries have been folded into {@code summary} so far
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AgentMemory(
    MemoryKind kind, List<MemoryEntry> entries, String summary, int consolidatedEntries) {
  public AgentMemory {
    kind = kind == null ? MemoryKind.NONE : kind;
    entries = entries == null ? List.of() : List.copyOf(entries);
  }

  /** An empty memory of {@code kind}. */
  public static AgentMemory empty(MemoryKind kind) {
    return new AgentMemory(kind, List.of(), null, 0);
  }

  /** True when there is nothing to remember yet. */
  public boolean isEmpty() {
    return entries.isEmpty() && (summary == null || summary.isBlank());
  }
}
