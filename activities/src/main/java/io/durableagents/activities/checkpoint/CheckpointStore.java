package io.durableagents.activities.checkpoint;

import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.CheckpointSaved;

/**
 * Where a worker keeps simulation checkpoints. {@link DirectoryCheckpointStore} (a directory, the
 * default) writes each as a file; implement this for object storage, a database, ... and give it to
 * {@code DurableAgentsPlugin.Builder.setCheckpointStore}.
 *
 * <p>A save must be atomic (a reader never sees half a checkpoint) and may be called again for the
 * same simulation and step (a retried activity): it then replaces the earlier one.
 */
public interface CheckpointStore {
  /** Writes {@code checkpoint}; returns where it is, its size and checksum. */
  CheckpointSaved save(Checkpoint checkpoint);

  /**
   * Reads the checkpoint at {@code location}, checking it is whole.
   *
   * @throws CheckpointFileException naming the location and what is wrong with it
   */
  Checkpoint load(String location);
}
