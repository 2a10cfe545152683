package io.durableagents.starter.inspect;

import io.durableagents.starter.SimulationControl;
import io.durableagents.workflows.simulation.AgentPlanStatus;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Shows who holds which plan in a simulation, and for how many more steps (a Temporal query). */
@Command(name = "plans",
    description = "Show every agent's plan in a simulation: its strategy, when it was made, how many more "
        + "steps it stays valid and which planned action comes next.")
public final class PlansCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "The simulation's workflow id.")
  String workflowId;

  @Option(names = "--all", description = "Also list agents without a valid plan.")
  boolean all;

  @Override
  public Integer call() {
    // as 'world' and 'agent-state': an unknown run is not found (exit 3), a run that has ended or a
    // query no worker answers is said as those say it
    return SimulationControl.on("plans", workflowId, sim -> {
      print(sim.plans());
      return 0;
    });
  }

  private void print(List<AgentPlanStatus> plans) {
    System.out.printf("%-12s %-8s %-8s %-6s %-10s %-10s %s%n", "agent", "role", "strategy", "made",
        "valid for", "remaining", "next action");
    int shown = 0;
    for (AgentPlanStatus p : plans) {
      if (!all && p.validForSteps() == 0) {
        continue;
      }
      shown++;
      String next = p.nextTool() == null ? "-"
          : p.nextTool() + " " + p.plan().steps().get(p.plan().nextStep()).args();
      System.out.printf("%-12s %-8s %-8s %-6s %-10s %-10s %s%n", p.agentId(), p.role(), p.strategy(),
          p.plan() == null ? "-" : String.valueOf(p.plan().step()),
          p.validForSteps() + " steps", p.remainingPlannedSteps(), next);
    }
    if (shown == 0) {
      System.out.println("(no agent holds a valid plan; --all lists every agent)");
    }
  }
}
