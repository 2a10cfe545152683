package io.durableagents.workflows.agent;

import io.durableagents.workflows.simulation.AgentStepFailures;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;

import io.durableagents.workflows.approval.ApprovalBook;
import io.durableagents.workflows.scenario.BuiltinScenarios;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import io.durableagents.workflows.tools.ToolPolicies;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import java.util.ArrayList;
import java.util.List;

/** Runs the agents' steps of a group in parallel, each as {@link AgentStepWorkflowImpl} would. */
public class AgentGroupStepWorkflowImpl implements AgentGroupStepWorkflow {
  private final ScenarioRegistry scenarios;
  private final ToolPolicies toolPolicies;

  /** A group step that knows the built-in scenarios only, and runs tools with the default options. */
  public AgentGroupStepWorkflowImpl() {
    this(BuiltinScenarios.registry());
  }

  /** A group step that knows {@code scenarios}, and runs tools with the default options. */
  public AgentGroupStepWorkflowImpl(ScenarioRegistry scenarios) {
    this(scenarios, ToolPolicies.defaults());
  }

  /**
   * A group step that knows {@code scenarios} and runs each tool with its options from {@code
   * toolPolicies} (the plugin passes the worker's).
   */
  public AgentGroupStepWorkflowImpl(ScenarioRegistry scenarios, ToolPolicies toolPolicies) {
    this.scenarios = scenarios;
    this.toolPolicies = toolPolicies;
  }

  @Override
  public List<AgentStepResult> steps(AgentGroupStepInput input) {
    ApprovalBook.current(toolPolicies);
    List<Promise<AgentStepResult>> running = new ArrayList<>();
    for (AgentStepInput agent : input.agents()) {
      AgentRuntime runtime = new AgentRuntime(agent, true, toolPolicies);
      running.add(Async.function(AgentStepWorkflowImpl::run, runtime, scenarios));
    }
    List<AgentStepResult> results = new ArrayList<>();
    for (int i = 0; i < running.size(); i++) {
      try {
        results.add(running.get(i).get());
      } catch (ActivityFailure | ApplicationFailure failed) {
        // One agent's step failed for good: recorded as failed, the others' results are kept.
        if (!AgentStepFailures.recoverable()) {
          throw failed;
        }
        results.add(AgentStepFailures.failed(input.agents().get(i), failed));
      }
    }
    return results;
  }
}
