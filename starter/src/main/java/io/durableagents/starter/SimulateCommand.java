package io.durableagents.starter;

import io.durableagents.worker.SearchAttributeRegistry;
import io.durableagents.worker.TemporalConnection;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Starts a simulation on a running Temporal with a running worker, and follows it. */
@Command(name = "simulate",
    description = "Start a simulation (a worker must be running) and follow it step by step.")
final class SimulateCommand implements Callable<Integer> {
  @Mixin
  SimulationOptions options;

  @Mixin
  OutputOptions output = new OutputOptions();

  @Option(names = "--no-wait", description = "Start the run, print its id and return ('attach <id>' follows it later).")
  boolean noWait;

  @Override
  public Integer call() throws InterruptedException {
    SimulationInput input;
    try {
      input = options.toInput();
    } catch (IllegalArgumentException e) {
      System.err.println("simulate: " + e.getMessage());
      return 2;
    }
    StartChecks.workflowId("--id", options.id);
    StartChecks.simulation(input, LocalCatalog.get());
    StartChecks.outputFile("--csv", output.csv);
    StartChecks.outputFile("--chart", output.chart);
    TemporalConnection connection = TemporalConnection.fromEnvironment();
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    if (!noWait) {
      Interrupts.detachOnInterrupt(System.err, "simulate", "attach");
    }
    try {
      return run(connection, connection.client(service),
          input, options.id, noWait, output);
    } finally {
      service.shutdown();
    }
  }

  /** Starts and follows a run; shared with {@code demo}. */
  static int run(TemporalConnection connection, WorkflowClient client, SimulationInput input,
      String id, boolean noWait, OutputOptions output) throws InterruptedException {
    SimulationRunner runner = new SimulationRunner(client, System.out);
    OperatorServiceStubs operator = SearchAttributeRegistry.connect(connection.address());
    try {
      // set search attributes only where the namespace has them: an unregistered one fails the workflow task
      input = input.withSearchAttributes(SearchAttributeRegistry.registered(operator, connection.namespace()));
    } finally {
      operator.shutdownNow();
    }
    String workflowId = runner.start(input, id == null ? SimulationRunner.newId(input) : id);
    Interrupts.runStarted(workflowId);
    System.out.println("Started " + workflowId + " on " + connection.address() + " (namespace "
        + connection.namespace() + "): " + input.scenario() + ", " + input.steps() + " steps, seed "
        + input.seed() + ", model " + input.agentOptions().model());
    System.out.println(Links.where(connection, client.getWorkflowServiceStubs(), workflowId));
    if (noWait) {
      return 0;
    }
    SimulationResult result = runner.follow(workflowId, output.useBar());
    runner.printSummary(result);
    runner.writeFiles(result, output);
    System.out.println(Links.where(connection, client.getWorkflowServiceStubs(), workflowId));
    return 0;
  }
}
