package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.activities.llm.LlmSlotLimits;
import io.durableagents.activities.llm.LlmSlotsScope;
import io.durableagents.activities.llm.ModelSlots;
import io.durableagents.activities.llm.SharedModelSlots;
import io.durableagents.workflows.llm.slots.ModelSlotsWorkflow;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The plugin and {@value LlmSlotsScope#VARIABLE}: a value other than worker or shared fails at start-up
 * naming the variable; shared picks {@link SharedModelSlots}, worker (the default) the per-worker
 * slots; and a worker the plugin initialised runs the models' slots workflow.
 */
class SharedSlotsPluginTest {
  private static final LlmSlotLimits ONE = LlmSlotLimits.parse("openai:smollm2=1");
  private static final ModelSlots PER_WORKER = (model, holder, hold) -> ModelSlots.Slot.FREE;

  @Test
  void aScopeOtherThanWorkerOrSharedFailsAtStartUpNamingTheVariable() {
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> DurableAgentsPlugin.newBuilder()
        .configureFromEnvironment(Map.of(LlmSlotsScope.VARIABLE, "namespace")));
    assertTrue(bad.getMessage().startsWith(LlmSlotsScope.VARIABLE + "='namespace' is not one of: worker"),
        bad.getMessage());
  }

  @Test
  void sharedPicksTheSharedSlotsAndWorkerThePerWorkerOnes() {
    DurableAgentsPlugin.Builder shared = DurableAgentsPlugin.newBuilder()
        .configureFromEnvironment(Map.of(LlmSlotsScope.VARIABLE, "shared"));
    assertTrue(shared.settings.modelSlots(ONE, () -> PER_WORKER) instanceof SharedModelSlots);
    assertSame(ModelSlots.NONE, shared.settings.modelSlots(LlmSlotLimits.none(), () -> PER_WORKER));
    DurableAgentsPlugin.Builder byDefault = DurableAgentsPlugin.newBuilder().configureFromEnvironment(Map.of());
    assertSame(PER_WORKER, byDefault.settings.modelSlots(ONE, () -> PER_WORKER));
  }

  @Test
  void aWorkerThePluginInitialisedRunsTheSlotsWorkflow() throws Exception {
    try (TestWorkflowEnvironment env = TestWorkers.start(DurableAgentsPlugin.newBuilder().build())) {
      SharedModelSlots slots = new SharedModelSlots(ONE, env::getWorkflowClient);
      try (ModelSlots.Slot slot = slots.acquire("openai:smollm2", "sim/agent-1/step-1/5", Duration.ofSeconds(60))) {
        assertEquals(List.of("sim/agent-1/step-1/5"), env.getWorkflowClient()
            .newWorkflowStub(ModelSlotsWorkflow.class, ModelSlotsWorkflow.workflowId("openai:smollm2")).slots()
            .holders().stream().map(l -> l.holder()).toList());
      }
    }
  }
}
