package io.durableagents.starter.branch;

import io.durableagents.starter.SimulationControl;
import io.durableagents.starter.Updates;
import io.durableagents.workflows.simulation.CheckpointSaved;
import io.temporal.client.WorkflowNotFoundException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Writes a checkpoint of a running simulation now (the {@code checkpoint} update). */
@Command(name = "checkpoint",
    description = "Write a checkpoint of a running simulation at its next step boundary (at once when it is "
        + "paused) through the worker's checkpoint store, and print the file: 'simulate --from-checkpoint "
        + "FILE' starts a run from it, on this Temporal or another.")
public final class CheckpointCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "The simulation's workflow id.")
  String workflowId;

  @Override
  public Integer call() {
    return SimulationControl.on("checkpoint", workflowId, sim -> {
      CheckpointSaved saved;
      try {
        saved = Updates.call("checkpoint", workflowId, sim::checkpoint);
      } catch (WorkflowNotFoundException e) {
        throw Updates.ended("checkpoint", sim, workflowId, e,
            "A finished run needs no checkpoint: 'fork " + workflowId + " --at-step N' starts from any of its steps.");
      }
      System.out.println("Checkpoint of " + workflowId + " after step " + saved.step() + ": " + saved.location()
          + " (" + saved.bytes() + " bytes, sha256 " + saved.sha256() + ")");
      System.out.println("Start from it: simulate --from-checkpoint " + saved.location());
      return 0;
    });
  }
}
