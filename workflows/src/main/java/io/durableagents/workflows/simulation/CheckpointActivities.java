package io.durableagents.workflows.simulation;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import java.time.Duration;

/**
 * Writes a simulation's checkpoint to the worker's checkpoint store (a directory by default). Runs on
 * the agents' task queue; a failed write is retried, and one that keeps failing ends in the
 * simulation's warnings, not its failure.
 */
@ActivityInterface
public interface CheckpointActivities {
  @ActivityMethod(name = "CheckpointSave")
  CheckpointSaved save(Checkpoint checkpoint);

  /** Its options: a minute per attempt, 5 attempts. */
  static ActivityOptions options(int step) {
    return ActivityOptions.newBuilder()
        .setStartToCloseTimeout(Duration.ofMinutes(1))
        .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(5).build())
        .setSummary("checkpoint: step " + step)
        .build();
  }
}
