package io.durableagents.workflows.experiment;

/** The failure types an experiment workflow fails with. */
public final class ExperimentFailureTypes {
  /** The experiment's input is not one that can run (no runs, a bad base, too many runs). */
  public static final String INVALID_EXPERIMENT = "InvalidExperiment";

  private ExperimentFailureTypes() {}
}
