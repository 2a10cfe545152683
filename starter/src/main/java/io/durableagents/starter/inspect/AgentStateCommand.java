package io.durableagents.starter.inspect;

import io.durableagents.starter.SimulationControl;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Prints one agent of a simulation (the {@code agent} query): what it will see next, its plan, its
 * memory and its last actions' outcomes, as JSON.
 */
@Command(name = "agent-state",
    description = "Print one agent of a simulation as JSON: its next observation, plan, memory and last "
        + "actions' outcomes (a Temporal query).")
public final class AgentStateCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "The simulation's workflow id.")
  String workflowId;

  @Parameters(index = "1", paramLabel = "AGENT_ID", description = "The agent, e.g. citizen-3 or cop-0.")
  String agentId;

  @Override
  public Integer call() {
    return SimulationControl.on("agent-state", workflowId, sim -> {
      System.out.println(SimulationControl.json(sim.agent(agentId)));
      return 0;
    });
  }
}
