package io.durableagents.workflows.memory;

import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.llm.ToolChoice;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Adds a step's entries to an agent's memory, making the LLM call its kind needs (workflow code).
 *
 * <ul>
 *   <li>{@link MemoryKind#SHORT_TERM}: appends and keeps the last {@code capacity} entries.
 *   <li>{@link MemoryKind#LONG_TERM}: appends; when more than {@code capacity} are kept, every entry
 *       over it goes, oldest first, into one {@code memory-consolidation} call with the summary so
 *       far, and leaves the window only when the new summary has come back. Mesa-LLM once dropped
 *       evicted entries that never reached the summary; here a failed call keeps them in the window
 *       and the next step's call folds them in, up to {@link #HARD_LIMIT_FACTOR} x capacity (past that
 *       the oldest are dropped and the summary says how many were lost, so memory stays bounded).
 *   <li>{@link MemoryKind#EPISODIC}: grades the new entries in one {@code memory-importance} call
 *       ({@code Importance: <1-5>} per line), appends them, and while more than {@code capacity} are
 *       kept removes the one with the lowest score = importance + {@link #RECENCY_WEIGHT} x {@link
 *       #RECENCY_DECAY}^age (age in steps; the oldest goes on a tie).
 * </ul>
 *
 * <pre>{@code
 * MemoryKeeper keeper = new MemoryKeeper(options, request -> Async.function(llm::chat, request));
 * MemoryKeeper.Update u = keeper.remember("rules", memory, entries, step).get();
 * }</pre>
 */
public final class MemoryKeeper {
  /** A long-term window whose consolidation keeps failing grows to at most this many times capacity. */
  public static final int HARD_LIMIT_FACTOR = 3;

  public static final double RECENCY_WEIGHT = 5.0;
  public static final double RECENCY_DECAY = 0.8;

  private final MemoryOptions options;
  private final Function<LlmRequest, Promise<LlmResponse>> llm;

  /**
   * @param options the memory's kind and sizes
   * @param llm starts one LLM call (an activity) and promises its answer
   */
  public MemoryKeeper(MemoryOptions options, Function<LlmRequest, Promise<LlmResponse>> llm) {
    this.options = options;
    this.llm = llm;
  }

  /** A memory after an update, with the LLM calls and tokens the update used. */
  public record Update(AgentMemory memory, int llmCalls, TokenUsage usage) {}

  /** Adds {@code added} (this step's entries) to {@code memory}, asking {@code model} where needed. */
  public Promise<Update> remember(String model, AgentMemory memory, List<MemoryEntry> added, int step) {
    AgentMemory m = memory == null ? AgentMemory.empty(options.kind()) : memory;
    List<MemoryEntry> all = new ArrayList<>(m.entries());
    switch (options.kind()) {
      case NONE:
        return done(new Update(m, 0, TokenUsage.ZERO));
      case SHORT_TERM:
        all.addAll(added);
        return done(new Update(new AgentMemory(m.kind(), lastOf(all, options.capacity()), null, 0),
            0, TokenUsage.ZERO));
      case LONG_TERM:
        all.addAll(added);
        return consolidate(model, m, all);
      case EPISODIC:
        if (added.isEmpty()) {
          return done(new Update(m, 0, TokenUsage.ZERO));
        }
        return grade(model, m, added, step);
      default:
        throw new IllegalStateException("no memory for " + options.kind());
    }
  }

  private Promise<Update> consolidate(String model, AgentMemory m, List<MemoryEntry> all) {
    int over = all.size() - options.capacity();
    if (over <= 0) {
      return done(new Update(new AgentMemory(m.kind(), all, m.summary(), m.consolidatedEntries()),
          0, TokenUsage.ZERO));
    }
    List<MemoryEntry> evicted = List.copyOf(all.subList(0, over));
    List<MemoryEntry> kept = List.copyOf(all.subList(over, all.size()));
    LlmRequest request = new LlmRequest(model,
        List.of(ChatTurn.system(MemoryPrompts.consolidationSystem(options.maxSummaryChars())),
            ChatTurn.user(MemoryPrompts.consolidationUser(m.summary(), evicted))),
        List.of(), ToolChoice.NONE, null, MemoryPrompts.CONSOLIDATION_PURPOSE);
    return llm.apply(request).handle((LlmResponse r, RuntimeException failure) -> {
      if (failure == null && r.text() != null && !r.text().isBlank()) {
        return new Update(new AgentMemory(m.kind(), kept, bound(r.text().strip()),
            m.consolidatedEntries() + evicted.size()), 1, r.usage());
      }
      // the summary did not come back: keep the entries in the window for the next step's call
      int hardLimit = HARD_LIMIT_FACTOR * options.capacity();
      if (all.size() <= hardLimit) {
        return new Update(new AgentMemory(m.kind(), all, m.summary(), m.consolidatedEntries()), 0,
            TokenUsage.ZERO);
      }
      int lost = all.size() - hardLimit;
      String note = "(" + lost + " entries up to step " + all.get(lost - 1).step()
          + " were lost: their consolidation failed)";
      String summary = m.summary() == null ? note : m.summary() + " " + note;
      return new Update(new AgentMemory(m.kind(), lastOf(all, hardLimit), bound(summary),
          m.consolidatedEntries()), 0, TokenUsage.ZERO);
    });
  }

  private Promise<Update> grade(String model, AgentMemory m, List<MemoryEntry> added, int step) {
    LlmRequest request = new LlmRequest(model,
        List.of(ChatTurn.system(MemoryPrompts.importanceSystem()),
            ChatTurn.user(MemoryPrompts.importanceUser(added))),
        List.of(), ToolChoice.NONE, null, MemoryPrompts.IMPORTANCE_PURPOSE);
    return llm.apply(request).handle((LlmResponse r, RuntimeException failure) -> {
      // a failed grading call leaves the default grade: the entries are kept all the same
      List<Integer> grades =
          MemoryPrompts.parseImportance(failure == null ? r.text() : null, added.size());
      List<MemoryEntry> all = new ArrayList<>(m.entries());
      for (int i = 0; i < added.size(); i++) {
        all.add(added.get(i).graded(grades.get(i)));
      }
      while (all.size() > options.capacity()) {
        all.remove(lowestScore(all, step));
      }
      return failure == null
          ? new Update(new AgentMemory(m.kind(), all, null, 0), 1, r.usage())
          : new Update(new AgentMemory(m.kind(), all, null, 0), 0, TokenUsage.ZERO);
    });
  }

  /** The index of the entry episodic memory forgets first at {@code step}. */
  static int lowestScore(List<MemoryEntry> entries, int step) {
    int worst = 0;
    double worstScore = Double.MAX_VALUE;
    for (int i = 0; i < entries.size(); i++) {
      double score = score(entries.get(i), step);
      if (score < worstScore) {
        worst = i;
        worstScore = score;
      }
    }
    return worst;
  }

  /** Importance plus recency: what episodic memory keeps an entry for. */
  public static double score(MemoryEntry e, int step) {
    int importance = e.importance() == null ? MemoryPrompts.DEFAULT_IMPORTANCE : e.importance();
    return importance + RECENCY_WEIGHT * Math.pow(RECENCY_DECAY, Math.max(0, step - e.step()));
  }

  private String bound(String summary) {
    int max = options.maxSummaryChars();
    return summary.length() <= max ? summary : summary.substring(summary.length() - max);
  }

  private static List<MemoryEntry> lastOf(List<MemoryEntry> all, int n) {
    return all.size() <= n ? List.copyOf(all) : List.copyOf(all.subList(all.size() - n, all.size()));
  }

  private static Promise<Update> done(Update u) {
    return Workflow.newPromise(u);
  }
}
