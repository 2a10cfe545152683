package io.durableagents.starter.run;

import io.durableagents.activities.checkpoint.CheckpointFileException;
import io.durableagents.activities.checkpoint.CheckpointFiles;
import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.Interrupts;
import io.durableagents.starter.Links;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.starter.OutputOptions;
import io.durableagents.starter.StartChecks;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.starter.branch.Branch;
import io.durableagents.worker.SearchAttributeRegistry;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Starts a simulation on a running Temporal with a running worker, and follows it. */
@Command(name = "simulate",
    description = "Start a simulation (a worker must be running) and follow it step by step.")
public final class SimulateCommand implements Callable<Integer> {
  @Mixin
  SimulationOptions options;

  @Mixin
  OutputOptions output = new OutputOptions();

  @Option(names = "--no-wait", description = "Start the run, print its id and return ('attach <id>' follows it later).")
  boolean noWait;

  @Option(names = "--from-checkpoint", paramLabel = "FILE",
      description = "Start from a checkpoint file (written by --checkpoint-every or 'checkpoint <id>'): the "
          + "simulation goes on after its step with its world and settings; --steps, --seed, --model, "
          + "--strategy, --ttl and the adjustable --param values may change. Its id is the checkpoint's "
          + "simulation id when no run of that id exists here, else <id>-from-<step>-<random>.")
  Path fromCheckpoint;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    SimulationInput input;
    Checkpoint checkpoint = null;
    if (fromCheckpoint != null) {
      checkpoint = read(fromCheckpoint);
      input = Branch.input("a run from a checkpoint", checkpoint, spec, options);
    } else {
      try {
        input = options.toInput();
      } catch (IllegalArgumentException e) {
        System.err.println("simulate: " + e.getMessage());
        return 2;
      }
    }
    StartChecks.workflowId("--id", options.id);
    StartChecks.simulation(input, LocalCatalog.get());
    StartChecks.outputFile("--csv", output.csv);
    StartChecks.outputFile("--chart", output.chart);
    ShapeAdvice.forInput(input, LocalCatalog.get()).ifPresent(System.out::println);
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    if (!noWait) {
      Interrupts.detachOnInterrupt(System.err, "simulate", "attach");
    }
    try {
      WorkflowClient client = connection.client(service);
      String id = options.id;
      Origin origin = null;
      if (checkpoint != null) {
        origin = new Origin("checkpoint", checkpoint.simulationId(), checkpoint.step(),
            fromCheckpoint.toAbsolutePath().toString());
        if (id == null) {
          id = exists(client, checkpoint.simulationId())
              ? checkpoint.simulationId() + "-from-" + checkpoint.step() + "-" + java.util.UUID.randomUUID()
                  .toString().substring(0, 4)
              : checkpoint.simulationId();
        }
      }
      return run(connection, client, input, id, noWait, output, origin, options.replaceFinished);
    } finally {
      service.shutdown();
    }
  }

  /** The checkpoint in {@code file}, checked (its checksum, its format). */
  static Checkpoint read(Path file) {
    try {
      return CheckpointFiles.read(Files.readAllBytes(file), file.toString());
    } catch (NoSuchFileException e) {
      throw CommandFailure.usage("--from-checkpoint: no file " + file,
          "Checkpoints are in the worker's checkpoint directory (checkpoints/<simulation id>/step-NNNNNN.json, "
              + "or DURABLE_AGENTS_CHECKPOINT_DIR).");
    } catch (IOException e) {
      throw CommandFailure.usage("--from-checkpoint: cannot read " + file + ": " + e.getMessage(),
          "Check the path and its permissions.");
    } catch (CheckpointFileException e) {
      throw CommandFailure.usage("--from-checkpoint: " + e.getMessage(),
          "Take another checkpoint file of the run (an earlier step's).");
    }
  }

  /** Whether any run of {@code workflowId} is on the server. */
  static boolean exists(WorkflowClient client, String workflowId) {
    try {
      client.getWorkflowServiceStubs().blockingStub().describeWorkflowExecution(
          io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest.newBuilder()
              .setNamespace(client.getOptions().getNamespace())
              .setExecution(io.temporal.api.common.v1.WorkflowExecution.newBuilder().setWorkflowId(workflowId))
              .build());
      return true;
    } catch (io.grpc.StatusRuntimeException e) {
      if (e.getStatus().getCode() == io.grpc.Status.Code.NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Starts and follows a run that goes on from {@code origin} (null: a new simulation); shared with {@code
   * demo} and {@code fork}. The id of a finished run is refused unless {@code replaceFinished}.
   */
  public static int run(TemporalConnection connection, WorkflowClient client, SimulationInput input,
      String id, boolean noWait, OutputOptions output, Origin origin, boolean replaceFinished)
      throws InterruptedException {
    SimulationRunner runner = new SimulationRunner(client, System.out);
    OperatorServiceStubs operator = SearchAttributeRegistry.connect(connection.address());
    try {
      // set search attributes only where the namespace has them: an unregistered one fails the workflow task
      input = input.withSearchAttributes(SearchAttributeRegistry.registered(operator, connection.namespace()));
    } finally {
      operator.shutdownNow();
    }
    String workflowId = runner.start(input, id == null ? SimulationRunner.newId(input) : id, origin, replaceFinished);
    Interrupts.runStarted(workflowId);
    System.out.println("Started " + workflowId + " on " + connection.address() + " (namespace "
        + connection.namespace() + "): " + input.scenario() + ", " + input.steps() + " steps, seed "
        + input.seed() + ", model " + input.agentOptions().model()
        + (origin == null ? "" : "; going on after step " + origin.step() + " of " + origin.simulationId()
            + (origin.file() == null ? " (a fork)" : " (checkpoint " + origin.file() + ")")));
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
