package io.durableagents.starter.experiment;

import io.durableagents.starter.run.CountColumns;
import io.durableagents.workflows.experiment.ExperimentProgress;
import io.durableagents.workflows.experiment.ExperimentResult;
import io.durableagents.workflows.experiment.ExperimentRunOutcome;
import io.durableagents.workflows.experiment.ExperimentWorkflow;
import io.durableagents.workflows.experiment.RunStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import java.io.PrintStream;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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
      }
    }
  }

  private void poll(ExperimentWorkflow experiment) {
    List<ExperimentRunOutcome> runs;
    ExperimentProgress progress;
    try {
      runs = experiment.runs();
      progress = experiment.progress();
    } catch (RuntimeException e) {
      if (!saidNoAnswer) {
        saidNoAnswer = true;
        out.println("(no answer from the experiment yet: " + firstLine(e.getMessage())
            + "; waiting for a worker to take it)");
      }
      return;
    }
    if (printEnded(runs) && progress != null) {
      out.println(progressLine(progress));
    }
  }

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
