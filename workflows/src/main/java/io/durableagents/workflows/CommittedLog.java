package io.durableagents.workflows;

import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.helpers.MessageFormatter;

/**
 * Log lines from workflow code that are written once, when the workflow task that made them is
 * committed, so that a line such as "step 4/10 done" is not written twice when a worker is killed.
 *
 * <p>{@code Workflow.getLogger} writes nothing while a workflow replays its history, but a workflow
 * task that a killed worker had run and not yet reported is not in the history: the next worker runs
 * it again, not replaying, and writes its lines again. Here a line is held until the worker hears
 * that the task was completed ({@link #committed}), and dropped when the task failed ({@link
 * #failed}) or was run again (a later task of the run was committed first). The worker process
 * calls them from its connection to Temporal ({@code io.durableagents.worker.WorkflowTaskFailures})
 * after it has {@link #install installed} the log. Where none is installed (a test environment, a
 * worker built by hand), lines are written at once through {@code Workflow.getLogger}, as before.
 *
 * <pre>{@code
 * CommittedLog.info(SimulationWorkflowImpl.class, "step {}/{} done", step, steps); // in workflow code
 * }</pre>
 */
public final class CommittedLog {
  /** How many runs may hold lines at once; beyond it the oldest are dropped (runs ended by hand). */
  static final int MAX_RUNS = 10_000;

  private static volatile CommittedLog installed;

  /** One held line: where it was made (the task's history length), its logger, workflow and text. */
  private record Line(long taskHistoryLength, String logger, String workflowId, String text) {}

  private final java.util.LinkedHashMap<String, List<Line>> pending = new java.util.LinkedHashMap<>();

  private CommittedLog() {}

  /**
   * Installs the log for this process and returns it: from now on workflow code's lines wait for
   * {@link #committed}. For the worker process, which sees its workflow tasks completed.
   */
  public static synchronized CommittedLog install() {
    if (installed == null) {
      installed = new CommittedLog();
    }
    return installed;
  }

  /** Removes the installed log (tests); lines are written at once again. */
  public static synchronized void uninstall() {
    installed = null;
  }

  /**
   * Workflow code: an INFO line, formatted as SLF4J does ({@code {}} placeholders), written once the
   * current workflow task is committed; nothing while the workflow replays.
   */
  public static void info(Class<?> source, String format, Object... args) {
    if (Workflow.isReplaying()) {
      return;
    }
    CommittedLog log = installed;
    if (log == null) {
      Workflow.getLogger(source).info(format, args);
      return;
    }
    String text = MessageFormatter.arrayFormat(format, args).getMessage();
    log.hold(Workflow.getInfo().getRunId(), new Line(Workflow.getInfo().getHistoryLength(), source.getName(),
        Workflow.getInfo().getWorkflowId(), text));
  }

  private synchronized void hold(String runId, Line line) {
    pending.computeIfAbsent(runId, id -> new ArrayList<>()).add(line);
    if (pending.size() > MAX_RUNS) {
      String oldest = pending.keySet().iterator().next();
      pending.remove(oldest);
    }
  }

  /**
   * The worker: a workflow task of {@code runId} was completed. Writes the lines its task made; lines
   * of earlier attempts of it (made in a shorter history) are dropped.
   */
  public void committed(String runId) {
    List<Line> lines;
    synchronized (this) {
      lines = pending.remove(runId);
    }
    if (lines == null) {
      return;
    }
    long latest = lines.stream().mapToLong(Line::taskHistoryLength).max().orElse(0);
    for (Line line : lines) {
      if (line.taskHistoryLength() != latest) {
        continue;
      }
      Logger logger = LoggerFactory.getLogger(line.logger());
      // the MDC key the SDK sets for workflow code (LoggerTag.WORKFLOW_ID), which log formats print
      try (MDC.MDCCloseable ignored = MDC.putCloseable("WorkflowId", line.workflowId())) {
        logger.info(line.text());
      }
    }
  }

  /** The worker: a workflow task of {@code runId} failed; its lines are dropped (the next attempt makes them again). */
  public synchronized void failed(String runId) {
    pending.remove(runId);
  }
}
