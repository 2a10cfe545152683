package io.durableagents.workflows.simulation;

import io.durableagents.workflows.agent.AgentFailureMode;
import io.durableagents.workflows.agent.AgentStepFailures;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.StrategyMetrics;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.util.Map;

/**
 * What a simulation does with its agents' failed steps ({@link AgentStepFailures}) once a step's
 * results are in: by the run's {@link AgentFailureMode} it goes on ({@code skip}) or ends ({@code
 * stop}) with a failure of type {@link SimulationFailureTypes#AGENT_STEP_FAILED} naming the agent, the
 * step and the cause; a failure of the model's set-up ends it whatever the mode. Workflow code only.
 */
public final class FailedAgentSteps {
  /**
   * The change id of ending the run at a failure of the model's set-up (a missing key, a key refused,
   * a model that does not exist), whatever the failure mode.
   */
  public static final String SETUP_CHANGE_ID = "agent-step-setup-failure-ends-run";

  /** Failure types that no agent of a model can get past: they end the run, never skipped. */
  private static final java.util.List<String> SETUP_FAILURES = java.util.List.of(
      LlmFailureTypes.PROVIDER_NOT_CONFIGURED, LlmFailureTypes.AUTHENTICATION,
      LlmFailureTypes.MODEL_NOT_FOUND);

  private FailedAgentSteps() {}

  /** The set-up failure type {@code failure} (as {@link AgentStepFailures#describe} wrote it) starts with, or null. */
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
      Workflow.getLogger(FailedAgentSteps.class)
          .warn("step {}: {} agent step(s) failed and were skipped", step, failed);
    }
    return failed;
  }
}
