package io.durableagents.starter.run;

import io.durableagents.starter.SimulationControl;
import io.durableagents.starter.experiment.ExperimentCommands;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Stops a simulation after the step in progress (the {@code stop} signal); it returns its results so far. */
@Command(name = "stop",
    description = "Stop a simulation after the step in progress; its result holds every step done "
        + "('attach' or 'describe' shows it). An experiment's id ('sweep') stops the experiment: no run starts, "
        + "its running runs stop after their step.")
public final class StopCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "The simulation's (or experiment's) workflow id.")
  String workflowId;

  @Override
  public Integer call() {
    return SimulationControl.on("stop", workflowId, sim -> {
      sim.stop();
      System.out.println("Stop requested: " + workflowId
          + " ends after the step in progress and returns the steps done so far.");
      return 0;
    }, experiment -> ExperimentCommands.stop(experiment, workflowId));
  }
}
