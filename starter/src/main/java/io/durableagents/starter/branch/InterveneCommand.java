package io.durableagents.starter.branch;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.SimulationControl;
import io.durableagents.starter.Updates;
import io.durableagents.workflows.simulation.Intervention;
import io.durableagents.workflows.simulation.InterventionRequest;
import io.temporal.client.WorkflowNotFoundException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Changes parameters of a running simulation from a step on (the {@code intervene} update). */
@Command(name = "intervene",
    description = {"Change parameters of a running simulation from a step on, e.g. intervene <id> --param "
        + "legitimacy=0.3 --at-step 40: set at the boundary before that step, carried across continue-as-new, "
        + "marked in the result, the CSV and the chart.",
        "Only the scenario's adjustable parameters can change ('help simulate --scenario <name>' marks them); "
            + "an unknown parameter, a bad value or a past step is refused before anything is recorded."})
public final class InterveneCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "The simulation's workflow id.")
  String workflowId;

  @Option(names = "--param", required = true, paramLabel = "NAME=VALUE",
      description = "A new value (repeatable).")
  Map<String, String> params = new LinkedHashMap<>();

  @Option(names = "--at-step", paramLabel = "N",
      description = "The first step that runs with the new values (default: the next step that has not started).")
  Integer atStep;

  @Option(names = "--note", paramLabel = "TEXT", description = "Why, kept with the intervention in the result.")
  String note;

  @Override
  public Integer call() {
    if (atStep != null && atStep < 1) {
      throw CommandFailure.usage("--at-step must be >= 1, was " + atStep, "Give a step that has not started.");
    }
    return SimulationControl.on("intervene", workflowId, sim -> {
      Intervention v;
      try {
        v = Updates.call("intervene", workflowId, () -> sim.intervene(new InterventionRequest(params, atStep, note)));
      } catch (WorkflowNotFoundException e) {
        throw Updates.ended("intervene", sim, workflowId, e,
            "'fork " + workflowId + " --at-step N --param ...' starts a new run with other values from any step.");
      }
      System.out.println("Intervention " + v.number() + " on " + workflowId + ": " + v.describe() + " from step "
          + v.atStep() + " (set at the boundary before it; the result, --csv and --chart mark it)");
      return 0;
    });
  }
}
