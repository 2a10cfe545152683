package io.durableagents.workflows.agent;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.List;

/**
 * The steps of several agents in one simulation step, run side by side in one workflow: each agent's
 * step is exactly what {@link AgentStepWorkflow} runs, and each of its LLM and tool calls is still an
 * activity of its own (summary {@code llm: <model> · <agent id>}), so a worker that dies mid-step costs only the
 * calls that were in flight. One workflow for many agents saves most of the workflow tasks and
 * child-workflow events that a workflow per agent step costs: the simulation's {@code
 * agentsPerWorkflow} setting chooses it.
 */
@WorkflowInterface
public interface AgentGroupStepWorkflow {
  /** The agents' results, in the order of {@code input.agents()}. */
  /** The workflow type of a group step. */
  String TYPE = "AgentGroupStep";

  @WorkflowMethod(name = TYPE)
  List<AgentStepResult> steps(AgentGroupStepInput input);
}
