package io.durableagents.starter.agent;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import io.durableagents.starter.Interrupts;
import io.durableagents.starter.Links;
import io.durableagents.starter.SimulationControl;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.starter.local.LocalStack;
import io.durableagents.starter.run.ServerWatch;
import io.durableagents.starter.run.WorkerWatch;
import io.durableagents.worker.TemporalConnection;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs one workflow to its end for a command of the {@code agent} family: starts the local stack
 * (a worker, and the embedded Temporal when none listens) unless told that workers already run,
 * connects, runs, prints the result or a readable failure, and stops what it started.
 *
 * <pre>{@code
 * return SingleRun.run("agent", noWorker, workflowId,
 *     client -> newStub(client).run(input), result -> print(result, System.out));
 * }</pre>
 */
final class SingleRun {
  private SingleRun() {}

  /**
   * Runs {@code run} with a client, then {@code print}s its result; returns the exit code (0 done, 1
   * the run failed or the stack did not start).
   */
  static <R> int run(String command, boolean noWorker, String workflowId, Function<WorkflowClient, R> run,
      Consumer<R> print) throws java.io.IOException, InterruptedException {
    return run(command, noWorker, workflowId, run, print, r -> 0);
  }

  /**
   * As {@link #run(String, boolean, String, Function, Consumer)}, with the exit code of a run that
   * completed from {@code exitCode} (a run that completed with an answer that is not one is not a
   * plain success).
   */
  static <R> int run(String command, boolean noWorker, String workflowId, Function<WorkflowClient, R> run,
      Consumer<R> print, java.util.function.ToIntFunction<R> exitCode)
      throws java.io.IOException, InterruptedException {
    return run(command, noWorker, workflowId, java.util.Map.of(), run, print, exitCode);
  }

  /** As above, with {@code workerEnv} added to the environment of the worker it starts. */
  static <R> int run(String command, boolean noWorker, String workflowId, java.util.Map<String, String> workerEnv,
      Function<WorkflowClient, R> run, Consumer<R> print, java.util.function.ToIntFunction<R> exitCode)
      throws java.io.IOException, InterruptedException {
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    LocalStack stack = null;
    if (!noWorker) {
      stack = LocalStack.start(connection, Path.of("runs", "agent"), command, workerEnv);
    } else {
      // the run is named to Ctrl-C once it has started (start below): before that, nothing goes on
      Interrupts.detachOnInterrupt(System.err, command, "describe");
    }
    try {
      WorkflowServiceStubs service = TemporalCheck.connect(connection);
      try {
        // a new run under the id of a finished one would take its place for every command: refused
        java.util.Optional<io.temporal.api.workflow.v1.WorkflowExecutionInfo> finished =
            SimulationControl.closed(service, connection.namespace(), workflowId);
        if (finished.isPresent()) {
          throw new CommandFailure(Failures.USAGE, "a finished run has the id '" + workflowId + "' ("
              + SimulationControl.closeStatus(finished.get()) + "); a new run would replace it",
              "Choose another --id (or leave it out for a generated one); 'describe " + workflowId
                  + "' shows the finished one.");
        }
        R result;
        // with workers of its own the command knows one polls; with --no-worker it says when none does
        WorkerWatch.Background workers = noWorker ? WorkerWatch.forRun(service, connection.namespace(),
            connection.address(), workflowId).inBackground(System.out) : null;
        // the SDK waits out a server that is down for as long as it is: the wait runs watched, and the
        // command says within seconds that the server is gone
        ServerWatch server = new ServerWatch(service, workflowId, command);
        WorkflowClient client = connection.client(service);
        try {
          result = server.bounded(() -> run.apply(client));
          if (workers != null) {
            workers.runEnded();
          }
        } catch (WorkflowFailedException e) {
          if (workers != null) {
            workers.runEnded();
          }
          System.out.println(Links.where(connection, service, workflowId));
          throw e;
        } catch (CommandFailure lost) {
          throw lost.exitCode() == Failures.UNAVAILABLE ? server.lostWhileWaiting() : lost;
        } finally {
          closeQuietly(workers);
        }
        print.accept(result);
        System.out.println(Links.where(connection, service, workflowId));
        return exitCode.applyAsInt(result);
      } finally {
        service.shutdown();
      }
    } finally {
      if (stack != null) {
        stack.close();
      }
    }
  }

  /**
   * Starts the workflow method {@code method} of a stub made for {@code workflowId} with {@code input},
   * then names the run to Ctrl-C and runs {@code started} (which says it started). An id that a running
   * workflow has (another agent's, a simulation's) is refused as {@code simulate} refuses it: the SDK's
   * blocking call would instead wait for that workflow's result, for as long as it runs.
   *
   * @throws CommandFailure {@link Failures#USAGE} when a run with {@code workflowId} is running
   */
  static <A, R> void start(String workflowId, io.temporal.workflow.Functions.Func1<A, R> method, A input,
      Runnable started) {
    try {
      WorkflowClient.start(method, input);
    } catch (io.temporal.client.WorkflowExecutionAlreadyStarted e) {
      throw new CommandFailure(Failures.USAGE, "a run with id '" + workflowId + "' is already running",
          "Choose another --id (or leave it out for a generated one); 'describe " + workflowId
              + "' shows the running one.", e);
    }
    Interrupts.runStarted(workflowId);
    started.run();
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception e) {
      // a watch that cannot stop is a daemon thread: it ends with the command
    }
  }
}
