package io.durableagents.starter.run;

import io.durableagents.starter.SimulationControl;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Resumes a paused simulation (the {@code resume} signal). */
@Command(name = "resume", description = "Resume a paused simulation.")
public final class ResumeCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "The simulation's workflow id.")
  String workflowId;

  @Override
  public Integer call() {
    return SimulationControl.on("resume", workflowId, sim -> {
      sim.resume();
      System.out.println("Resumed " + workflowId + ".");
      return 0;
    });
  }
}
