package io.durableagents.testkit;

import io.durableagents.worker.CompletedActivities;
import io.durableagents.worker.ExecutionJournal;
import io.temporal.client.WorkflowClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks an {@link ExecutionJournal} (what the workers really ran, attempt by attempt) against the
 * histories of a finished run (what Temporal recorded as completed): after a worker was killed and
 * another took over, no activity that had completed ran again. Only calls in flight at the kill may
 * have run twice, each in a later attempt than the one that was lost (Temporal's at-least-once
 * delivery); an attempt after the one the history records as completed, or one attempt started twice,
 * is a completed call run again.
 *
 * <pre>{@code
 * ExecutionJournalCheck.Report report =
 *     ExecutionJournalCheck.assertNoCompletedActivityRanAgain(client, "wealth-crash", journal);
 * assertTrue(report.workerProcesses() >= 2, "both workers ran activities of the run");
 * }</pre>
 *
 * <p>Only the journal's lines of the run's own workflows are read (the workflow, every run of it that
 * continued as new, and every workflow it started, at any depth), so one journal may serve several runs.
 */
public final class ExecutionJournalCheck {
  private ExecutionJournalCheck() {}

  /**
   * What the check found.
   *
   * @param activities the activities the run completed
   * @param retriedInFlight those completed in a later attempt than the first: calls in flight when a
   *     worker died (or that failed and were retried)
   * @param finishedOnLostWorker of those, how many the journal shows finished twice: an attempt that
   *     finished on the killed worker after its last word to Temporal, whose result was lost with it
   * @param workerProcesses how many worker processes ran activities of the run
   */
  public record Report(int activities, int retriedInFlight, int finishedOnLostWorker, int workerProcesses) {}

  /**
   * Checks that no completed activity of {@code workflowId}'s run (which must have finished) ran again.
   *
   * @throws AssertionError naming the first activity that ran again, or an execution that belongs to
   *     no completed activity, or a completed activity the journal never saw start
   */
  public static Report assertNoCompletedActivityRanAgain(WorkflowClient client, String workflowId, Path journal) {
    Map<String, Integer> completed = CompletedActivities.byRun(client, workflowId);
    if (completed.isEmpty()) {
      throw new AssertionError(workflowId + ": its histories record no completed activity");
    }
    Set<String> runs = new HashSet<>();
    for (String key : completed.keySet()) {
      runs.add(key.substring(0, key.lastIndexOf('|')));
    }
    Map<String, List<Integer>> started = new HashMap<>();
    Map<String, Integer> done = new HashMap<>();
    Set<String> pids = new TreeSet<>();
    for (String line : lines(journal)) {
      // epoch millis, event, workflow id, activity id, attempt, activity type, worker pid, run id
      String[] f = line.split("\t");
      if (f.length < 8 || !runs.contains(f[2] + "|" + f[7])) {
        continue;
      }
      String key = f[2] + "|" + f[7] + "|" + f[3];
      if (f[1].equals("start")) {
        started.computeIfAbsent(key, k -> new ArrayList<>()).add(Integer.parseInt(f[4]));
        pids.add(f[6]);
      } else if (f[1].equals("done")) {
        done.merge(key, 1, Integer::sum);
      }
    }
    for (String key : started.keySet()) {
      if (!completed.containsKey(key)) {
        throw new AssertionError("ran, but the history records no completion: " + key
            + " (journal " + journal.toAbsolutePath() + ")");
      }
    }
    int retried = 0;
    int finishedOnLostWorker = 0;
    for (Map.Entry<String, Integer> c : completed.entrySet()) {
      List<Integer> attempts = started.get(c.getKey());
      if (attempts == null) {
        throw new AssertionError("completed, but the journal never saw it start: " + c.getKey()
            + " (did every worker of the run write to " + journal.toAbsolutePath() + "?)");
      }
      if (new HashSet<>(attempts).size() != attempts.size()) {
        throw new AssertionError("ran again: an attempt of " + c.getKey() + " started twice: " + attempts);
      }
      Integer completedAttempt = c.getValue();
      if (completedAttempt == null) {
        throw new AssertionError("the history records a completion of " + c.getKey() + " without a start");
      }
      if (!attempts.contains(completedAttempt)) {
        throw new AssertionError(c.getKey() + " completed in attempt " + completedAttempt
            + ", which the journal never saw start (attempts " + attempts + ")");
      }
      for (int a : attempts) {
        if (a > completedAttempt) {
          throw new AssertionError("ran again after it completed: " + c.getKey() + " completed in attempt "
              + completedAttempt + ", then attempt " + a + " ran");
        }
      }
      if (completedAttempt > 1) {
        retried++;
        if (done.getOrDefault(c.getKey(), 0) > 1) {
          finishedOnLostWorker++;
        }
      }
    }
    return new Report(completed.size(), retried, finishedOnLostWorker, pids.size());
  }

  /** How many activity executions {@code journal} records as done (0 when it does not exist yet). */
  public static long completedExecutions(Path journal) {
    try {
      return CompletedActivities.doneInJournal(journal, 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the execution journal " + journal.toAbsolutePath(), e);
    }
  }

  private static List<String> lines(Path journal) {
    try {
      return Files.exists(journal) ? Files.readAllLines(journal) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the execution journal " + journal.toAbsolutePath(), e);
    }
  }
}
