package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.durableagents.activities.checkpoint.DirectoryCheckpointStore;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.memory.MemoryKind;
import io.durableagents.workflows.memory.MemoryOptions;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.converter.JacksonJsonPayloadConverter;
import io.temporal.testing.TestWorkflowEnvironment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forks: the state after any completed step of a recorded simulation, across its continue-as-new
 * runs, read by replaying its history, with no LLM call; a run started from it with unchanged settings
 * repeats the original's later steps exactly, and one with another strategy goes its own way.
 */
class ForkTest {
  @TempDir
  static Path dir;

  private static TestWorkflowEnvironment env;
  private static RecordingChatModel model;
  private static DurableAgentsPlugin plugin;
  private static DirectoryCheckpointStore store;
  private static SimulationResult reference;
  private static SimulationReplay replay;

  @BeforeAll
  static void record() {
    model = new RecordingChatModel(Builtins.rulesModel());
    store = new DirectoryCheckpointStore(dir.resolve("checkpoints"));
    plugin = Builtins.plugin().registerModel("recorded", model).setCheckpointStore(store).build();
    env = TestWorkers.start(plugin);
    reference = stub("ref").run(input(Strategy.REWOO).withCheckpointEvery(1));
    replay = new SimulationReplay(env.getWorkflowClient(), plugin);
  }

  @AfterAll
  static void close() {
    replay.close();
    env.close();
  }

  private static SimulationWorkflow stub(String id) {
    return env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
  }

  /** 10 steps in three runs (steps 1-4, 5-8, 9-10), ReWOO plans kept 3 steps, long-term memory. */
  private static SimulationInput input(Strategy citizens) {
    AgentOptions citizen = AgentOptions.newBuilder().setModel("recorded").setStrategy(citizens).setTtl(3).build();
    AgentOptions cops = AgentOptions.newBuilder().setModel("recorded").setStrategy(Strategy.COT).build();
    return new SimulationInput("epstein", 10, 5, EpsteinParameters.DEFAULTS.withAgents(8, 2), citizen,
        Map.of("cop", cops), null).withMemory(MemoryOptions.of(MemoryKind.LONG_TERM, 2)).withContinueAsNewEvery(4);
  }

  private static final ObjectMapper JSON = JacksonJsonPayloadConverter.newDefaultObjectMapper();

  @Test
  void theStateAfterEveryStepIsTheCheckpointWrittenThereAndCostsNoCall() throws Exception {
    int calls = model.requests.size();
    for (int step = 0; step <= 10; step++) {
      Checkpoint fork = replay.stateAfter(env.getWorkflowClient(), "ref", step);
      assertEquals(step, fork.step());
      assertEquals("ref", fork.simulationId());
      if (step == 0) {
        assertEquals(null, fork.input().state(), "step 0 is the original input");
        continue;
      }
      assertEquals(step, fork.input().state().step());
      Checkpoint written = store.load(store.file("ref", step).toString());
      assertEquals(JSON.valueToTree(written.input()), JSON.valueToTree(fork.input()), "the state after step " + step);
    }
    assertEquals(calls, model.requests.size(), "no LLM call");
    IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class,
        () -> replay.stateAfter(env.getWorkflowClient(), "ref", 11));
    assertEquals("'ref' completed 10 steps; step 11 is not in its history", beyond.getMessage());
  }

  @Test
  void aForkWithUnchangedSettingsRepeatsTheLaterStepsAndAnotherStrategyGoesItsOwnWay() {
    Checkpoint six = replay.stateAfter(env.getWorkflowClient(), "ref", 6);
    SimulationResult same = stub("fork-same").run(six.input());
    assertEquals(reference.perStep(), same.perStep());
    assertEquals(reference.finalCounts(), same.finalCounts());
    assertEquals(reference.llmCalls(), same.llmCalls());

    AgentOptions cot = six.input().agentOptions().toBuilder().setStrategy(Strategy.COT).build();
    SimulationInput other = six.input().withAgentOptions(cot);
    SimulationResult changed = stub("fork-cot").run(other);
    assertEquals(reference.perStep().subList(0, 6), changed.perStep().subList(0, 6), "steps 1-6 are the original's");
    List<?> after = changed.perStep().subList(6, 10);
    assertNotEquals(reference.perStep().subList(6, 10), after, "CoT citizens plan every step");
    assertTrue(changed.llmCalls() > reference.llmCalls(), changed.llmCalls() + " vs " + reference.llmCalls());
  }
}
