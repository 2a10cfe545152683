package io.durableagents.workflows.agent;

import io.durableagents.workflows.agent.rewoo.ReWooReasoning;
import io.durableagents.workflows.llm.SpentBeforeFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Workflow;

/**
 * Agent steps that fail for good: each becomes a failed {@link AgentStepResult} (the agent takes no
 * action, its plan is kept) instead of ending the run, with what it spent and the reason in a line;
 * the simulation then settles them by its {@link AgentFailureMode} ({@code
 * io.durableagents.workflows.simulation.FailedAgentSteps}). Workflow code only. Histories from before this change (whose runs ended on a failed agent step)
 * replay as they were: {@link #recoverable()} is false for them.
 */
public final class AgentStepFailures {
  /** The change id of recording failed agent steps instead of failing the run. */
  public static final String CHANGE_ID = "agent-step-failure-recorded";

  private AgentStepFailures() {}

  /** True when this workflow records a failed agent step (false when replaying an older history). */
  public static boolean recoverable() {
    return Workflow.getVersion(CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1;
  }

  /**
   * The failed result of {@code agent}'s step, for {@code failure} of its child workflow: with the LLM
   * and tool calls the step made before it failed when the failure carries them ({@link
   * SpentBeforeFailure}).
   */
  public static AgentStepResult failed(AgentStepInput agent, TemporalFailure failure) {
    SpentBeforeFailure spent = SpentBeforeFailure.of(failure).orElse(SpentBeforeFailure.NONE);
    if (spent.isNone() || Workflow.getVersion(SpentBeforeFailure.CHANGE_ID, Workflow.DEFAULT_VERSION, 1) < 1) {
      return AgentStepResult.failed(agent.agentId(), agent.observation().step(), agent.plan(), describe(failure));
    }
    return AgentStepResult.failed(agent.agentId(), agent.observation().step(), agent.plan(), describe(failure),
        spent.usage(), (int) spent.llmCalls(), (int) spent.toolCalls());
  }

  /**
   * The failed result of {@code runtime}'s step, which failed with {@code failure} inside the workflow
   * that ran it (a group step): with the LLM and tool calls it made before it failed. Runs recorded
   * before those were counted ({@link SpentBeforeFailure#CHANGE_ID}) count none, as they did.
   */
  public static AgentStepResult failed(AgentRuntime runtime, TemporalFailure failure) {
    AgentStepInput agent = runtime.input();
    boolean nothing = runtime.llmCalls() == 0 && runtime.toolCalls() == 0;
    if (nothing || Workflow.getVersion(SpentBeforeFailure.CHANGE_ID, Workflow.DEFAULT_VERSION, 1) < 1) {
      return failed(agent, failure);
    }
    return AgentStepResult.failed(agent.agentId(), agent.observation().step(), agent.plan(), describe(failure),
        runtime.usage(), runtime.llmCalls(), runtime.toolCalls());
  }

  /**
   * A failure as one line for a summary: {@link #describe}'s first line, and for a rejected ReWOO plan
   * why it was rejected ({@code ReWooInvalidPlan: the ReWOO planner made an invalid plan twice: the plan
   * has no steps}), at most {@value #MAX_REASON_CHARS} characters.
   */
  public static String reason(String failure) {
    if (failure == null) {
      return null;
    }
    String reason = ReWooReasoning.rejectionSummary(failure);
    return reason.length() <= MAX_REASON_CHARS ? reason : reason.substring(0, MAX_REASON_CHARS - 3) + "...";
  }

  /** The longest {@link #reason}. */
  public static final int MAX_REASON_CHARS = 300;

  /**
   * The root cause's type and message: {@code LlmMalformedResponse: the model server's answer ...}, or
   * {@code InvalidPlan: the ReWOO planner made an invalid plan twice ...}.
   */
  public static String describe(Throwable failure) {
    Throwable t = failure;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    if (t instanceof ApplicationFailure a) {
      return a.getType() + ": " + a.getOriginalMessage();
    }
    if (t instanceof TemporalFailure f) {
      return f.getClass().getSimpleName() + ": " + f.getOriginalMessage();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }
}
