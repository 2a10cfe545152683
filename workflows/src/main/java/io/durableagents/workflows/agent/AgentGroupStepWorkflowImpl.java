package io.durableagents.workflows.agent;

import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import java.util.ArrayList;
import java.util.List;

/** Runs the agents' steps of a group in parallel, each as {@link AgentStepWorkflowImpl} would. */
public class AgentGroupStepWorkflowImpl implements AgentGroupStepWorkflow {
  @Override
  public List<AgentStepResult> steps(AgentGroupStepInput input) {
    List<Promise<AgentStepResult>> running = new ArrayList<>();
    for (AgentStepInput agent : input.agents()) {
      AgentRuntime runtime = new AgentRuntime(agent, true);
      running.add(Async.function(AgentStepWorkflowImpl::run, runtime));
    }
    List<AgentStepResult> results = new ArrayList<>();
    for (Promise<AgentStepResult> p : running) {
      results.add(p.get());
    }
    return results;
  }
}
