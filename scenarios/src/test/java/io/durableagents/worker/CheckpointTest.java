package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.activities.checkpoint.CheckpointFileException;
import io.durableagents.activities.checkpoint.DirectoryCheckpointStore;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.memory.MemoryKind;
import io.durableagents.workflows.memory.MemoryOptions;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.CheckpointSaved;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints: written every N steps and on demand through the worker's store (atomic files with a
 * checksum), and a run started from one ends exactly as the undisturbed run, paying only for the
 * steps after it.
 */
class CheckpointTest {
  @TempDir
  Path dir;

  private TestWorkflowEnvironment env;
  private RecordingChatModel model;
  private DirectoryCheckpointStore store;

  private void start() {
    model = new RecordingChatModel(Builtins.rulesModel());
    store = new DirectoryCheckpointStore(dir.resolve("checkpoints"));
    env = TestWorkers.start(Builtins.plugin().registerModel("recorded", model)
        .setCheckpointStore(store).build());
  }

  @AfterEach
  void tearDown() {
    if (env != null) {
      env.close();
    }
  }

  private SimulationWorkflow stub(String id) {
    return env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
  }

  private static SimulationInput input() {
    AgentOptions citizens = AgentOptions.newBuilder().setModel("recorded").setStrategy(Strategy.REWOO).setTtl(3).build();
    AgentOptions cops = AgentOptions.newBuilder().setModel("recorded").setStrategy(Strategy.COT).build();
    return new SimulationInput("epstein", 10, 5, EpsteinParameters.DEFAULTS.withAgents(8, 2), citizens,
        Map.of("cop", cops), null).withMemory(MemoryOptions.of(MemoryKind.LONG_TERM, 2)).withContinueAsNewEvery(4);
  }

  @Test
  void aRunStartedFromACheckpointEndsAsTheUndisturbedRunAndPaysOnlyForTheStepsAfterIt() throws Exception {
    start();
    SimulationResult reference = stub("ref").run(input().withCheckpointEvery(3));
    for (int step : List.of(3, 6, 9)) {
      assertTrue(Files.isRegularFile(store.file("ref", step)), "checkpoint after step " + step);
    }
    assertTrue(Files.notExists(store.file("ref", 10)));
    Checkpoint six = store.load(store.file("ref", 6).toString());
    assertEquals("ref", six.simulationId());
    assertEquals(6, six.step());
    long callsBefore = model.requests.size();
    SimulationResult resumed = stub("from-6").run(six.input());
    assertEquals(reference.perStep(), resumed.perStep());
    assertEquals(reference.finalCounts(), resumed.finalCounts());
    assertEquals(reference.llmCalls(), resumed.llmCalls());
    assertEquals(reference.usage(), resumed.usage());
    long paidAfter = model.requests.size() - callsBefore;
    long expected = reference.llmCalls() - reference.perStep().get(5).llmCalls();
    assertEquals(expected, paidAfter, "only the calls of steps 7-10 were made again");
    // the boundary query of a finished run holds its last step
    assertEquals(10, env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class, "ref").boundary().step());
  }

  @Test
  void aCheckpointOnDemandIsWrittenAtTheNextBoundaryAndRefusedOnceTheRunIsOver() throws Exception {
    start();
    SimulationWorkflow sim = stub("on-demand");
    WorkflowClient.start(sim::run, input().withSteps(200));
    SimulationWorkflow running = env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class, "on-demand");
    running.pause();
    CheckpointSaved saved = running.checkpoint();
    assertTrue(Files.isRegularFile(Path.of(saved.location())), saved.toString());
    assertEquals(running.boundary().step(), saved.step());
    Checkpoint loaded = store.load(saved.location());
    assertEquals(saved.step(), loaded.input().state().step());
    assertTrue(!loaded.input().state().paused(), "a run started from it does not start paused");
    running.stop();
    env.getWorkflowClient().newUntypedWorkflowStub("on-demand").getResult(30, TimeUnit.SECONDS, SimulationResult.class);
    // a closed run takes no update: the server answers that the execution is completed
    assertThrows(WorkflowNotFoundException.class, running::checkpoint);
  }

  @Test
  void aDamagedOrCutCheckpointIsRefusedNamingTheFile() throws Exception {
    start();
    stub("dmg").run(input().withSteps(3).withCheckpointEvery(3));
    Path file = store.file("dmg", 3);
    String text = Files.readString(file);
    Path changed = dir.resolve("changed.json");
    Files.writeString(changed, text.replaceFirst("\"llmCalls\" : \\d+", "\"llmCalls\" : 1"));
    CheckpointFileException damaged = assertThrows(CheckpointFileException.class, () -> store.load(changed.toString()));
    assertTrue(damaged.getMessage().startsWith(changed + " is damaged: its checksum is "), damaged.getMessage());
    Path cut = dir.resolve("cut.json");
    Files.writeString(cut, text.substring(0, text.length() / 2));
    CheckpointFileException half = assertThrows(CheckpointFileException.class, () -> store.load(cut.toString()));
    assertTrue(half.getMessage().startsWith(cut + " is not a checkpoint: not JSON"), half.getMessage());
    CheckpointFileException missing = assertThrows(CheckpointFileException.class,
        () -> store.load(dir.resolve("none.json").toString()));
    assertEquals("no checkpoint file " + dir.resolve("none.json"), missing.getMessage());
  }

  @Test
  void theLatestCheckpointIsTheLastWrittenNotALaterStepLeftByAnEarlierRunOfTheSameId() throws Exception {
    start();
    // an earlier simulation under this id got to step 6; the one now under it has written step 3 only
    stub("reused").run(input().withSteps(6).withCheckpointEvery(3));
    Path earlierSix = store.file("reused", 6);
    Files.setLastModifiedTime(earlierSix, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));
    Checkpoint three = store.load(store.file("reused", 3).toString());
    store.save(three);
    assertEquals(store.file("reused", 3), store.latest("reused").orElseThrow());
    // the newer simulation going on writes later steps again: the newest is the latest
    store.save(new Checkpoint("reused", 6, store.load(earlierSix.toString()).input()));
    assertEquals(earlierSix, store.latest("reused").orElseThrow());
    assertTrue(store.latest("never-ran").isEmpty());
  }
}
