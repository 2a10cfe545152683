package io.durableagents.starter.inspect;

import io.durableagents.starter.SimulationControl;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Prints a simulation's world as of its last completed step (the {@code world} query), as JSON. */
@Command(name = "world",
    description = "Print a simulation's world at its last completed step, as JSON (a Temporal query).")
public final class WorldCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "The simulation's workflow id.")
  String workflowId;

  @Override
  public Integer call() {
    return SimulationControl.on("world", workflowId, sim -> {
      System.out.println(SimulationControl.json(sim.world()));
      return 0;
    });
  }
}
