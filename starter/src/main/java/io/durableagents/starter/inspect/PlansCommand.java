package io.durableagents.starter.inspect;

import io.durableagents.starter.Environment;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.simulation.AgentPlanStatus;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.serviceclient.WorkflowServiceStubs;
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
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      List<AgentPlanStatus> plans;
      try {
        plans = connection.client(service).newWorkflowStub(SimulationWorkflow.class, workflowId).plans();
      } catch (RuntimeException e) {
        System.err.println("plans: cannot query '" + workflowId + "' on " + connection.address()
            + " (is it a simulation, and is a worker running?): " + e.getMessage());
        return 1;
      }
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
      return 0;
    } finally {
      service.shutdown();
    }
  }
}
