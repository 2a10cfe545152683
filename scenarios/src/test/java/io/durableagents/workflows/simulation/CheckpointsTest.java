package io.durableagents.workflows.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.api.Json;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A simulation's checkpoints on their own: the boundary they hold, the update that asks for one and
 * waits for it, and a write that fails becoming a warning.
 */
class CheckpointsTest {
  private static final String QUEUE = "checkpoints";
  /** The step after which the stand-in store fails. */
  private static final int FAILING_STEP = 1;

  private static SimulationState state(int step, boolean paused) {
    return new SimulationState(step, Json.MAPPER.createObjectNode().put("cells", step), 99, null, null, null,
        null, 0, 0, 0, null, null, paused, paused, 1, null);
  }

  @WorkflowInterface
  public interface CheckpointProbe {
    /** Passes {@code steps} step boundaries, each when a checkpoint is asked for; returns the warnings. */
    @WorkflowMethod
    List<String> run(int steps);

    @UpdateMethod
    CheckpointSaved checkpoint();
  }

  public static class CheckpointProbeImpl implements CheckpointProbe {
    private final Checkpoints checkpoints = new Checkpoints();

    @Override
    public List<String> run(int steps) {
      Set<String> warnings = new LinkedHashSet<>();
      for (int step = 0; step < steps; step++) {
        checkpoints.mark("sim", step, SimulationInput.of("epstein", steps, 1), state(step, false));
        Workflow.await(checkpoints::requested);
        checkpoints.save(step, warnings);
      }
      return List.copyOf(warnings);
    }

    @Override
    public CheckpointSaved checkpoint() {
      return checkpoints.awaitNext();
    }
  }

  /** Keeps what it is given; fails for good after {@link #FAILING_STEP}. */
  private final List<Checkpoint> stored = Collections.synchronizedList(new ArrayList<>());

  private CheckpointSaved store(Checkpoint c) {
    if (c.step() == FAILING_STEP) {
      throw ApplicationFailure.newNonRetryableFailure("disk full", "IOException");
    }
    stored.add(c);
    return new CheckpointSaved("/checkpoints/sim-" + c.step() + ".json", c.step(), 100, "abc");
  }

  private TestWorkflowEnvironment env;

  @BeforeEach
  void setUp() {
    env = TestWorkflowEnvironment.newInstance();
    Worker worker = env.newWorker(QUEUE);
    worker.registerWorkflowImplementationTypes(CheckpointProbeImpl.class);
    worker.registerActivitiesImplementations((CheckpointActivities) this::store);
    env.start();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  @Test
  void theUpdateWaitsForTheCheckpointOfTheBoundaryAndAFailedWriteIsAWarning() {
    CheckpointProbe probe = env.getWorkflowClient().newWorkflowStub(CheckpointProbe.class,
        WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId("probe").build());
    WorkflowClient.start(probe::run, 3);

    CheckpointSaved first = probe.checkpoint();
    assertEquals(0, first.step());
    assertEquals("/checkpoints/sim-0.json", first.location());
    WorkflowUpdateException failed = assertThrows(WorkflowUpdateException.class, probe::checkpoint);
    ApplicationFailure cause = (ApplicationFailure) failed.getCause();
    assertEquals(SimulationFailureTypes.CHECKPOINT_FAILED, cause.getType());
    assertTrue(cause.getOriginalMessage().startsWith("the checkpoint after step 1 was not written: "),
        cause.getOriginalMessage());
    assertEquals(2, probe.checkpoint().step(), "a failed write does not stop the next");

    List<String> warnings = WorkflowClient.execute(probe::run, 3).join();
    assertEquals(1, warnings.size());
    assertEquals(cause.getOriginalMessage(), warnings.get(0));
    assertEquals(List.of(0, 2), stored.stream().map(Checkpoint::step).toList());
    Checkpoint written = stored.get(1);
    assertEquals("sim", written.simulationId());
    assertEquals(2, written.input().state().step(), "the checkpoint holds the state of its boundary");
  }

  @Test
  void theBoundaryStartsARunThatIsNeitherPausedNorStopping() {
    List<Checkpoint> saved = new ArrayList<>();
    Checkpoints checkpoints = new Checkpoints(step -> c -> {
      saved.add(c);
      return new CheckpointSaved("here", c.step(), 1, "abc");
    });
    assertNull(checkpoints.boundary());
    SimulationInput input = SimulationInput.of("epstein", 10, 1);
    checkpoints.mark("sim", 4, input, state(4, true));

    Checkpoint boundary = checkpoints.boundary();
    assertEquals(4, boundary.step());
    assertEquals(input.withState(state(4, false)), boundary.input());
    assertFalse(boundary.input().state().paused());
    assertFalse(boundary.input().state().stopRequested());
    Set<String> warnings = new LinkedHashSet<>();
    checkpoints.save(4, warnings);
    assertEquals(List.of(boundary), saved);
    assertTrue(warnings.isEmpty());
    assertFalse(checkpoints.requested());
  }
}
