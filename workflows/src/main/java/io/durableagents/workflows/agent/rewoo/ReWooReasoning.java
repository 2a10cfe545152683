package io.durableagents.workflows.agent.rewoo;

import io.durableagents.workflows.agent.AgentRuntime;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.scenario.ScenarioPrompts;
import io.durableagents.workflows.task.AgentTaskResult;

/** ReWOO: planner, worker, solver; plan TTL in simulations. (To be written.) */
public final class ReWooReasoning {
  private final AgentRuntime runtime;
  private final ScenarioPrompts prompts;

  public ReWooReasoning(AgentRuntime runtime, ScenarioPrompts prompts) {
    this.runtime = runtime;
    this.prompts = prompts;
  }

  /** One agent step in a simulation. */
  public AgentStepResult step() {
    throw new UnsupportedOperationException("ReWOO is not written yet");
  }

  /** One task outside simulations. */
  public AgentTaskResult task(String task) {
    throw new UnsupportedOperationException("ReWOO is not written yet");
  }
}
