package io.durableagents.starter;

import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The first run: starts the embedded Temporal (unless one already listens on 127.0.0.1:7233) and a
 * worker, each in its own JVM, runs a simulation through them over gRPC, and stops what it started.
 */
@Command(name = "demo",
    description = "Start the embedded Temporal and a worker (each its own process), run a simulation "
        + "through them, and stop them again. Defaults: Epstein civil violence, the offline rules model.")
final class DemoCommand implements Callable<Integer> {
  @Mixin
  SimulationOptions options;

  @Mixin
  OutputOptions output = new OutputOptions();

  @Override
  public Integer call() throws Exception {
    SimulationInput input;
    try {
      input = options.toInput();
    } catch (IllegalArgumentException e) {
      System.err.println("demo: " + e.getMessage());
      return 2;
    }
    StartChecks.workflowId("--id", options.id);
    StartChecks.simulation(input, LocalCatalog.get());
    StartChecks.outputFile("--csv", output.csv);
    StartChecks.outputFile("--chart", output.chart);
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    LocalStack stack = LocalStack.start(connection, Path.of("runs", "demo"), "demo");
    try (stack) {
      WorkflowServiceStubs service = TemporalCheck.connect(connection);
      try {
        WorkflowClient client = connection.client(service);
        return SimulateCommand.run(connection, client, input, options.id, false, output, null,
            options.replaceFinished);
      } finally {
        service.shutdown();
      }
    }
  }

}
