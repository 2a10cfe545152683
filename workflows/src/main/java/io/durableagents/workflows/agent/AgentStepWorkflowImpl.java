package io.durableagents.workflows.agent;

import io.durableagents.api.ScenarioPrompts;
import io.durableagents.workflows.agent.cot.CotReasoning;
import io.durableagents.workflows.agent.react.ReactReasoning;
import io.durableagents.workflows.agent.rewoo.ReWooReasoning;
import io.durableagents.workflows.approval.ApprovalBook;
import io.durableagents.workflows.llm.SpentBeforeFailure;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import io.durableagents.workflows.tools.ToolPolicies;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;

/**
 * Runs one agent step with the strategy its options name, with the prompts of its scenario from the
 * worker's {@link ScenarioRegistry} and each external tool's call options from its {@link
 * ToolPolicies}.
 */
public class AgentStepWorkflowImpl implements AgentStepWorkflow {
  /** The metric counting agent steps, by strategy (Temporal's metrics scope: not emitted on replay). */
  public static final String AGENT_STEPS = StrategyMetrics.AGENT_STEPS;

  private final ScenarioRegistry scenarios;
  private final ToolPolicies toolPolicies;

  /** An agent step that knows {@code scenarios}, and runs tools with the default options. */
  public AgentStepWorkflowImpl(ScenarioRegistry scenarios) {
    this(scenarios, ToolPolicies.defaults());
  }

  /**
   * An agent step that knows {@code scenarios} and runs each tool with its options from {@code
   * toolPolicies} (the plugin passes the worker's).
   */
  public AgentStepWorkflowImpl(ScenarioRegistry scenarios, ToolPolicies toolPolicies) {
    this.scenarios = scenarios;
    this.toolPolicies = toolPolicies;
  }

  @Override
  public AgentStepResult step(AgentStepInput input) {
    // Answers the approvals query (and takes decisions) from the first task on; records nothing.
    ApprovalBook.current(toolPolicies);
    AgentRuntime runtime = new AgentRuntime(input, false, toolPolicies);
    try {
      return run(runtime, scenarios);
    } catch (RuntimeException failed) {
      // the calls it made were paid for: the simulation reads them from the failure and counts them
      throw SpentBeforeFailure.carriedBy(failed, spent(runtime));
    }
  }

  /** What {@code runtime}'s step spent so far. */
  static SpentBeforeFailure spent(AgentRuntime runtime) {
    return new SpentBeforeFailure(runtime.llmCalls(), runtime.usage(), runtime.toolCalls());
  }

  /**
   * Runs the agent step of {@code runtime}'s input with the strategy its options name, and counts it.
   * Workflow code: the agent step workflow and the group step workflow both run steps with it.
   */
  static AgentStepResult run(AgentRuntime runtime, ScenarioRegistry scenarios) {
    AgentStepInput input = runtime.input();
    ScenarioPrompts prompts = prompts(input, scenarios);
    Strategy strategy = input.options().strategy();
    AgentStepResult result;
    switch (strategy) {
      case COT:
        result = new CotReasoning(runtime, prompts).step();
        break;
      case REACT:
        result = new ReactReasoning(runtime, prompts).step();
        break;
      case REWOO:
        result = new ReWooReasoning(runtime, prompts).step();
        break;
      default:
        throw new IllegalStateException("no implementation for " + strategy);
    }
    return counted(runtime, strategy, result);
  }

  /**
   * Starts the agent step of {@code runtime}'s input without a workflow thread of its own, when its
   * strategy can run so (chain of thought): the same calls in the same order as {@link #run}, chained
   * on their promises. Null for the other strategies, which run on a thread ({@link Async#function}).
   * A step that fails at once (an unknown scenario) is a failed promise, as its thread would have been.
   */
  static Promise<AgentStepResult> runWithoutThread(AgentRuntime runtime, ScenarioRegistry scenarios) {
    Strategy strategy = runtime.input().options().strategy();
    if (strategy != Strategy.COT) {
      return null;
    }
    try {
      return new CotReasoning(runtime, prompts(runtime.input(), scenarios)).stepAsync()
          .thenApply(result -> counted(runtime, strategy, result));
    } catch (RuntimeException e) {
      return Workflow.newFailedPromise(e);
    }
  }

  private static ScenarioPrompts prompts(AgentStepInput input, ScenarioRegistry scenarios) {
    try {
      return scenarios.prompts(input.scenario());
    } catch (IllegalArgumentException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          e.getMessage(), ScenarioRegistry.UNKNOWN_SCENARIO);
    }
  }

  private static AgentStepResult counted(AgentRuntime runtime, Strategy strategy, AgentStepResult result) {
    result = result.withWarnings(runtime.warnings());
    StrategyMetrics.agentStep(strategy, result);
    return result;
  }
}
