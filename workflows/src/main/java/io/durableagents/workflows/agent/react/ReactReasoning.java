package io.durableagents.workflows.agent.react;

import io.durableagents.workflows.agent.AgentRuntime;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.scenario.ScenarioPrompts;
import io.durableagents.workflows.task.AgentTaskResult;

/** ReAct: Thought, Action, Observation as a bounded, deterministic loop. (To be written.) */
public final class ReactReasoning {
  private final AgentRuntime runtime;
  private final ScenarioPrompts prompts;

  public ReactReasoning(AgentRuntime runtime, ScenarioPrompts prompts) {
    this.runtime = runtime;
    this.prompts = prompts;
  }

  /** One agent step in a simulation. */
  public AgentStepResult step() {
    throw new UnsupportedOperationException("ReAct is not written yet");
  }

  /** One task outside simulations. */
  public AgentTaskResult task(String task) {
    throw new UnsupportedOperationException("ReAct is not written yet");
  }
}
