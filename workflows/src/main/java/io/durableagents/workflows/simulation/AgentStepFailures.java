package io.durableagents.workflows.simulation;

import io.durableagents.workflows.agent.AgentFailureMode;
import io.durableagents.workflows.agent.AgentRuntime;
import io.durableagents.workflows.agent.rewoo.ReWooReasoning;
import io.durableagents.workflows.llm.SpentBeforeFailure;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.StrategyMetrics;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Workflow;
import java.util.Map;

/**
 * Agent steps that fail for good, in a simulation: each becomes a failed {@link AgentStepResult} (the
 * agent takes no action, its plan is kept) instead of ending the run; then the simulation's {@link
 * AgentFailureMode} decides whether the run goes on ({@code skip}) or ends ({@code stop}) with a
 * failure of type {@link SimulationFailureTypes#AGENT_STEP_FAILED} naming the agent, the step and the
 * cause. Workflow code only. Histories from before this change (whose runs ended on a failed agent step)
 * replay as they were: {@link #recoverable()} is false for them.
 */
public final class AgentStepFailures {
  /** The change id of recording failed agent steps instead of failing the run. */
  public static final String CHANGE_ID = "agent-step-failure-recorded";

  /**
   * The change id of ending the run at a failure of the model's set-up (a missing key, a key refused,
   * a model that does not exist), whatever the failure mode.
   */
  public static final String SETUP_CHANGE_ID = "agent-step-setup-failure-ends-run";

  /** Failure types that no agent of a model can get past: they end the run, never skipped. */
  private static final java.util.List<String> SETUP_FAILURES = java.util.List.of(
      LlmFailureTypes.PROVIDER_NOT_CONFIGURED, LlmFailureTypes.AUTHENTICATION,
      LlmFailureTypes.MODEL_NOT_FOUND);

  private AgentStepFailures() {}

  /** The set-up failure type {@code failure} (as {@link #describe} wrote it) starts with, or null. */
  static String setupFailure(String failure) {
    if (failure == null) {
      return null;
    }
    for (String type : SETUP_FAILURES) {
      if (failure.startsWith(type + ":")) {
        return type;
      }
    }
    return null;
  }

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

  /**
   * Counts the failed steps among {@code results} in the workflow's metrics; with {@code mode} STOP,
   * ends the run at the first one (in agent order).
   *
   * @return how many failed
   */
  public static int settle(Map<String, AgentStepResult> results, Iterable<String> agentOrder,
      AgentFailureMode mode, Strategy strategy, int step) {
    int failed = 0;
    for (String id : agentOrder) {
      AgentStepResult r = results.get(id);
      if (r == null || !r.failedForGood()) {
        continue;
      }
      String setup = setupFailure(r.failure());
      if (setup != null && Workflow.getVersion(SETUP_CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1) {
        // not this agent's bad luck: every agent on this model fails the same way
        throw ApplicationFailure.newNonRetryableFailure(r.failure().substring(setup.length() + 1).strip()
            + " (agent " + id + ", step " + step + "; every agent on this model fails the same way)",
            setup);
      }
      if (mode == AgentFailureMode.STOP) {
        throw ApplicationFailure.newNonRetryableFailure("agent " + id + " failed at step " + step
            + " (--on-agent-failure stop): " + r.failure(), SimulationFailureTypes.AGENT_STEP_FAILED);
      }
      failed++;
    }
    if (failed > 0) {
      StrategyMetrics.count(StrategyMetrics.FAILED_AGENT_STEPS, strategy, failed);
      Workflow.getLogger(AgentStepFailures.class)
          .warn("step {}: {} agent step(s) failed and were skipped", step, failed);
    }
    return failed;
  }
}
