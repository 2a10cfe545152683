package io.durableagents.starter.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.StrategyFailureTypes;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.simulation.LlmCosts;
import io.durableagents.workflows.simulation.PlanCounts;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.StepCounts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a run cost, as the command line says it: a simulation's calls and tokens by role and strategy,
 * failed agent steps' calls included, and why the steps failed (a failed task's calls and why its plan
 * was rejected: {@code FailuresTest}).
 */
class CostSummaryTest {
  /** The failure of a ReWOO plan rejected twice, as the workflow writes it. */
  private static final String REJECTED = "the ReWOO planner made an invalid plan twice (the second time after it"
      + " was shown the errors).\nErrors of the corrected plan:\n- step 1 (move_one_step): direction: \"UP\" is"
      + " not one of N, S, E, W\nErrors of the first plan:\n- the plan has no steps";

  @Test
  void aSimulationsSummaryCountsTheCallsOfFailedStepsByRoleAndSaysWhyTheyFailed() {
    AgentStepResult failed = AgentStepResult.failed("cop-1", 1, null, StrategyFailureTypes.INVALID_PLAN + ": "
        + REJECTED, new TokenUsage(100, 20), 2, 0);
    AgentStepResult ok = new AgentStepResult("citizen-1", 1, "fine", List.of(), List.of(), null,
        new TokenUsage(50, 10), 1, 0);
    LlmCosts costs = LlmCosts.NONE.plus("cop", "rewoo", failed).plus("cop", "rewoo", failed)
        .plus("citizen", "cot", ok).plusMemory("citizen", 1, new TokenUsage(30, 5));
    SimulationResult r = new SimulationResult("sim-x", "epstein", 7, 1,
        List.of(new StepCounts(1, Map.of("active", 1), 6L, 365L, 2L)), Map.of("active", 1), 3, 6, 0,
        new TokenUsage(280, 55), PlanCounts.ZERO, false, 1, List.of(), 2, List.of(), null, costs);

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new SimulationRunner(null, new PrintStream(bytes, true)).printSummary(r);
    String text = bytes.toString();

    assertTrue(text.contains("Agent steps: 3, LLM calls: 6"), text);
    assertTrue(text.contains("LLM calls by role:\n  cop, rewoo: 4 LLM calls (4 of them in 2 failed agent steps),"
        + " 200 tokens in, 40 out\n  citizen, cot: 1 LLM call, 50 tokens in, 10 out\n  citizen, memory: 1 LLM call,"
        + " 30 tokens in, 5 out\n"), text);
    assertTrue(text.contains("Failed agent steps: 2, skipped"), text);
    assertTrue(text.contains("\n  2 x ReWooInvalidPlan: the ReWOO planner made an invalid plan twice: step 1"
        + " (move_one_step): direction: \"UP\" is not one of N, S, E, W\n"), text);
  }
}
