package io.durableagents.workflows.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * A plan an agent made, after Mesa-LLM's {@code Plan(step, llm_plan, ttl)}.
 *
 * <p>Unlike Mesa-LLM, which stores {@code ttl} and never reads it, the TTL here is workflow state: the
 * number of simulation steps the plan stays valid, counted down by the simulation and kept across
 * worker restarts.
 *
 * @param step the simulation step the plan was made at
 * @param llmPlan the model's plan, as text
 * @param ttl how many simulation steps the plan stays valid (1: this step only)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Plan(int step, String llmPlan, int ttl) {
  /** Whether the plan is still valid at simulation step {@code currentStep}. */
  public boolean validAt(int currentStep) {
    return currentStep >= step && currentStep < step + ttl;
  }
}
