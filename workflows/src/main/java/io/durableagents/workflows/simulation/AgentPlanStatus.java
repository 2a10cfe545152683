package io.durableagents.workflows.simulation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.durableagents.workflows.agent.Plan;

/**
 * Who holds which plan, as the {@code plans} query of a simulation answers: an agent's plan and how
 * much of it is left for the coming steps.
 *
 * @param agentId the agent
 * @param role its role
 * @param strategy its strategy ({@code cot}, {@code react}, {@code rewoo})
 * @param plan the plan it holds (its steps and the index of the next one), or null
 * @param validForSteps how many more simulation steps the plan stays valid (0: expired)
 * @param remainingPlannedSteps planned steps still to run within the TTL (ReWOO; 0 otherwise)
 * @param nextTool the tool of the next planned step, or null
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AgentPlanStatus(
    String agentId,
    String role,
    String strategy,
    Plan plan,
    int validForSteps,
    int remainingPlannedSteps,
    String nextTool) {

  /** The status of {@code plan} before simulation step {@code nextStep} runs. */
  public static AgentPlanStatus of(
      String agentId, String role, String strategy, Plan plan, int nextStep) {
    if (plan == null) {
      return new AgentPlanStatus(agentId, role, strategy, null, 0, 0, null);
    }
    int valid = plan.validAt(nextStep) ? plan.step() + plan.ttl() - nextStep : 0;
    int remaining = plan.remainingStepsAt(nextStep);
    String next = remaining > 0 ? plan.steps().get(plan.nextStep()).tool() : null;
    return new AgentPlanStatus(agentId, role, strategy, plan, valid, remaining, next);
  }
}
