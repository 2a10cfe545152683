package io.durableagents.starter.local;

import java.util.function.BooleanSupplier;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Waits, within a bound, for the worker a command started to poll, saying while it starts that it does:
 * a new JVM and its warm-up took longer than the run's watch gives a worker (3 s) on a loaded machine, and
 * {@code demo} said "No worker polls ... start one in another terminal" of the worker it had just started.
 * The worker polls once Temporal lists it among the workflow task queue's pollers (by its identity), or
 * once its log says {@code worker started: ...} (after its warm-up; a logging configuration of the user's
 * may hide that line, and Temporal's listing answers either way).
 */
final class WorkerStart {
  /** How long the worker has to start before the command goes on without it. */
  static final long BOUND_MILLIS = 120_000;
  /** How long a start may take before it is said. */
  static final long QUIET_MILLIS = 2_000;
  /** What the worker logs once it polls. */
  static final String STARTED = " - worker started: ";

  /** How the wait ended. */
  enum Outcome { STARTED, EXITED, TIMED_OUT }

  private WorkerStart() {}

  /**
   * Waits until the worker's log (from byte {@code from} on) says it started, the worker exits, or
   * {@code boundMillis} pass; says so on {@code out} when it takes longer than {@link #QUIET_MILLIS}.
   */
  static Outcome await(Path log, long from, Process worker, long boundMillis, PrintStream out)
      throws InterruptedException {
    return await(log, from, worker, boundMillis, out, () -> false);
  }

  /** As above; {@code polls} says whether Temporal lists the worker as a poller (false when it cannot tell). */
  static Outcome await(Path log, long from, Process worker, long boundMillis, PrintStream out, BooleanSupplier polls)
      throws InterruptedException {
    long start = System.nanoTime();
    boolean said = false;
    while (true) {
      long waited = (System.nanoTime() - start) / 1_000_000;
      if (started(log, from) || polls.getAsBoolean()) {
        if (said) {
          out.println("  The worker polls now (it took " + (waited + 500) / 1000 + " s).");
          out.flush();
        }
        return Outcome.STARTED;
      }
      if (!worker.isAlive()) {
        return Outcome.EXITED;
      }
      if (waited >= boundMillis) {
        out.println("  The worker has not started polling after " + waited / 1000 + " s (log: " + log
            + "); going on: the run waits for it.");
        out.flush();
        return Outcome.TIMED_OUT;
      }
      if (!said && waited >= QUIET_MILLIS) {
        out.println("  The worker is starting (a new JVM, then a warm-up; slower on a busy machine): waiting up to "
            + boundMillis / 1000 + " s for it to poll ...");
        out.flush();
        said = true;
      }
      Thread.sleep(100);
    }
  }

  /** The last line the worker wrote (why it exited), or empty. */
  static String lastLine(Path log, long from) {
    List<String> lines = lines(log, from);
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (!lines.get(i).isBlank()) {
        return lines.get(i).strip();
      }
    }
    return "";
  }

  /** The last line that starts with {@code prefix} (a child's one-line failure), or empty. */
  static String lastLineStartingWith(Path log, long from, String prefix) {
    List<String> lines = lines(log, from);
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (lines.get(i).startsWith(prefix)) {
        return lines.get(i).strip();
      }
    }
    return "";
  }

  /**
   * Whether Temporal lists a poller of the workflow task queue {@code taskQueue} with {@code identity}, or,
   * without one, an identity of process {@code pid} ({@code <pid>@<host>}, the SDK's default); false when
   * it cannot tell (a server without the call, one not answering).
   */
  static boolean listedAsPoller(io.temporal.serviceclient.WorkflowServiceStubs service, String namespace,
      String taskQueue, long pid, String identity) {
    try {
      var pollers = service.blockingStub().withDeadlineAfter(2, java.util.concurrent.TimeUnit.SECONDS)
          .describeTaskQueue(io.temporal.api.workflowservice.v1.DescribeTaskQueueRequest.newBuilder()
              .setNamespace(namespace)
              .setTaskQueue(io.temporal.api.taskqueue.v1.TaskQueue.newBuilder().setName(taskQueue))
              .setTaskQueueType(io.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW).build())
          .getPollersList();
      for (var poller : pollers) {
        String id = poller.getIdentity();
        if (identity != null && !identity.isBlank() ? id.equals(identity) : id.startsWith(pid + "@")) {
          return true;
        }
      }
      return false;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static boolean started(Path log, long from) {
    return lines(log, from).stream().anyMatch(l -> l.contains(STARTED));
  }

  private static List<String> lines(Path log, long from) {
    try {
      if (!Files.exists(log)) {
        return List.of();
      }
      byte[] all = Files.readAllBytes(log);
      int start = (int) Math.min(Math.max(from, 0), all.length);
      return List.of(new String(all, start, all.length - start, StandardCharsets.UTF_8).split("\\R"));
    } catch (IOException e) {
      return List.of();
    }
  }
}
