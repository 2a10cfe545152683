package io.durableagents.starter.run;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.SimulationControl;
import io.durableagents.starter.experiment.ExperimentCommands;
import io.durableagents.workflows.simulation.SimulationProgress;
import io.temporal.client.WorkflowQueryException;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Resumes a paused simulation (the {@code resume} signal). A run that is not paused is said so and
 * left as it is: the signal would change nothing, and "Resumed" would say that it had been paused.
 */
@Command(name = "resume", description = "Resume a paused simulation, or a paused experiment ('sweep').")
public final class ResumeCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "The simulation's (or experiment's) workflow id.")
  String workflowId;

  @Override
  public Integer call() {
    return SimulationControl.onRunning("resume", workflowId, sim -> {
      // the query answers after the signals the run has received, a pause just sent included
      Optional<SimulationProgress> progress;
      String unknown = "no worker answered within " + SimulationControl.QUERY_WAIT.toSeconds() + " s";
      try {
        progress = SimulationControl.boundedQuery(sim::progress);
      } catch (WorkflowQueryException e) {
        // e.g. its first workflow task is not done yet: it cannot have taken a pause either
        progress = Optional.empty();
        unknown = "the query failed";
      }
      if (progress.isPresent() && !progress.get().paused()) {
        SimulationProgress p = progress.get();
        throw CommandFailure.usage("'" + workflowId + "' is not paused: it is "
            + (p.stopRequested() ? "stopping" : "running") + ", at step " + p.step() + "/" + p.totalSteps(),
            "Nothing to resume; 'pause " + workflowId + "' pauses it after the step in progress.");
      }
      sim.resume();
      System.out.println(progress.isPresent() ? "Resumed " + workflowId + "."
          : "Resume sent to " + workflowId + ": whether it is paused is not known (" + unknown + "); if it "
              + "is, it goes on once a worker takes the signal.");
      return 0;
    }, experiment -> ExperimentCommands.resume(experiment, workflowId));
  }
}
