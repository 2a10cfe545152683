package io.durableagents.starter.experiment;

import io.durableagents.starter.SimulationControl;
import io.durableagents.starter.run.CountColumns;
import io.durableagents.workflows.experiment.ExperimentProgress;
import io.durableagents.workflows.experiment.ExperimentResult;
import io.durableagents.workflows.experiment.ExperimentRunOutcome;
import io.durableagents.workflows.experiment.ExperimentWorkflow;
import io.durableagents.workflows.experiment.RunStatus;
import io.temporal.client.WorkflowClient;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.client.WorkflowServiceException;
import io.temporal.client.WorkflowStub;
import java.io.PrintStream;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Follows an experiment until it ends ({@code sweep}, {@code attach}): a line per run as it ends (its
 * values, seed, status, final counts, calls and tokens) and a progress line after them, by asking the
 * experiment ({@code runs()}, {@code progress()}) between waits for its result; then its result. A run
 * that had ended before is printed at once, so that attaching later shows the same lines.
 */
public final class ExperimentFollower {
  /** How long one wait for the result lasts before the experiment is asked how it stands. */
  static final long POLL_MILLIS = 1000;

  private final WorkflowClient client;
  private final PrintStream out;
  private final CountColumns columns;
  private final Set<Integer> printed = new HashSet<>();
  private boolean saidNoAnswer;

  public ExperimentFollower(WorkflowClient client, PrintStream out, CountColumns columns) {
    this.client = client;
    this.out = out;
    this.columns = columns;
  }

  /**
   * Follows {@code experimentId} until it ends; returns its result.
   *
   * @throws io.temporal.client.WorkflowFailedException when the experiment itself failed
   */
  public ExperimentResult follow(String experimentId) {
    WorkflowStub stub = client.newUntypedWorkflowStub(experimentId);
    ExperimentWorkflow experiment = client.newWorkflowStub(ExperimentWorkflow.class, experimentId);
    while (true) {
      try {
        ExperimentResult result = stub.getResult(POLL_MILLIS, TimeUnit.MILLISECONDS, ExperimentResult.class);
        printEnded(result.runs());
        return result;
      } catch (TimeoutException e) {
        poll(experiment);
      } catch (WorkflowServiceException e) {
        if (!busy(e)) {
          throw e;
        }
        // a server busy with the experiment's own events says so; it has not lost the experiment
        pause();
        poll(experiment);
      }
    }
  }

  /** Whether {@code e} is a server too busy to answer now ("Workflow is busy", unavailable a moment). */
  static boolean busy(WorkflowServiceException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StatusRuntimeException s) {
        Status.Code code = s.getStatus().getCode();
        return code == Status.Code.RESOURCE_EXHAUSTED || code == Status.Code.UNAVAILABLE
            || code == Status.Code.DEADLINE_EXCEEDED;
      }
    }
    return false;
  }

  private static void pause() {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private record Answer(List<ExperimentRunOutcome> runs, ExperimentProgress progress) {}

  /**
   * Asks the experiment how it stands, one query at a time: a query still unanswered (no worker has taken
   * it: Temporal holds it for over a minute) is waited for by the next poll, never sent again beside it,
   * so that queries never pile up on a busy experiment.
   */
  private void poll(ExperimentWorkflow experiment) {
    if (pending == null) {
      pending = CompletableFuture.supplyAsync(() -> new Answer(experiment.runs(), experiment.progress()), QUERIES);
      pendingSince = System.nanoTime();
    }
    Answer answer;
    try {
      answer = pending.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
      pending = null;
    } catch (TimeoutException e) {
      if (!saidNoAnswer && System.nanoTime() - pendingSince > SimulationControl.QUERY_WAIT.toNanos()) {
        saidNoAnswer = true;
        out.println("(no answer from the experiment for " + SimulationControl.QUERY_WAIT.toSeconds()
            + " s: no worker has taken it yet, or it is busy; it goes on once a worker takes it)");
      }
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (ExecutionException e) {
      pending = null;
      if (!saidNoAnswer) {
        saidNoAnswer = true;
        out.println("(no answer from the experiment yet: " + firstLine(e.getCause().getMessage()) + ")");
      }
      return;
    }
    if (printEnded(answer.runs()) && answer.progress() != null) {
      out.println(progressLine(answer.progress()));
    }
  }

  private CompletableFuture<Answer> pending;
  private long pendingSince;

  private static final java.util.concurrent.ExecutorService QUERIES =
      java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "experiment-query");
        t.setDaemon(true);
        return t;
      });

  /** Prints the runs that ended since the last call; returns whether there were any. */
  private boolean printEnded(List<ExperimentRunOutcome> runs) {
    ExperimentTable table = ExperimentTable.of(runs, columns);
    boolean any = false;
    for (ExperimentRunOutcome o : runs) {
      if (o.status().ended() && printed.add(o.index())) {
        out.println(table.line(o));
        any = true;
      }
    }
    return any;
  }

  /**
   * {@code 12/40 runs ended (10 completed, 1 failed, 1 not started), 4 running, 24 waiting; 2400 LLM calls,
   * 1800000 tokens}.
   */
  static String progressLine(ExperimentProgress p) {
    return String.format(Locale.ROOT, "%d/%d runs ended (%d completed, %d stopped, %d failed, %d not started),"
            + " %d running, %d waiting; %d LLM calls, %d tokens%s%s",
        p.ended(), p.runs(), n(p, RunStatus.COMPLETED), n(p, RunStatus.STOPPED), n(p, RunStatus.FAILED),
        n(p, RunStatus.NOT_STARTED), n(p, RunStatus.RUNNING), n(p, RunStatus.WAITING), p.llmCalls(), p.tokens(),
        p.budget() == null ? "" : " (budget " + p.budget().describe() + ")",
        p.paused() ? ", paused" : p.stopping() ? ", stopping" : "");
  }

  private static int n(ExperimentProgress p, RunStatus status) {
    return p.byStatus().getOrDefault(status, 0);
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "no message";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
