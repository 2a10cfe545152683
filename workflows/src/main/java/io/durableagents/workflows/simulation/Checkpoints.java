package io.durableagents.workflows.simulation;

import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * A simulation's checkpoints: the whole state at the last step boundary ({@link #boundary()}, what a
 * checkpoint holds and a fork starts from), written through the worker's {@link CheckpointActivities}
 * when the {@code checkpoint} update asks ({@link #awaitNext()}) or every {@code checkpointEvery}
 * steps ({@link #save}). A write that fails becomes a warning of the run, not its failure. Workflow
 * code.
 */
final class Checkpoints {
  private final IntFunction<CheckpointActivities> store;
  /** The whole state at the last step boundary: what a checkpoint holds and a fork starts from. */
  private Checkpoint boundary;
  private boolean requested;
  private int attempted;
  private CheckpointSaved last;
  private String lastError;

  /** Checkpoints written through the worker's checkpoint activity. */
  Checkpoints() {
    this(step -> Workflow.newActivityStub(CheckpointActivities.class, CheckpointActivities.options(step)));
  }

  /** Checkpoints written through the store {@code store} gives for a step. */
  Checkpoints(IntFunction<CheckpointActivities> store) {
    this.store = store;
  }

  /**
   * Keeps the state of this step boundary, {@code state} of simulation {@code simulationId} after step
   * {@code step}, for {@link #boundary()} and checkpoints. A run started from it starts neither paused
   * nor stopping.
   */
  void mark(String simulationId, int step, SimulationInput input, SimulationState state) {
    SimulationState fresh = state.atBoundary();
    boundary = new Checkpoint(simulationId, step, input.withState(fresh));
  }

  /** The state at the last step boundary, or null before the run has read its input. */
  Checkpoint boundary() {
    return boundary;
  }

  /** Whether the {@code checkpoint} update asks for a checkpoint that is not written yet. */
  boolean requested() {
    return requested;
  }

  /**
   * Writes the boundary's checkpoint, after step {@code step}, through the store; a failure becomes a
   * warning in {@code warnings}.
   */
  void save(int step, Set<String> warnings) {
    requested = false;
    CheckpointActivities activities = store.apply(step);
    try {
      last = activities.save(boundary);
      lastError = null;
    } catch (ActivityFailure e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      lastError = "the checkpoint after step " + step + " was not written: " + cause.getMessage();
      warnings.add(lastError);
    }
    attempted++;
  }

  /**
   * The {@code checkpoint} update: asks for a checkpoint and waits until the run has tried to write
   * it (at the next step boundary, or at once when it waits between steps).
   *
   * @throws ApplicationFailure of type {@link SimulationFailureTypes#CHECKPOINT_FAILED} when the write
   *     failed
   */
  CheckpointSaved awaitNext() {
    int before = attempted;
    requested = true;
    Workflow.await(() -> attempted > before);
    if (lastError != null) {
      throw ApplicationFailure.newFailure(lastError, SimulationFailureTypes.CHECKPOINT_FAILED);
    }
    return last;
  }
}
