package io.durableagents.workflows.simulation;

/** The types of failures a simulation ends with. */
public final class SimulationFailureTypes {
  /** The input names an unknown scenario or has a value out of range. */
  public static final String INVALID_INPUT = "InvalidSimulationInput";

  private SimulationFailureTypes() {}
}
