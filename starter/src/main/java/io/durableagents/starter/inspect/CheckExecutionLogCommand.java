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
 * any completed call ran twice: exit 0 when none did, 1 naming each that did.
 *
 * <pre>{@code
 * durable-agents check-execution-log executions-1.tsv executions-2.tsv
 * }</pre>
 */
@Command(name = "check-execution-log",
    description = "Did any completed call run twice? Reads the files workers wrote with "
        + WorkerSettings.EXECUTION_LOG + " (one or several) and names each call that finished twice or ran "
        + "again after it finished; exit 0 when none did, 1 when one did.")
public final class CheckExecutionLogCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Execution log files (" + WorkerSettings.EXECUTION_LOG
      + "); several workers may share one, or each write its own.")
  List<Path> files;

  @Override
  public Integer call() {
    ExecutionLogCheck.Report r;
    try {
      r = ExecutionLogCheck.check(files);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage(e.getMessage(), "Name files written by workers with "
          + WorkerSettings.EXECUTION_LOG + "=FILE.");
    }
    System.out.println(r.lines() + " lines from " + r.workerProcesses() + " worker process(es): "
        + r.completedCalls() + " completed calls, " + r.retriedCalls()
        + " of them finished in a later attempt (retried), " + r.ranTwice().size() + " ran twice.");
    for (ExecutionLogCheck.RanTwice t : r.ranTwice()) {
      System.out.println("ran twice: " + t.activityType() + " " + t.activityId() + " of " + t.workflowId()
          + " (run " + t.runId() + "): " + t.why());
    }
    if (r.ranTwice().isEmpty()) {
      System.out.println("No completed call ran twice.");
      return Failures.OK;
    }
    long live = r.ranTwice().stream().filter(ExecutionLogCheck.RanTwice::onLiveWorker).count();
    System.err.println("check-execution-log: " + r.ranTwice().size() + " completed call(s) ran twice, "
        + live + " of them on a worker that was alive");
    return Failures.FAILED;
  }
}
