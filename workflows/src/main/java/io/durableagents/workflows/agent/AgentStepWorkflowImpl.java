package io.durableagents.workflows.agent;

import io.durableagents.workflows.agent.cot.CotReasoning;
import io.durableagents.workflows.scenario.Scenarios;
import io.temporal.workflow.Workflow;
import java.util.Locale;
import java.util.Map;

/** Runs one agent step with the strategy its options name. */
public class AgentStepWorkflowImpl implements AgentStepWorkflow {
  /** The metric counting agent steps, by strategy (Temporal's metrics scope: not emitted on replay). */
  public static final String AGENT_STEPS = "durable_agents_agent_steps";

  @Override
  public AgentStepResult step(AgentStepInput input) {
    Workflow.getMetricsScope()
        .tagged(Map.of("strategy", input.options().strategy().name().toLowerCase(Locale.ROOT)))
        .counter(AGENT_STEPS)
        .inc(1);
    AgentRuntime runtime = new AgentRuntime(input);
    switch (input.options().strategy()) {
      case COT:
        return new CotReasoning(runtime, Scenarios.prompts(input.scenario())).step();
      default:
        throw new IllegalStateException("no implementation for " + input.options().strategy());
    }
  }
}
