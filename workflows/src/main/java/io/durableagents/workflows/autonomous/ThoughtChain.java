package io.durableagents.workflows.autonomous;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The {@code think} tool's scratchpad: a numbered chain of thoughts, returned in full on every call so
 * that the agent sees its whole reasoning even after the conversation was trimmed. A ring buffer of
 * {@code maxThoughts} (the oldest thought goes when it is full) bounds what it costs in tokens. Thoughts
 * keep their number for the whole run, so an evicted thought leaves a visible gap rather than a
 * renumbered chain. With {@code critique} on, every 5th thought gets a self-critique nudge.
 *
 * <p>Workflow state: pure and deterministic, replayed from the history's tool calls.
 *
 * <pre>{@code
 * ThoughtChain chain = new ThoughtChain(50, true);
 * String shown = chain.add("The user wants a CLI tool, so startup time matters");
 * }</pre>
 */
public final class ThoughtChain {
  /** Every how many thoughts the critique nudge comes. */
  public static final int CRITIQUE_EVERY = 5;

  private final int maxThoughts;
  private final boolean critique;
  private final Deque<String> thoughts = new ArrayDeque<>();
  private int recorded;

  /** A chain holding at most {@code maxThoughts} thoughts, nudging self-critique when asked to. */
  public ThoughtChain(int maxThoughts, boolean critique) {
    if (maxThoughts < 1) {
      throw new IllegalArgumentException("maxThoughts must be >= 1, was " + maxThoughts);
    }
    this.maxThoughts = maxThoughts;
    this.critique = critique;
  }

  /** Records a thought and returns the whole chain, with the critique nudge when it is due. */
  public String add(String thought) {
    String t = thought == null ? "" : thought.strip().replace('\n', ' ');
    if (thoughts.size() == maxThoughts) {
      thoughts.removeFirst();
    }
    thoughts.addLast(t);
    recorded++;
    String shown = format();
    if (critique && recorded % CRITIQUE_EVERY == 0) {
      shown += "\n\n" + critiqueNudge(recorded);
    }
    return shown;
  }

  /** The chain as the agent sees it: {@code Thoughts (3):} and one numbered line per thought. */
  public String format() {
    StringBuilder sb = new StringBuilder("Thoughts (").append(thoughts.size()).append("):");
    int number = recorded - thoughts.size() + 1;
    for (String t : thoughts) {
      sb.append('\n').append(number++).append(". ").append(t);
    }
    return sb.toString();
  }

  /** The thoughts held now, oldest first. */
  public List<String> thoughts() {
    return new ArrayList<>(thoughts);
  }

  /** How many thoughts were recorded in the whole run, evicted ones included. */
  public int recorded() {
    return recorded;
  }

  /** The nudge appended to every {@value #CRITIQUE_EVERY}th thought when critique is on. */
  public static String critiqueNudge(int recorded) {
    return "You have recorded " + recorded + " thoughts. Before proceeding, critically evaluate your "
        + "reasoning. What assumptions might be wrong? What have you missed?";
  }
}
