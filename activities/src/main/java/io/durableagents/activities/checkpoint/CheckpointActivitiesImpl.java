package io.durableagents.activities.checkpoint;

import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.CheckpointActivities;
import io.durableagents.workflows.simulation.CheckpointSaved;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes checkpoints to a {@link CheckpointStore}. */
public final class CheckpointActivitiesImpl implements CheckpointActivities {
  private static final Logger log = LoggerFactory.getLogger(CheckpointActivitiesImpl.class);

  private final CheckpointStore store;

  public CheckpointActivitiesImpl(CheckpointStore store) {
    this.store = store;
  }

  @Override
  public CheckpointSaved save(Checkpoint checkpoint) {
    CheckpointSaved saved = store.save(checkpoint);
    log.info("checkpoint of {} after step {}: {} ({} bytes)", checkpoint.simulationId(), checkpoint.step(),
        saved.location(), saved.bytes());
    return saved;
  }
}
