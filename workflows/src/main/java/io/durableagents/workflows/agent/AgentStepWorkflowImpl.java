package io.durableagents.workflows.agent;

import io.durableagents.workflows.agent.cot.CotReasoning;
import io.durableagents.workflows.agent.react.ReactReasoning;
import io.durableagents.workflows.agent.rewoo.ReWooReasoning;
import io.durableagents.workflows.scenario.ScenarioPrompts;
import io.durableagents.workflows.scenario.Scenarios;

/** Runs one agent step with the strategy its options name. */
public class AgentStepWorkflowImpl implements AgentStepWorkflow {
  /** The metric counting agent steps, by strategy (Temporal's metrics scope: not emitted on replay). */
  public static final String AGENT_STEPS = StrategyMetrics.AGENT_STEPS;

  @Override
  public AgentStepResult step(AgentStepInput input) {
    return run(new AgentRuntime(input));
  }

  /**
   * Runs the agent step of {@code runtime}'s input with the strategy its options name, and counts it.
   * Workflow code: the agent step workflow and the group step workflow both run steps with it.
   */
  static AgentStepResult run(AgentRuntime runtime) {
    AgentStepInput input = runtime.input();
    ScenarioPrompts prompts = Scenarios.prompts(input.scenario());
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
    StrategyMetrics.agentStep(strategy, result);
    return result;
  }
}
