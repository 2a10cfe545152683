package io.durableagents.workflows.agent;

import io.durableagents.workflows.scenario.BuiltinScenarios;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import java.util.ArrayList;
import java.util.List;

/** Runs the agents' steps of a group in parallel, each as {@link AgentStepWorkflowImpl} would. */
public class AgentGroupStepWorkflowImpl implements AgentGroupStepWorkflow {
  private final ScenarioRegistry scenarios;

  /** A group step that knows the built-in scenarios only. */
  public AgentGroupStepWorkflowImpl() {
    this(BuiltinScenarios.registry());
  }

  /** A group step that knows {@code scenarios} (the plugin passes the worker's registry). */
  public AgentGroupStepWorkflowImpl(ScenarioRegistry scenarios) {
    this.scenarios = scenarios;
  }

  @Override
  public List<AgentStepResult> steps(AgentGroupStepInput input) {
    List<Promise<AgentStepResult>> running = new ArrayList<>();
    for (AgentStepInput agent : input.agents()) {
      AgentRuntime runtime = new AgentRuntime(agent, true);
      running.add(Async.function(AgentStepWorkflowImpl::run, runtime, scenarios));
    }
    List<AgentStepResult> results = new ArrayList<>();
    for (Promise<AgentStepResult> p : running) {
      results.add(p.get());
    }
    return results;
  }
}
