package io.durableagents.workflows.task;

import io.durableagents.workflows.agent.AgentTaskResult;

import io.durableagents.api.Observation;
import io.durableagents.api.ScenarioPrompts;
import io.durableagents.workflows.agent.AgentRuntime;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.StrategyFailureTypes;
import io.durableagents.workflows.agent.StrategyMetrics;
import io.durableagents.workflows.agent.cot.CotReasoning;
import io.durableagents.workflows.agent.react.ReactReasoning;
import io.durableagents.workflows.agent.rewoo.ReWooReasoning;
import io.durableagents.workflows.approval.ApprovalBook;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.SpentBeforeFailure;
import io.durableagents.workflows.tools.ToolPolicies;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.util.List;
import java.util.Map;

/**
 * Runs one task with the strategy its options name; each external tool's calls run with its options
 * from the worker's {@link ToolPolicies}.
 */
public class AgentTaskWorkflowImpl implements AgentTaskWorkflow {
  /** The agent id of a single-task run, in idempotency keys and logs. */
  public static final String AGENT_ID = "agent";

  private final ToolPolicies toolPolicies;

  /** A task workflow that runs every tool with the default options. */
  public AgentTaskWorkflowImpl() {
    this(ToolPolicies.defaults());
  }

  /** A task workflow that runs each tool with its options from {@code toolPolicies} (the worker's). */
  public AgentTaskWorkflowImpl(ToolPolicies toolPolicies) {
    this.toolPolicies = toolPolicies;
  }

  @Override
  public AgentTaskResult run(AgentTaskInput input) {
    ApprovalBook.current(toolPolicies);
    if (input.task() == null || input.task().isBlank()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "the task is empty: say what the agent should do", StrategyFailureTypes.INVALID_TASK);
    }
    AgentStepInput context = new AgentStepInput(Workflow.getInfo().getWorkflowId(), null, AGENT_ID,
        null, new Observation(0, Map.of(), Map.of()), null, input.tools(), List.of(), input.options());
    AgentRuntime runtime = new AgentRuntime(context, false, toolPolicies);
    Strategy strategy = input.options().strategy();
    AgentTaskResult result;
    try {
      switch (strategy) {
        case COT:
          result = new CotReasoning(runtime, ScenarioPrompts.GENERIC).task(input.task());
          break;
        case REACT:
          result = new ReactReasoning(runtime, ScenarioPrompts.GENERIC).task(input.task());
          break;
        case REWOO:
          result = new ReWooReasoning(runtime, ScenarioPrompts.GENERIC).task(input.task());
          break;
        default:
          throw new IllegalStateException("no implementation for " + strategy);
      }
    } catch (RuntimeException failed) {
      // the calls it made were paid for: the failure says how many, for the command line to print
      throw SpentBeforeFailure.carriedBy(failed,
          new SpentBeforeFailure(runtime.llmCalls(), runtime.usage(), runtime.toolCalls()));
    }
    result = result.withOutcome(runtime.warnings(), answerProblem(result.answer(), runtime.lastResponse()))
        .withDeniedToolCalls(runtime.deniedToolCalls());
    StrategyMetrics.count(StrategyMetrics.AGENT_TASKS, strategy, 1);
    StrategyMetrics.count(StrategyMetrics.PLANS_MADE, strategy,
        result.plan() == null ? 0 : 1 + result.replans());
    StrategyMetrics.count(StrategyMetrics.REPLANS, strategy, result.replans());
    StrategyMetrics.count(StrategyMetrics.FORCED_FINISHES, strategy, result.forced() ? 1 : 0);
    return result;
  }

  /**
   * Why an answer is not a plain success: empty, or cut at an output limit (the last LLM call made the
   * answer: ReAct's last turn or forced finish, CoT's answer, ReWOO's solver); null when it is fine.
   */
  static String answerProblem(String answer, LlmResponse last) {
    if (answer == null || answer.isBlank()) {
      return AgentTaskResult.EMPTY;
    }
    return last != null && last.wasCut() ? AgentTaskResult.CUT : null;
  }
}
