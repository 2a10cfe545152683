package io.durableagents.workflows.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.durableagents.workflows.agent.rewoo.ReWooStep;
import io.durableagents.workflows.agent.rewoo.ReWooStepResult;
import java.util.ArrayList;
import java.util.List;

/**
 * A plan an agent made, after Mesa-LLM's {@code Plan(step, llm_plan, ttl)}.
 *
 * <p>Unlike Mesa-LLM, which stores {@code ttl} and never reads it, the TTL here is workflow state: the
 * number of simulation steps the plan stays valid, kept by the simulation across worker restarts. A
 * ReWOO plan also carries its structured {@code steps} and the index of the next one to run, so an
 * agent resumes at the exact remaining step after a crash.
 *
 * @param step the simulation step the plan was made at
 * @param llmPlan the model's plan, as text
 * @param ttl how many simulation steps the plan stays valid (1: this step only)
 * @param steps the planned tool calls (ReWOO), one per simulation step; empty for other strategies
 * @param nextStep the index in {@code steps} of the next step to run
 * @param results what became of the steps that ran so far, one per step in plan order ({@code
 *     results.get(i)} is step i's); a later step's placeholders are filled from them. A world action's
 *     result has no output until its outcome comes back in the next observation
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Plan(int step, String llmPlan, int ttl, List<ReWooStep> steps, int nextStep,
    List<ReWooStepResult> results) {

  public Plan {
    steps = steps == null ? List.of() : List.copyOf(steps);
    results = results == null ? List.of() : List.copyOf(results);
  }

  /** A plan with steps and no results yet. */
  public Plan(int step, String llmPlan, int ttl, List<ReWooStep> steps, int nextStep) {
    this(step, llmPlan, ttl, steps, nextStep, List.of());
  }

  /** A plan with no structured steps (CoT, ReAct). */
  public Plan(int step, String llmPlan, int ttl) {
    this(step, llmPlan, ttl, List.of(), 0);
  }

  /** Whether the plan is still valid at simulation step {@code currentStep}. */
  public boolean validAt(int currentStep) {
    return currentStep >= step && currentStep < step + ttl;
  }

  /**
   * The planned steps still to run at simulation step {@code currentStep}: those not run yet that fit
   * in the plan's TTL. Zero when the plan has expired.
   */
  public int remainingStepsAt(int currentStep) {
    if (!validAt(currentStep)) {
      return 0;
    }
    int stepsLeftInTtl = step + ttl - currentStep;
    return Math.max(0, Math.min(steps.size() - nextStep, stepsLeftInTtl));
  }

  /** This plan with {@code nextStep} moved on by one. */
  public Plan advanced() {
    return new Plan(step, llmPlan, ttl, steps, nextStep + 1, results);
  }

  /** This plan with {@code nextStep} moved on by one and that step's result recorded. */
  public Plan advanced(ReWooStepResult result) {
    List<ReWooStepResult> more = new ArrayList<>(results);
    more.add(result);
    return new Plan(step, llmPlan, ttl, steps, nextStep + 1, more);
  }

  /** This plan with the result of step {@code index} replaced (a world action's outcome, seen later). */
  public Plan withResult(int index, ReWooStepResult result) {
    List<ReWooStepResult> updated = new ArrayList<>(results);
    updated.set(index, result);
    return new Plan(step, llmPlan, ttl, steps, nextStep, updated);
  }
}
