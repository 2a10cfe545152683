package io.durableagents.starter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.durableagents.starter.inspect.Describe;
import io.durableagents.starter.run.ServerWatch;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.experiment.ExperimentWorkflow;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.function.Function;

/** Connects to Temporal, runs one signal or query against a simulation, and reports a failure. */
public final class SimulationControl {
  static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
      .findAndRegisterModules();

  private SimulationControl() {}

  /**
   * Runs {@code action} on the simulation {@code workflowId}; returns 0, or throws why it could not: the
   * run has ended (its close status; exit 2), there is no such run (exit 3), no worker answers a query.
   */
  public static int on(String command, String workflowId, Function<SimulationWorkflow, Integer> action) {
    return on(command, workflowId, false, action, null);
  }

  /**
   * As {@link #on}, with {@code experiment} for an experiment's id ({@code stop}, {@code pause} of an
   * {@link ExperimentWorkflow#TYPE}): the run's type says which of the two acts.
   */
  public static int on(String command, String workflowId, Function<SimulationWorkflow, Integer> action,
      Function<ExperimentWorkflow, Integer> experiment) {
    return on(command, workflowId, false, action, experiment);
  }

  /** As {@link #onRunning}, with {@code experiment} for an experiment's id. */
  public static int onRunning(String command, String workflowId, Function<SimulationWorkflow, Integer> action,
      Function<ExperimentWorkflow, Integer> experiment) {
    return on(command, workflowId, true, action, experiment);
  }

  /**
   * As {@link #on}, for an action that asks the run before it acts ({@code resume} asks whether it is
   * paused): a run that has ended is said so first, since a query still answers for it from its history.
   */
  public static int onRunning(String command, String workflowId, Function<SimulationWorkflow, Integer> action) {
    return on(command, workflowId, true, action, null);
  }

  private static int on(String command, String workflowId, boolean runningOnly,
      Function<SimulationWorkflow, Integer> action, Function<ExperimentWorkflow, Integer> experiment) {
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    WorkflowServiceStubs service = ServerWatch.connect(connection, workflowId);
    try {
      WorkflowClient client = connection.client(service);
      try {
        if (runningOnly) {
          java.util.Optional<CommandFailure> ended = ended(service, connection.namespace(), workflowId,
              hintForEnded(command, workflowId));
          if (ended.isPresent()) {
            throw ended.get();
          }
        }
        if (experiment != null && ExperimentWorkflow.TYPE.equals(type(service, connection.namespace(), workflowId))) {
          return experiment.apply(client.newWorkflowStub(ExperimentWorkflow.class, workflowId));
        }
        return action.apply(client.newWorkflowStub(SimulationWorkflow.class, workflowId));
      } catch (WorkflowNotFoundException e) {
        // a signal to a closed run finds no open one: say that it has ended, not that it does not exist
        throw ended(service, connection.namespace(), workflowId, hintForEnded(command, workflowId))
            .orElseGet(() -> new ServerWatch(service, workflowId, command).notFound());
      } catch (CommandFailure f) {
        throw f;
      } catch (RuntimeException e) {
        throw Failures.about("'" + workflowId + "' on " + connection.address(), e);
      }
    } finally {
      service.shutdown();
    }
  }

  /**
   * The failure that says the run {@code workflowId} has ended, with its close status and time ({@code
   * 'x' has ended: COMPLETED at 2026-11-26 10:12:01Z}), when its latest run is closed; empty when it is
   * open or there is no such run.
   */
  static java.util.Optional<CommandFailure> ended(WorkflowServiceStubs service, String namespace, String workflowId,
      String hint) {
    return closed(service, namespace, workflowId).map(info -> new CommandFailure(Failures.USAGE,
        "'" + workflowId + "' has ended: " + closeStatus(info), hint));
  }

  /** The description of the latest run of {@code workflowId} when it is closed; empty when open or unknown. */
  public static java.util.Optional<WorkflowExecutionInfo> closed(WorkflowServiceStubs service, String namespace,
      String workflowId) {
    try {
      WorkflowExecutionInfo info = service.blockingStub().withDeadlineAfter(10, java.util.concurrent.TimeUnit.SECONDS)
          .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder().setNamespace(namespace)
              .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId)).build())
          .getWorkflowExecutionInfo();
      return info.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
          ? java.util.Optional.empty() : java.util.Optional.of(info);
    } catch (StatusRuntimeException e) {
      return java.util.Optional.empty();
    }
  }

  /** The workflow type of the latest run of {@code workflowId}; null when there is none or it cannot be read. */
  static String type(WorkflowServiceStubs service, String namespace, String workflowId) {
    try {
      return service.blockingStub().withDeadlineAfter(10, java.util.concurrent.TimeUnit.SECONDS)
          .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder().setNamespace(namespace)
              .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId)).build())
          .getWorkflowExecutionInfo().getType().getName();
    } catch (StatusRuntimeException e) {
      return null;
    }
  }

  /** How long a command waits for a worker to answer a query before it says that none did. */
  public static final java.time.Duration QUERY_WAIT = java.time.Duration.ofSeconds(10);

  /**
   * The answer of {@code query}, or empty when no worker answered it within {@link #QUERY_WAIT}: Temporal
   * holds a query to a run no worker has taken for over a minute. A failure of the query is rethrown as
   * it came; the abandoned query ends with the command (its thread is a daemon).
   */
  public static <T> java.util.Optional<T> boundedQuery(java.util.function.Supplier<T> query) {
    java.util.concurrent.CompletableFuture<T> answer = java.util.concurrent.CompletableFuture.supplyAsync(query,
        QUERIES);
    try {
      return java.util.Optional.of(answer.get(QUERY_WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS));
    } catch (java.util.concurrent.TimeoutException e) {
      answer.cancel(true);
      return java.util.Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return java.util.Optional.empty();
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private static final java.util.concurrent.ExecutorService QUERIES =
      java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "bounded-query");
        t.setDaemon(true);
        return t;
      });

  /** {@code COMPLETED at 2026-11-26 10:12:01Z}: how a closed run ended, and when. */
  public static String closeStatus(WorkflowExecutionInfo info) {
    return info.getStatus().name().replace("WORKFLOW_EXECUTION_STATUS_", "")
        + (info.hasCloseTime() ? " at " + Describe.time(info.getCloseTime()) : "");
  }

  private static String hintForEnded(String command, String workflowId) {
    String result = "'describe " + workflowId + "' shows its result";
    return switch (command) {
      case "stop" -> "Nothing to stop: " + result + ".";
      case "pause", "resume" -> "Nothing to " + command + ": " + result + "; 'fork " + workflowId
          + " --at-step N' starts a new run from any of its steps.";
      default -> result + ".";
    };
  }

  public static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage();
  }

  public static String json(Object value) {
    try {
      return PRETTY.writeValueAsString(value);
    } catch (Exception e) {
      return String.valueOf(value);
    }
  }
}
