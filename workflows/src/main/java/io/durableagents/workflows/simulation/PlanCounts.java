package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.durableagents.workflows.agent.AgentStepResult;

/**
 * What the agents' strategies did across a simulation: plans made, simulation steps served from an
 * earlier plan (no LLM call), re-plans, and steps ended by force.
 *
 * @param plansMade planner calls that produced a plan (ReWOO)
 * @param planStepsReused agent steps that ran a step of an earlier plan, with no LLM call
 * @param replans plans made again after a failed step or an invalidated planned action
 * @param forcedFinishes agent steps ended by force (iteration bound, repeated action, token budget)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PlanCounts(long plansMade, long planStepsReused, long replans, long forcedFinishes) {
  public static final PlanCounts ZERO = new PlanCounts(0, 0, 0, 0);

  /** These counts plus what one agent step did. */
  public PlanCounts plus(AgentStepResult r) {
    return new PlanCounts(plansMade + (r.planMade() ? 1 : 0),
        planStepsReused + (r.planStepReused() ? 1 : 0), replans + r.replans(),
        forcedFinishes + (r.forcedFinish() != null ? 1 : 0));
  }
}
