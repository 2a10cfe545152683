package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.ScenarioWorld;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.List;

/**
 * A multi-agent simulation. Each step it builds every agent's observation, runs the agents' steps as
 * child {@link io.durableagents.workflows.agent.AgentStepWorkflow}s in parallel, and applies their
 * actions to the world in a seeded random order. The same seed gives the same run, whether or not it
 * continued as new on the way.
 *
 * <p>It is steerable while it runs: {@link #pause()}, {@link #resume()} and {@link #stop()} are
 * signals, taken at step boundaries (a step in progress always completes), and the queries answer
 * across continue-as-new, since every run of a simulation keeps its workflow id.
 *
 * <pre>{@code
 * SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class,
 *     WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS)
 *         .setWorkflowId("sim-epstein-42").build());
 * WorkflowClient.start(sim::run, new SimulationInput("epstein", 500, 42L, null, null, null, null));
 * SimulationWorkflow running = client.newWorkflowStub(SimulationWorkflow.class, "sim-epstein-42");
 * running.pause();
 * AgentState cop = running.agent("cop-0");
 * running.stop(); // the result holds the steps done so far
 * }</pre>
 */
@WorkflowInterface
public interface SimulationWorkflow {
  @WorkflowMethod(name = "Simulation")
  SimulationResult run(SimulationInput input);

  /** Where the run is: step, agents, LLM calls and tokens so far, the latest counts, paused or not. */
  @QueryMethod
  SimulationProgress progress();

  /**
   * Every agent's plan, in agent order: who holds which plan and for how many more steps. Agents
   * without a plan are listed with none.
   */
  @QueryMethod
  List<AgentPlanStatus> plans();

  /** The recorded variables of every completed step after {@code step}, for a follower to catch up. */
  @QueryMethod
  List<StepCounts> stepsAfter(int step);

  /** The world as it is at the last step boundary: the scenario's {@link ScenarioWorld#snapshot()}. */
  @QueryMethod
  JsonNode world();

  /**
   * One agent: what it will see next, its plan, its memory and its last actions' outcomes.
   *
   * @throws IllegalArgumentException when the simulation has no such agent
   */
  @QueryMethod
  AgentState agent(String agentId);

  /**
   * The simulation as at its last step boundary: its input with the whole state that continue-as-new
   * carries, from which a new run goes on exactly as this one did (a checkpoint's content, and what a
   * fork reads from a recorded history by replaying it up to a step).
   */
  @QueryMethod
  Checkpoint boundary();

  /**
   * Writes a checkpoint at the next step boundary (at once when paused or between steps) through the
   * worker's checkpoint store, and returns where. Refused once the run is over.
   */
  @UpdateMethod
  CheckpointSaved checkpoint();

  @UpdateValidatorMethod(updateName = "checkpoint")
  void checkpointValidator();

  /**
   * Changes adjustable parameters from a step on ({@code intervene <id> --param legitimacy=0.3}): set at
   * the boundary before that step, marked in the result. Refused, before anything reaches the history,
   * for an unknown or fixed parameter, a value not allowed, a step that is past or running, or a run
   * that is over.
   */
  @UpdateMethod
  Intervention intervene(InterventionRequest request);

  @UpdateValidatorMethod(updateName = "intervene")
  void interveneValidator(InterventionRequest request);

  /**
   * The workflow ids of the agent steps (or group steps) of the step in progress that have not ended:
   * where tool calls that wait for approval are ({@code approvals <simulation id>} asks each of them).
   */
  @QueryMethod
  List<String> runningAgentSteps();

  /** The interventions so far, applied and scheduled. */
  @QueryMethod
  List<Intervention> interventions();

  /** Pauses before the next step; the step in progress completes. Pausing a paused run does nothing. */
  @SignalMethod
  void pause();

  /** Resumes a paused run. */
  @SignalMethod
  void resume();

  /**
   * Ends the run after the step in progress (at once when paused or not yet started): the result holds
   * every step completed, with {@link SimulationResult#stopped()} true.
   */
  @SignalMethod
  void stop();
}
