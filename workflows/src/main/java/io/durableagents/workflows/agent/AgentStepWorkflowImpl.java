package io.durableagents.workflows.agent;

import io.durableagents.workflows.agent.cot.CotReasoning;
import io.durableagents.workflows.scenario.Scenarios;

/** Runs one agent step with the strategy its options name. */
public class AgentStepWorkflowImpl implements AgentStepWorkflow {
  @Override
  public AgentStepResult step(AgentStepInput input) {
    AgentRuntime runtime = new AgentRuntime(input);
    switch (input.options().strategy()) {
      case COT:
        return new CotReasoning(runtime, Scenarios.prompts(input.scenario())).step();
      default:
        throw new IllegalStateException("no implementation for " + input.options().strategy());
    }
  }
}
