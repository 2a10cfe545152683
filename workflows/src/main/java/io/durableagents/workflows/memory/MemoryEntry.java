package io.durableagents.workflows.memory;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One thing an agent remembers: what it did and what came of it at a step, or a message another
 * agent sent it.
 *
 * @param step the simulation step it happened at
 * @param text what happened, as the agent will read it
 * @param importance its importance from 1 to 5 as an LLM graded it (episodic memory), else null
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MemoryEntry(int step, String text, Integer importance) {
  public MemoryEntry(int step, String text) {
    this(step, text, null);
  }

  /** This entry with its grade. */
  public MemoryEntry graded(int importance) {
    return new MemoryEntry(step, text, importance);
  }
}
