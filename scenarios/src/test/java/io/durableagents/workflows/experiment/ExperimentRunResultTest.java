package io.durableagents.workflows.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.simulation.PlanCounts;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationState;
import io.durableagents.workflows.simulation.StepCounts;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A what-if's rows and totals count only what it did after the recorded state it went on from. */
class ExperimentRunResultTest {
  static StepCounts row(int step, long calls, long tokens, Long failed) {
    return new StepCounts(step, Map.of("active", step), calls, tokens, failed);
  }

  @Test
  void aWhatIfCountsCallsTokensAndFailedAgentStepsFromItsForkPointOn() {
    List<StepCounts> recorded = List.of(row(1, 10, 100, null), row(2, 20, 200, 1L));
    SimulationState at2 = new SimulationState(2, null, 0, Map.of(), Map.of(), Map.of(), recorded, 8, 20, 0,
        new TokenUsage(150, 50), PlanCounts.ZERO, false, false, 1, Map.of(), List.of(), List.of());
    List<StepCounts> all = List.of(row(1, 10, 100, null), row(2, 20, 200, 1L), row(3, 30, 300, 1L),
        row(4, 40, 400, 3L));
    SimulationResult result = new SimulationResult("w", "epstein", 1, 4, all, Map.of("active", 4), 16, 40, 0,
        new TokenUsage(300, 100), PlanCounts.ZERO, false, 1, List.of(), 3);
    ExperimentRunResult r = ExperimentRunResult.of(result, at2);
    assertEquals(List.of(3, 4), r.perStep().stream().map(StepCounts::step).toList());
    assertEquals(10L, r.perStep().get(0).llmCalls());
    assertEquals(100L, r.perStep().get(0).tokens());
    assertNull(r.perStep().get(0).failedAgentSteps(), "step 3 failed none of its own");
    assertEquals(2L, r.perStep().get(1).failedAgentSteps());
    assertEquals(2, r.failedAgentSteps(), "the recorded step's failure is not this run's");
    assertEquals(20, r.llmCalls());
    assertEquals(200, r.tokens());
    assertEquals(8, r.agentSteps());
  }
}
