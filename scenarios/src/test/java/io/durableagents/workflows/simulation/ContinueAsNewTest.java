package io.durableagents.workflows.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.api.Json;
import io.temporal.failure.ApplicationFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** When a simulation continues as new, and the state it carries. */
class ContinueAsNewTest {
  private static final long EVENTS = SimulationWorkflowImpl.HISTORY_EVENTS_BUDGET;
  private static final long BYTES = SimulationWorkflowImpl.HISTORY_BYTES_BUDGET;

  @Test
  void oneMoreStepAsLargeAsTheAverageMustStayWithinTheHistoryBudget() {
    // 4 steps of 1,000 events: a fifth makes 5,000, the budget itself
    assertFalse(ContinueAsNew.nextStepPassesHistoryBudget(4_000, 0, 4));
    assertTrue(ContinueAsNew.nextStepPassesHistoryBudget(4_004, 0, 4));
    // one large step: the next would double it
    assertTrue(ContinueAsNew.nextStepPassesHistoryBudget(EVENTS / 2 + 1, 0, 1));
    assertFalse(ContinueAsNew.nextStepPassesHistoryBudget(10, BYTES / 2, 1));
    assertTrue(ContinueAsNew.nextStepPassesHistoryBudget(10, BYTES / 2 + 1, 1));
  }

  @Test
  void theRunContinuesAfterItsStepIntervalWhateverTheHistory() {
    SimulationInput every3 = SimulationInput.of("epstein", 10, 1).withContinueAsNewEvery(3)
        .withContinueAsNewWhenSuggested(false);
    assertFalse(ContinueAsNew.due(every3, 2));
    assertTrue(ContinueAsNew.due(every3, 3));
  }

  @Test
  void aStateTooLargeForOnePayloadEvenDeflatedEndsTheRunNamingItsSize() {
    Random random = new Random(1);
    List<String> warnings = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      StringBuilder noise = new StringBuilder();
      for (int j = 0; j < 1_000; j++) {
        noise.append((char) ('a' + random.nextInt(26)));
      }
      warnings.add(noise.toString());
    }
    SimulationState large = new SimulationState(7, Json.MAPPER.createObjectNode(), 1, null, null, null, null,
        0, 0, 0, null, null, false, false, 1, Map.of(), warnings);
    ApplicationFailure e = assertThrows(ApplicationFailure.class, () -> ContinueAsNew.checkSize(large, 7));
    assertEquals(SimulationFailureTypes.STATE_TOO_LARGE, e.getType());
    assertTrue(e.getOriginalMessage().startsWith("the simulation's state after step 7 is "), e.getOriginalMessage());
    assertTrue(e.getOriginalMessage().contains("bytes even deflated, over the " + TaskBudget.MAX_PAYLOAD_BYTES),
        e.getOriginalMessage());

    SimulationState small = new SimulationState(7, Json.MAPPER.createObjectNode(), 1, null, null, null, null,
        0, 0, 0, null, null, false, false, 1, Map.of(), warnings.subList(0, 10));
    ContinueAsNew.checkSize(small, 7);
  }
}
