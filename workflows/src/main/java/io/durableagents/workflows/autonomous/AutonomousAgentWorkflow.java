package io.durableagents.workflows.autonomous;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.List;

/**
 * An autonomous agent run from a spec: think, todo and spawn as workflow-side tools, a reasoning
 * pattern across turns (react, todo_driven, plan_execute, reflexion) and guardrails (iterations, a
 * token budget including sub-agents, a wall-clock timer). Sub-agents are child workflows of the same
 * type. Every LLM call and external tool call is an activity; the thought chain, the todo list and
 * the spawned tasks are workflow state, so a worker that dies costs only the calls in flight.
 *
 * <pre>{@code
 * AutonomousAgentWorkflow agent = client.newWorkflowStub(AutonomousAgentWorkflow.class,
 *     WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("auto-1").build());
 * AutonomousAgentResult result = agent.run(AutonomousAgentInput.root(spec, "Compare A and B"));
 * }</pre>
 */
@WorkflowInterface
public interface AutonomousAgentWorkflow {
  /** The workflow type name. */
  String TYPE = "AutonomousAgent";

  @WorkflowMethod(name = TYPE)
  AutonomousAgentResult run(AutonomousAgentInput input);

  /** The todo list as it stands, in order of creation. */
  @QueryMethod(name = "todos")
  List<TodoItem> todos();

  /** The sub-agents spawned so far and where each stands. */
  @QueryMethod(name = "subAgents")
  List<SubAgentReport> subAgents();
}
