package io.durableagents.workflows.task;

import io.durableagents.workflows.agent.AgentTaskResult;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One agent on one task, outside any simulation, with the strategy its options name: every LLM call
 * and every tool call is an activity, so a run survives the death of its worker.
 *
 * <pre>{@code
 * AgentTaskWorkflow agent = client.newWorkflowStub(AgentTaskWorkflow.class,
 *     WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("agent-1").build());
 * AgentTaskResult result = agent.run(new AgentTaskInput("What is 17 * 23?", null,
 *     AgentOptions.newBuilder().setStrategy(Strategy.REACT).build()));
 * }</pre>
 */
@WorkflowInterface
public interface AgentTaskWorkflow {
  @WorkflowMethod(name = "AgentTask")
  AgentTaskResult run(AgentTaskInput input);
}
