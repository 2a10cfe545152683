package io.durableagents.starter.run;

import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import io.durableagents.starter.Interrupts;
import io.durableagents.starter.Links;
import io.durableagents.starter.OutputOptions;
import io.durableagents.starter.StartChecks;
import io.durableagents.starter.experiment.ExperimentCommands;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Follows a simulation started earlier (by {@code simulate --no-wait}, another terminal, or another
 * machine) until it ends: a progress bar or a line per step, then the summary, the CSV and the chart.
 * A finished run is shown at once.
 */
@Command(name = "attach",
    description = "Follow a simulation started earlier, by its workflow id: live progress (steps, agents, "
        + "LLM calls, tokens), then its summary; --csv and --chart write its per-step variables. An experiment's "
        + "id ('sweep') follows the experiment: a line per run as it ends, then its summary.")
public final class AttachCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "The simulation's workflow id.")
  String workflowId;

  @Mixin
  OutputOptions output = new OutputOptions();

  @Option(names = "--runs-csv", paramLabel = "FILE",
      description = "For an experiment: write one row per run at its end (--csv: one row per run and step).")
  java.nio.file.Path runsCsv;

  @Override
  public Integer call() throws InterruptedException {
    StartChecks.outputFile("--csv", output.csv);
    StartChecks.outputFile("--chart", output.chart);
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    WorkflowServiceStubs service = ServerWatch.connect(connection, workflowId);
    Interrupts.detachOnInterrupt(System.err, "attach", "attach");
    try {
      // Ctrl-C says that the run goes on only once it is known to exist
      io.temporal.api.workflow.v1.WorkflowExecutionInfo info = requireExists(service, connection);
      Interrupts.runStarted(workflowId);
      if (ExperimentCommands.isExperiment(info)) {
        StartChecks.outputFile("--runs-csv", runsCsv);
        int code = ExperimentCommands.attach(connection.client(service), workflowId, output.csv, runsCsv);
        System.out.println(Links.where(connection, service, workflowId));
        return code;
      }
      SimulationRunner runner = new SimulationRunner(connection.client(service), System.out);
      SimulationResult result;
      try {
        result = runner.follow(workflowId, output.useBar());
      } catch (RuntimeException e) {
        if (e instanceof io.temporal.client.WorkflowFailedException) {
          throw e;
        }
        throw Failures.about("cannot follow '" + workflowId + "' on " + connection.address(), e);
      }
      runner.printSummary(result);
      runner.writeFiles(result, output);
      System.out.println(Links.where(connection, service, workflowId));
      return 0;
    } finally {
      service.shutdown();
    }
  }

  /** Throws the not-found failure when the server has no run {@code workflowId}. */
  private io.temporal.api.workflow.v1.WorkflowExecutionInfo requireExists(WorkflowServiceStubs service,
      TemporalConnection connection) {
    try {
      return service.blockingStub().withDeadlineAfter(10, java.util.concurrent.TimeUnit.SECONDS).describeWorkflowExecution(
          io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest.newBuilder()
              .setNamespace(connection.namespace())
              .setExecution(io.temporal.api.common.v1.WorkflowExecution.newBuilder().setWorkflowId(workflowId))
              .build()).getWorkflowExecutionInfo();
    } catch (io.grpc.StatusRuntimeException e) {
      if (e.getStatus().getCode() == io.grpc.Status.Code.NOT_FOUND
          // a run that is not there; not a namespace that is not (the in-memory server names the namespace in
          // its run-not-found description, so only a description that starts with it is the namespace's)
          && !String.valueOf(e.getStatus().getDescription()).matches("(?is)^namespace\\b.*not found.*")) {
        throw new ServerWatch(service, workflowId, "attach").notFound();
      }
      throw Failures.about("cannot follow '" + workflowId + "' on " + connection.address(), e);
    }
  }
}
