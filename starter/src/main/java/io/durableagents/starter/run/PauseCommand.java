package io.durableagents.starter.run;

import io.durableagents.starter.SimulationControl;
import io.durableagents.starter.experiment.ExperimentCommands;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Pauses a running simulation at its next step boundary (the {@code pause} signal). */
@Command(name = "pause",
    description = "Pause a running simulation: the step in progress completes, then it waits for 'resume'. "
        + "An experiment's id ('sweep') pauses the experiment: no run starts, its running runs pause.")
public final class PauseCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "The simulation's (or experiment's) workflow id.")
  String workflowId;

  @Override
  public Integer call() {
    return SimulationControl.on("pause", workflowId, sim -> {
      sim.pause();
      System.out.println("Pause requested: " + workflowId
          + " stops after the step in progress ('resume " + workflowId + "' to go on).");
      return 0;
    }, experiment -> ExperimentCommands.pause(experiment, workflowId));
  }
}
