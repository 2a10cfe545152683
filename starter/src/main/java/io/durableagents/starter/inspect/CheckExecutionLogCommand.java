package io.durableagents.starter.inspect;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Failures;
import io.durableagents.worker.ExecutionLogCheck;
import io.durableagents.worker.WorkerSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Reads the execution logs that workers wrote ({@code DURABLE_AGENTS_EXECUTION_LOG}) and says whether
 * any completed call ran twice on a live worker: exit 0 when none did, 1 naming each that did. A call that
 * finished on a worker that died before reporting it, and ran again, is named too, as Temporal's
 * at-least-once delivery (exit 0).
 *
 * <pre>{@code
 * durable-agents check-execution-log executions-1.tsv executions-2.tsv
 * }</pre>
 */
@Command(name = "check-execution-log",
    description = "Did any completed call run twice? Reads the files workers wrote with "
        + WorkerSettings.EXECUTION_LOG + " (one or several) and names each call that finished twice or ran "
        + "again after it finished, on a live worker or after its worker died before reporting it (at-least-once "
        + "delivery); exit 0 when none ran twice on a live worker, 1 when one did.")
public final class CheckExecutionLogCommand implements Callable<Integer> {
  private static final String DIED = "finished on a worker that died before reporting it";

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Execution log files (" + WorkerSettings.EXECUTION_LOG
      + "); several workers may share one, or each write its own.")
  List<Path> files;

  private static String describe(ExecutionLogCheck.RanTwice t) {
    return t.activityType() + " " + t.activityId() + " of " + t.workflowId() + " (run " + t.runId() + "): "
        + t.why();
  }

  @Override
  public Integer call() {
    ExecutionLogCheck.Report r;
    try {
      r = ExecutionLogCheck.check(files);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage(e.getMessage(), "Name files written by workers with "
          + WorkerSettings.EXECUTION_LOG + "=FILE.");
    }
    List<ExecutionLogCheck.RanTwice> live = r.ranTwiceOnLiveWorker();
    List<ExecutionLogCheck.RanTwice> dead = r.finishedOnDeadWorker();
    System.out.println(r.lines() + " lines from " + r.workerProcesses() + " worker process(es): "
        + r.completedCalls() + " completed calls, " + r.retriedCalls()
        + " of them finished in a later attempt (retried), " + dead.size() + " " + DIED + ", "
        + live.size() + " ran twice on a live worker.");
    for (ExecutionLogCheck.RanTwice t : dead) {
      System.out.println(DIED + ": " + describe(t));
    }
    for (ExecutionLogCheck.RanTwice t : live) {
      System.out.println("ran twice: " + describe(t));
    }
    if (live.isEmpty()) {
      System.out.println(dead.isEmpty() ? "No completed call ran twice."
          : "No completed call ran twice on a live worker; " + dead.size() + " " + DIED
              + ", and Temporal ran " + (dead.size() == 1 ? "it" : "them") + " again (at-least-once delivery).");
      return Failures.OK;
    }
    System.err.println("check-execution-log: " + live.size() + " completed call(s) ran twice on a worker that "
        + "was alive");
    return Failures.FAILED;
  }
}
