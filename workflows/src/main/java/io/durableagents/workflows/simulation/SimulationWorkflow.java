package io.durableagents.workflows.simulation;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * A multi-agent simulation. Each step it builds every agent's observation, runs the agents' steps as
 * child {@link io.durableagents.workflows.agent.AgentStepWorkflow}s in parallel, and applies their
 * actions to the world in a seeded random order. The same seed gives the same run.
 *
 * <pre>{@code
 * SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class,
 *     WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS)
 *         .setWorkflowId("sim-epstein-42").build());
 * SimulationResult result = sim.run(new SimulationInput("epstein", 20, 42L, null, null, null, null));
 * }</pre>
 */
@WorkflowInterface
public interface SimulationWorkflow {
  @WorkflowMethod(name = "Simulation")
  SimulationResult run(SimulationInput input);

  /** Where the run is: step, agents, LLM calls and tokens so far, the latest counts. */
  @QueryMethod
  SimulationProgress progress();

  /**
   * Every agent's plan, in agent order: who holds which plan and for how many more steps. Agents
   * without a plan are listed with none.
   */
  @QueryMethod
  java.util.List<AgentPlanStatus> plans();

  /** The recorded variables of every completed step after {@code step}, for a follower to catch up. */
  @QueryMethod
  java.util.List<StepCounts> stepsAfter(int step);
}
