package io.durableagents.workflows.llm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.temporal.common.converter.Values;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.Workflow;
import java.util.Optional;

/**
 * What a workflow that failed had spent: the LLM calls that completed (each one paid for) with their
 * tokens, and its tool calls. It travels in the details of the failure the workflow fails with, so that
 * whoever reads the failure (the simulation that ran the agent step, the autonomous agent that spawned
 * a sub-agent, the command line) counts every call, whether the step succeeded or not.
 *
 * <p>The failure keeps its type, message and cause: {@link #carriedBy} adds these details to the
 * {@link ApplicationFailure} a workflow throws, or, for a failed activity, wraps it in one of the same
 * type and message. Workflows recorded before this ({@value #CHANGE_ID} version 1) fail as they did.
 *
 * <pre>{@code
 * try {
 *   return reasoning.step();
 * } catch (RuntimeException failed) {
 *   throw SpentBeforeFailure.carriedBy(failed, new SpentBeforeFailure(runtime.llmCalls(), runtime.usage(), 0));
 * }
 * }</pre>
 *
 * @param llmCalls the LLM calls that completed
 * @param usage their tokens
 * @param toolCalls the tool calls started
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SpentBeforeFailure(long llmCalls, TokenUsage usage, long toolCalls) {
  /** The change id of failures that carry what was spent. */
  public static final String CHANGE_ID = "failure-carries-usage";

  /** The first detail of a failure that carries one: tells it from any other failure's details. */
  public static final String MARKER = "durable-agents:spent-before-failure";

  public SpentBeforeFailure {
    usage = usage == null ? TokenUsage.ZERO : usage;
  }

  /** Nothing spent. */
  public static final SpentBeforeFailure NONE = new SpentBeforeFailure(0, TokenUsage.ZERO, 0);

  /** True when nothing was spent. */
  public boolean isNone() {
    return llmCalls == 0 && toolCalls == 0 && usage.total() == 0;
  }

  /**
   * The failure to throw instead of {@code failure}, carrying {@code spent}; {@code failure} itself when
   * nothing was spent, when it is not a failure of the run's work (a cancellation, a time-out), or when
   * this workflow was recorded before failures carried it. Workflow code only.
   */
  public static RuntimeException carriedBy(RuntimeException failure, SpentBeforeFailure spent) {
    if (spent == null || spent.isNone()
        || !(failure instanceof ApplicationFailure || failure instanceof ActivityFailure
            || failure instanceof ChildWorkflowFailure)
        || (failure instanceof ApplicationFailure a && a.getDetails().getSize() > 0)
        || Workflow.getVersion(CHANGE_ID, Workflow.DEFAULT_VERSION, 1) < 1) {
      return failure;
    }
    if (failure instanceof ApplicationFailure a) {
      return ApplicationFailure.newBuilder().setType(a.getType()).setMessage(a.getOriginalMessage())
          .setNonRetryable(a.isNonRetryable()).setCause(a.getCause()).setDetails(MARKER, spent).build();
    }
    // A failed activity or child: the same type and message at the top, the failure itself as the cause.
    ApplicationFailure root = innermost(failure);
    return ApplicationFailure.newBuilder()
        .setType(root == null ? failure.getClass().getSimpleName() : root.getType())
        .setMessage(root == null ? failure.getMessage() : root.getOriginalMessage())
        .setNonRetryable(true).setCause(failure).setDetails(MARKER, spent).build();
  }

  /** What {@code failure} (or a failure in its cause chain) says was spent, if it says. */
  public static Optional<SpentBeforeFailure> of(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ApplicationFailure a) {
        Optional<SpentBeforeFailure> spent = read(a.getDetails());
        if (spent.isPresent()) {
          return spent;
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<SpentBeforeFailure> read(Values details) {
    try {
      if (details == null || details.getSize() != 2 || !MARKER.equals(details.get(0, String.class))) {
        return Optional.empty();
      }
      return Optional.ofNullable(details.get(1, SpentBeforeFailure.class));
    } catch (RuntimeException notOurs) {
      // details of another kind, which the data converter cannot read as ours
      return Optional.empty();
    }
  }

  private static ApplicationFailure innermost(Throwable failure) {
    ApplicationFailure found = null;
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ApplicationFailure a) {
        found = a;
      }
    }
    return found;
  }
}
