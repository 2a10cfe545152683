package io.durableagents.workflows.experiment;

/** What an experiment does when one of its runs fails (its simulation workflow fails). */
public enum RunFailurePolicy {
  /** The run's row says it failed and why; the other runs go on (the default). */
  SKIP,
  /** The run starts again, up to {@code runRetries} more times, then is reported failed as with SKIP. */
  RETRY,
  /** The run is reported failed, and no new run starts; the runs already running finish. */
  STOP
}
