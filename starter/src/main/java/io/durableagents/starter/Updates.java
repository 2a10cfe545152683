package io.durableagents.starter;

import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** Sends a Temporal Update to a simulation from the command line, with a bound on the wait. */
public final class Updates {
  /** How long a command waits for a worker to take and finish the update. */
  static final long WAIT_SECONDS = Long.getLong("durableagents.updateWaitSeconds", 60);

  private Updates() {}

  /**
   * Runs {@code update}; a refusal by the workflow's validator becomes a usage failure with its
   * message, no answer within {@link #WAIT_SECONDS} an unavailable one.
   *
   * @throws WorkflowNotFoundException when there is no open run of {@code workflowId}
   */
  public static <T> T call(String command, String workflowId, Supplier<T> update) {
    CompletableFuture<T> future = CompletableFuture.supplyAsync(update);
    try {
      return future.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new CommandFailure(Failures.UNAVAILABLE, "'" + workflowId + "' did not answer within " + WAIT_SECONDS
          + " s", "Is a worker running ('worker')? A request waits for the step in progress to end; it is kept "
          + "and applies when a worker takes it.");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommandFailure(Failures.UNAVAILABLE, "interrupted", "");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof WorkflowUpdateException refused) {
        throw CommandFailure.usage(message(refused), "Nothing was changed or recorded.");
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(cause);
    }
  }

  /** The validator's or the handler's own words. */
  static String message(WorkflowUpdateException e) {
    Throwable t = e.getCause();
    while (t != null) {
      if (t instanceof ApplicationFailure a) {
        return a.getOriginalMessage();
      }
      t = t.getCause();
    }
    return String.valueOf(e.getMessage());
  }

  /** The failure for an update sent to a run that is over (or that does not exist). */
  public static CommandFailure ended(String command, Object simulation, String workflowId, WorkflowNotFoundException e,
      String hint) {
    try {
      // the run exists and is closed: say how it ended (servers word the refusal differently)
      io.temporal.api.workflow.v1.WorkflowExecutionInfo info = io.temporal.client.WorkflowStub.fromTyped(simulation)
          .describe().getRawDescription().getWorkflowExecutionInfo();
      if (info.getStatus() != io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
        return new CommandFailure(Failures.USAGE, "'" + workflowId + "' has ended: "
            + SimulationControl.closeStatus(info), hint);
      }
    } catch (RuntimeException notThere) {
      // no such run: said below
    }
    if (String.valueOf(SimulationControl.rootMessage(e)).contains("already completed")) {
      return new CommandFailure(Failures.USAGE, "'" + workflowId + "' has ended", hint);
    }
    return new CommandFailure(Failures.NOT_FOUND, "'" + workflowId + "': no such run",
        "'list' shows the simulation runs; check TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE.");
  }
}
