package io.durableagents.workflows.experiment;

/** Where one run of an experiment is. */
public enum RunStatus {
  /** Not started yet. */
  WAITING,
  /** Its simulation is running. */
  RUNNING,
  /** Its simulation ran every step. */
  COMPLETED,
  /** Its simulation was stopped (the experiment was): its rows hold the steps it ran. */
  STOPPED,
  /** Its simulation failed (after its retries): the reason says why. */
  FAILED,
  /** It never started: the experiment was stopped, ran out of budget, or stopped on a failure. */
  NOT_STARTED;

  /** Whether the run is over (or will never start). */
  public boolean ended() {
    return this != WAITING && this != RUNNING;
  }
}
