package io.durableagents.starter.branch;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import io.durableagents.starter.Interrupts;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.starter.OutputOptions;
import io.durableagents.starter.StartChecks;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.starter.run.Origin;
import io.durableagents.starter.run.SimulateCommand;
import io.durableagents.starter.run.SimulationOptions;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.SimulationReplay;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Starts a new simulation from the exact state after a step of a recorded one, read by replaying its
 * history here: no LLM call, no checkpoint needed, any completed step, across continue-as-new runs.
 */
@Command(name = "fork",
    description = {"Start a new simulation from the state after step N of a recorded one (running or "
        + "finished), read by replaying its history: no LLM call and no checkpoint needed.",
        "It goes on with the recorded world and settings; --steps (the new total), --seed, --model, "
            + "--strategy, --ttl and --param (the scenario's adjustable parameters, from step N+1; any "
            + "parameter at step 0) may change. The fork records where it came from ('describe' shows it; "
            + "ForkedFrom = \"<id>\" in the Temporal UI). A worker must be running."})
public final class ForkCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "SIMULATION_ID", description = "The recorded simulation's workflow id.")
  String simulationId;

  @Option(names = "--at-step", required = true, paramLabel = "N",
      description = "The step after which the fork goes on (0: from the start, with the recorded settings).")
  int atStep;

  @Mixin
  public SimulationOptions options;

  @Mixin
  OutputOptions output = new OutputOptions();

  @Option(names = "--no-wait", description = "Start the fork, print its id and return ('attach <id>' follows it).")
  boolean noWait;

  @Spec
  public CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    if (atStep < 0) {
      throw CommandFailure.usage("--at-step must be >= 0, was " + atStep, "Give a completed step of the run.");
    }
    StartChecks.workflowId("--id", options.id);
    StartChecks.outputFile("--csv", output.csv);
    StartChecks.outputFile("--chart", output.chart);
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      WorkflowClient client = connection.client(service);
      long started = System.nanoTime();
      Checkpoint state;
      SimulationReplay replay = new SimulationReplay(client, DurableAgentsPlugin.newBuilder().configureFromClasspath().build());
      try {
        state = replay.stateAfter(client, simulationId, atStep);
      } catch (IllegalArgumentException e) {
        throw CommandFailure.usage(e.getMessage(), "'describe " + simulationId + "' shows how far it went.");
      } catch (RuntimeException e) {
        throw Failures.about("cannot read '" + simulationId + "' on " + connection.address(), e);
      } finally {
        replay.close();
      }
      long millis = (System.nanoTime() - started) / 1_000_000;
      SimulationInput input = Branch.input("a fork", state, spec, options);
      StartChecks.simulation(input, LocalCatalog.get());
      System.out.println("Read the state of " + simulationId + " after step " + atStep + " from its history in "
          + millis + " ms (" + replay.replays() + " replays, no LLM call)");
      String id = options.id != null ? options.id
          : simulationId + "-fork-" + atStep + "-" + UUID.randomUUID().toString().substring(0, 4);
      if (!noWait) {
        Interrupts.detachOnInterrupt(System.err, "fork", "attach");
      }
      return SimulateCommand.run(connection, client, input, id, noWait, output,
          new Origin("fork", simulationId, atStep, null), options.replaceFinished);
    } finally {
      service.shutdown();
    }
  }
}
