package io.durableagents.workflows.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.Scenario;
import io.durableagents.api.SeededRandom;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.scenarios.epstein.EpsteinWorld;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.Plan;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.memory.AgentMemory;
import io.durableagents.workflows.memory.MemoryEntry;
import io.durableagents.workflows.memory.MemoryKeeper;
import io.durableagents.workflows.memory.MemoryKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a simulation carries from run to run: written, read back, and counted as steps come back. */
class DurableStateTest {
  private static final Scenario<?> EPSTEIN = Builtins.registry().get("epstein");

  /** A state at the start of a run: an Epstein world of 3 citizens and a cop. */
  private static DurableState started() {
    DurableState s = new DurableState();
    s.random = new SeededRandom(42);
    s.world = EpsteinWorld.create(EpsteinParameters.DEFAULTS.withAgents(3, 1), s.random);
    return s;
  }

  private static AgentStepResult result(String agentId, int llmCalls, int toolCalls, long tokensIn,
      List<String> warnings) {
    return new AgentStepResult(agentId, 1, "thought", List.of(), List.of(), null,
        new TokenUsage(tokensIn, 10), llmCalls, toolCalls, null, false, false, 0, warnings);
  }

  private static AgentStepInput input(String agentId, String role, Strategy strategy) {
    return new AgentStepInput("sim", "epstein", agentId, role, new Observation(1, Map.of(), Map.of()),
        null, List.of(), List.of(), AgentOptions.newBuilder().setStrategy(strategy).build());
  }

  @Test
  void aStateReadBackFromItsSnapshotWritesTheSameSnapshotForTheNextRun() throws Exception {
    DurableState s = started();
    s.random.nextDouble();
    s.step = 3;
    s.plans.put("citizen-0", new Plan(2, "stay quiet", 3));
    s.memories.put("citizen-1", new AgentMemory(MemoryKind.SHORT_TERM,
        List.of(new MemoryEntry(3, "you did: nothing", null)), null, 0));
    s.lastResults.put("cop-0", List.of("arrest_citizen: citizen-2 is already in jail"));
    s.pendingMessages.put("citizen-2", List.of("cop-0 says: stay calm"));
    s.perStep.add(new StepCounts(3, Map.of("active", 1), 12L, 340L, 2L));
    s.agentSteps = 12;
    s.llmCalls = 13;
    s.failedAgentSteps = 2;
    s.toolCalls = 1;
    s.usage = new TokenUsage(300, 40);
    s.planCounts = new PlanCounts(1, 2, 0, 1);
    s.agentStepBytes = new AgentStepBytes(12, 3000, 2000);
    s.llmCosts = LlmCosts.NONE.plus("citizen", "cot", result("citizen-0", 1, 0, 30, List.of()));
    s.warnings.add("the rules model has no policy for role 'mayor'");
    s.previousRuns = 1;
    ObjectNode legitimacy = Json.MAPPER.createObjectNode().put("legitimacy", 0.3);
    List<Intervention> interventions = List.of(new Intervention(1, 5, legitimacy, null, false, "why"));

    SimulationState written = s.snapshot(interventions);
    assertEquals(2, written.runs(), "the next run is this simulation's second");
    // as continue-as-new carries it: through its JSON
    SimulationState read = Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(written), SimulationState.class);
    DurableState next = new DurableState();
    next.restore(read, EPSTEIN.restore(read.world()));

    assertEquals(2, next.failedAgentSteps, "the failed steps so far come from the last step's counts");
    assertEquals(s.random.state(), next.random.state());
    SimulationState again = next.snapshot(read.interventions());
    assertEquals(3, again.runs());
    ObjectNode expected = Json.MAPPER.valueToTree(written);
    ObjectNode actual = Json.MAPPER.valueToTree(again);
    expected.remove("runs");
    actual.remove("runs");
    assertEquals(expected, actual);
  }

  @Test
  void aPauseOrStopAskedBeforeTheRunStartedStaysInForce() {
    SimulationState carried = started().snapshot(List.of());
    DurableState paused = new DurableState();
    paused.paused = true;
    paused.restore(carried, EPSTEIN.restore(carried.world()));
    assertTrue(paused.paused);

    DurableState stopping = new DurableState();
    SimulationState stopped = new SimulationState(carried.step(), carried.world(), carried.randomState(),
        null, null, null, null, 0, 0, 0, null, null, false, true, 1, null);
    stopping.restore(stopped, EPSTEIN.restore(stopped.world()));
    assertTrue(stopping.stopRequested);
    assertEquals(0, stopping.failedAgentSteps);
    assertNull(stopping.llmCosts, "a state written before costs were kept by role makes none up");
  }

  @Test
  void countAddsEachAgentStepsCallsTokensAndCostsByRoleAndKeepsAtMostTheMostWarnings() {
    DurableState s = started();
    for (int i = 0; i < SimulationResult.MAX_WARNINGS - 1; i++) {
      s.warnings.add("warning " + i);
    }
    Map<String, AgentStepInput> inputs = new LinkedHashMap<>();
    inputs.put("citizen-0", input("citizen-0", "citizen", Strategy.COT));
    inputs.put("cop-0", input("cop-0", "cop", Strategy.REACT));
    Map<String, AgentStepResult> results = Map.of(
        "citizen-0", result("citizen-0", 2, 1, 100, List.of("first")),
        "cop-0", result("cop-0", 3, 0, 200, List.of("second")));

    s.count(inputs, results);

    assertEquals(2, s.agentSteps);
    assertEquals(5, s.llmCalls);
    assertEquals(1, s.toolCalls);
    assertEquals(new TokenUsage(300, 20), s.usage);
    assertEquals(List.of("citizen/cot: 2 calls", "cop/react: 3 calls"), s.llmCosts.byRole().stream()
        .map(c -> c.role() + "/" + c.strategy() + ": " + c.llmCalls() + " calls").toList());
    assertEquals(SimulationResult.MAX_WARNINGS, s.warnings.size());
    assertTrue(s.warnings.contains("first"));
    assertTrue(!s.warnings.contains("second"), "warnings past the most kept are dropped");
  }

  @Test
  void aStateWithoutCostsByRoleCountsTotalsOnly() {
    DurableState s = started();
    s.llmCosts = null;
    s.count(Map.of("citizen-0", input("citizen-0", "citizen", Strategy.COT)),
        Map.of("citizen-0", result("citizen-0", 2, 0, 100, List.of())));
    s.countMemory("citizen-0", new MemoryKeeper.Update(AgentMemory.empty(MemoryKind.LONG_TERM), 1,
        new TokenUsage(50, 5)));
    assertEquals(3, s.llmCalls);
    assertEquals(new TokenUsage(150, 15), s.usage);
    assertNull(s.llmCosts);
  }

  @Test
  void countMemoryKeepsTheNewMemoryAndCountsItsCallsUnderTheRole() {
    DurableState s = started();
    AgentMemory after = new AgentMemory(MemoryKind.LONG_TERM, List.of(), "a summary", 4);
    s.countMemory("cop-0", new MemoryKeeper.Update(after, 1, new TokenUsage(50, 5)));
    assertEquals(after, s.memories.get("cop-0"));
    assertEquals(1, s.llmCalls);
    assertEquals(List.of("cop/" + LlmCosts.MEMORY), s.llmCosts.byRole().stream()
        .map(c -> c.role() + "/" + c.strategy()).toList());
  }
}
