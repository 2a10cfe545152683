package io.durableagents.starter.run;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import io.durableagents.starter.Links;
import io.durableagents.starter.TemporalCheck;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Watches the Temporal a command follows a run on, so that losing it is said in plain words within
 * seconds: a server that stops answering for {@link #GRACE_MILLIS}, or that answers but no longer
 * has the run (the in-memory Temporal forgets every run when it restarts), ends the command with
 * what happened and the way back, instead of waiting in silence and then printing a raw
 * {@code NOT_FOUND}.
 */
public final class ServerWatch {
  /** How long a server may not answer before the run is reported lost. */
  static final long GRACE_MILLIS = 5_000;

  private final WorkflowServiceStubs service;
  private final String workflowId;
  private final String command;
  private final LongSupplier clock;
  private long silentSince = -1;
  private Boolean inMemory;

  public ServerWatch(WorkflowServiceStubs service, String workflowId, String command) {
    this(service, workflowId, command, System::currentTimeMillis);
  }

  ServerWatch(WorkflowServiceStubs service, String workflowId, String command, LongSupplier clock) {
    this.service = service;
    this.workflowId = workflowId;
    this.command = command;
    this.clock = clock;
  }

  /**
   * Whether the server answers now (a 1 s probe). After {@link #GRACE_MILLIS} without an answer it
   * throws the failure that says the run is lost from here.
   */
  boolean answers() {
    try {
      service.blockingStub().withDeadlineAfter(1, TimeUnit.SECONDS)
          .getSystemInfo(GetSystemInfoRequest.getDefaultInstance());
      silentSince = -1;
      return true;
    } catch (StatusRuntimeException e) {
      long now = clock.getAsLong();
      if (silentSince < 0) {
        silentSince = now;
      } else if (now - silentSince >= GRACE_MILLIS) {
        throw unreachable();
      }
      return false;
    }
  }

  /**
   * The answer of {@code call} (a query, a describe), waited for while the server is watched: the SDK
   * retries a call that finds the server down for up to a minute, so a call in flight when the server
   * died would hide the loss for that long. Here the call runs on a thread of its own and the server is
   * probed every half second; once it has not answered for {@link #GRACE_MILLIS}, the loss is thrown
   * (the abandoned call ends with the command). A failure of the call itself is rethrown as it came.
   */
  public <T> T bounded(java.util.function.Supplier<T> call) throws InterruptedException {
    java.util.concurrent.CompletableFuture<T> answer = java.util.concurrent.CompletableFuture.supplyAsync(call, CALLS);
    while (true) {
      try {
        return answer.get(500, TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        answers(); // throws once the server has been silent for the grace period
      } catch (java.util.concurrent.ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException r) {
          throw r;
        }
        throw new IllegalStateException(cause);
      }
    }
  }

  /** Daemon threads for {@link #bounded} calls: a call abandoned with a lost server never holds the JVM. */
  private static final java.util.concurrent.ExecutorService CALLS = java.util.concurrent.Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "server-watch-call");
    t.setDaemon(true);
    return t;
  });

  /** Rethrows {@code failure} as a lost run when it says the server no longer has the run. */
  void checkNotFound(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof WorkflowNotFoundException
          || (t instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.NOT_FOUND
              && !String.valueOf(s.getStatus().getDescription()).toLowerCase().contains("namespace"))) {
        throw notFound();
      }
    }
  }

  /** Whether {@code failure} is a call that got no answer (the server is down or too slow). */
  static boolean unanswered(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof StatusRuntimeException s && (s.getStatus().getCode() == Status.Code.UNAVAILABLE
          || s.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED)) {
        return true;
      }
    }
    return false;
  }

  CommandFailure unreachable() {
    java.util.Optional<java.nio.file.Path> checkpoint = lastCheckpoint();
    return new CommandFailure(Failures.UNAVAILABLE, "lost the Temporal at " + target() + " while following '"
        + workflowId + "': it has not answered for " + GRACE_MILLIS / 1000 + " s",
        "On a persistent Temporal the run goes on when it is back: '" + command + " " + workflowId
            + "' then. The in-memory Temporal keeps runs in memory: if it stopped, '" + workflowId
            + "' is gone with it; " + (checkpoint.isPresent()
                ? "its last checkpoint is " + checkpoint.get() + " ('simulate --from-checkpoint "
                    + checkpoint.get() + "' goes on from there)"
                : "start it again (the same --seed gives the same result)")
            + ", and keep long runs on a persistent Temporal (docs/embedded-temporal.md).");
  }

  /**
   * {@link #unreachable()} for a command that waits for one run's result ({@code agent}): the run has no
   * checkpoint, and {@code show} prints what it did once the server is back.
   */
  public CommandFailure lostWhileWaiting() {
    return new CommandFailure(Failures.UNAVAILABLE, "lost the Temporal at " + target() + " while waiting for '"
        + workflowId + "': it has not answered for " + GRACE_MILLIS / 1000 + " s",
        "On a persistent Temporal the run goes on when it is back: 'show " + workflowId + "' then prints "
            + "what it did. The in-memory Temporal keeps runs in memory: if it stopped, the run is gone "
            + "with it; run '" + command + "' again.");
  }

  /** The newest checkpoint file of the run in the checkpoint directory of this environment, if any. */
  private java.util.Optional<java.nio.file.Path> lastCheckpoint() {
    return lastCheckpoint(workflowId);
  }

  /** The newest checkpoint file of {@code workflowId} in the checkpoint directory of this environment, if any. */
  static java.util.Optional<java.nio.file.Path> lastCheckpoint(String workflowId) {
    try {
      return io.durableagents.activities.checkpoint.DirectoryCheckpointStore.fromEnvironment(Environment.variables())
          .latest(workflowId).map(java.nio.file.Path::toAbsolutePath);
    } catch (RuntimeException e) {
      return java.util.Optional.empty();
    }
  }

  /**
   * Connects for a command about the run {@code workflowId} ({@link TemporalCheck#connect}); when Temporal
   * does not answer, the failure also names the run's last checkpoint here, if it has one: after a server
   * kill that is the way back, whichever command the user tried first.
   */
  public static WorkflowServiceStubs connect(io.durableagents.worker.TemporalConnection connection, String workflowId) {
    try {
      return TemporalCheck.connect(connection);
    } catch (CommandFailure f) {
      java.util.Optional<java.nio.file.Path> checkpoint = f.exitCode() == Failures.UNAVAILABLE
          ? lastCheckpoint(workflowId) : java.util.Optional.empty();
      if (checkpoint.isEmpty()) {
        throw f;
      }
      throw new CommandFailure(f.exitCode(), f.getMessage(), (f.hint() == null ? "" : f.hint() + " ")
          + "The last checkpoint of '" + workflowId + "' here is " + checkpoint.get() + ": 'simulate "
          + "--from-checkpoint " + checkpoint.get() + "' goes on from there.", f);
    }
  }

  public CommandFailure notFound() {
    java.util.Optional<java.nio.file.Path> checkpoint = lastCheckpoint();
    if (checkpoint.isPresent()) {
      return new CommandFailure(Failures.NOT_FOUND, "'" + workflowId + "' on " + target() + ": no such run"
          + (inMemory() ? "; this is the in-memory Temporal, which forgets every run when it restarts" : ""),
          "Its last checkpoint is " + checkpoint.get() + ": 'simulate --from-checkpoint " + checkpoint.get()
              + "' goes on from there under the same id.");
    }
    if (inMemory()) {
      return new CommandFailure(Failures.NOT_FOUND, "'" + workflowId + "' on " + target()
          + ": no such run; this is the in-memory Temporal, which forgets every run when it restarts",
          "If '" + workflowId + "' ran here before a restart, it is gone: start it again (the same --seed "
              + "gives the same result) or from a checkpoint (--checkpoint-every), and keep long runs on a "
              + "persistent Temporal (docs/embedded-temporal.md).");
    }
    return new CommandFailure(Failures.NOT_FOUND, "'" + workflowId + "' on " + target() + ": no such run",
        "'list' shows the simulation runs; check TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE.");
  }

  /** Whether the server is the in-memory Temporal (asked once). */
  boolean inMemory() {
    if (inMemory == null) {
      inMemory = Links.inMemory(service);
    }
    return inMemory;
  }

  private String target() {
    return service.getOptions().getTarget();
  }
}
