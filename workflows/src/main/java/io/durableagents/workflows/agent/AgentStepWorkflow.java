package io.durableagents.workflows.agent;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One step of one agent: observation, plan state, strategy and options in; chosen actions and the
 * updated plan state out. Every LLM call inside is an activity, so a worker that dies mid-step costs
 * only the call that was in flight.
 *
 * <pre>{@code
 * AgentStepWorkflow step = client.newWorkflowStub(AgentStepWorkflow.class,
 *     WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build());
 * AgentStepResult result = step.step(input);
 * }</pre>
 */
@WorkflowInterface
public interface AgentStepWorkflow {
  /** The workflow type of an agent step. */
  String TYPE = "AgentStep";

  @WorkflowMethod(name = TYPE)
  AgentStepResult step(AgentStepInput input);
}
