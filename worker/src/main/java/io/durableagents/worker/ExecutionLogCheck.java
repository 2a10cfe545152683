package io.durableagents.worker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Answers from {@link ExecutionJournal} files alone ({@code DURABLE_AGENTS_EXECUTION_LOG}, one or several
 * workers' files): did any completed call run twice? A call is one activity of one workflow run
 * (workflow id, run id, activity id); it ran again when it finished ({@code done}) more than once, when an
 * attempt started after the attempt that finished, or when one attempt started twice. An attempt that was
 * in flight on a worker that died and was then retried is not a call run twice: it never finished. Nor is
 * one that finished on a worker killed before it reported the result (Temporal's at-least-once delivery):
 * that worker wrote nothing once the call ran again, where a live worker went on writing lines.
 *
 * <pre>{@code
 * ExecutionLogCheck.Report report = ExecutionLogCheck.check(List.of(Path.of("executions.tsv")));
 * if (!report.ranTwice().isEmpty()) { ... }
 * }</pre>
 *
 * <p>For a finished run, the test kit's {@code ExecutionJournalCheck} also compares the journal with the
 * run's histories (which attempt Temporal recorded as completed).
 */
public final class ExecutionLogCheck {
  private ExecutionLogCheck() {}

  /** The columns of a journal line, tab separated, in this order. */
  public static final List<String> COLUMNS = List.of("epoch_millis", "event", "workflow_id", "activity_id",
      "attempt", "activity_type", "worker_pid", "run_id");

  /**
   * A call that ran twice.
   *
   * @param workflowId the workflow that scheduled it
   * @param runId its run
   * @param activityId the activity's id in that run
   * @param activityType e.g. {@code LlmChat}, {@code ToolExecute}
   * @param why what the journal shows, e.g. {@code attempt 2 finished on worker 4711 (which went on
   *     running calls), then attempt 3 finished on worker 4711}
   * @param onLiveWorker whether the worker of the first finished attempt wrote any line once the call ran
   *     again (the later attempt started): the call ran twice on a worker that was alive. When it wrote
   *     nothing more, the call finished on a worker that died before reporting it, and Temporal ran it
   *     again: its at-least-once delivery, not a call run twice on a live worker
   */
  public record RanTwice(String workflowId, String runId, String activityId, String activityType, String why,
      boolean onLiveWorker) {}

  /**
   * What the journals show.
   *
   * @param lines journal lines read
   * @param completedCalls calls that finished at least once
   * @param retriedCalls of those, calls that finished in a later attempt than their first (an attempt in
   *     flight on a worker that died, or one that failed, was retried)
   * @param workerProcesses how many worker processes wrote the lines
   * @param ranTwice the completed calls that ran again, whether on a live worker or after the worker that
   *     finished them died before reporting it ({@link RanTwice#onLiveWorker()} says which)
   */
  public record Report(long lines, int completedCalls, int retriedCalls, int workerProcesses,
      List<RanTwice> ranTwice) {
    /** The calls that ran twice on a worker that was alive: what should never happen. */
    public List<RanTwice> ranTwiceOnLiveWorker() {
      return ranTwice.stream().filter(RanTwice::onLiveWorker).toList();
    }

    /** The calls that finished on a worker that died before reporting them, and so ran again. */
    public List<RanTwice> finishedOnDeadWorker() {
      return ranTwice.stream().filter(t -> !t.onLiveWorker()).toList();
    }
  }

  private record Line(long millis, String event, int attempt, String type, String pid) {}

  /**
   * Reads every file and checks every call.
   *
   * @throws IllegalArgumentException naming a file that cannot be read, or the file and line number of a
   *     line that is not a journal line
   */
  public static Report check(Collection<Path> files) {
    Map<String, List<Line>> calls = new LinkedHashMap<>();
    Map<String, Long> lastLineOfPid = new HashMap<>();
    long count = 0;
    for (Path file : files) {
      List<String> lines;
      try {
        lines = Files.readAllLines(file);
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read " + file + ": " + (Files.exists(file)
            ? e.getClass().getSimpleName() + ": " + e.getMessage() : "no such file"), e);
      }
      for (int i = 0; i < lines.size(); i++) {
        String text = lines.get(i);
        if (text.isBlank()) {
          continue;
        }
        String[] f = text.split("\t", -1);
        Line line;
        try {
          if (f.length != COLUMNS.size()) {
            throw new IllegalArgumentException(f.length + " columns");
          }
          line = new Line(Long.parseLong(f[0]), f[1], Integer.parseInt(f[4]), f[5], f[6]);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(file + ":" + (i + 1) + ": not a line of an execution log ("
              + COLUMNS.size() + " tab-separated columns: " + String.join(", ", COLUMNS) + ")", e);
        }
        count++;
        calls.computeIfAbsent(f[2] + "\t" + f[7] + "\t" + f[3], k -> new ArrayList<>()).add(line);
        lastLineOfPid.merge(line.pid(), line.millis(), Math::max);
      }
    }
    int completed = 0;
    int retried = 0;
    List<RanTwice> twice = new ArrayList<>();
    for (Map.Entry<String, List<Line>> call : calls.entrySet()) {
      List<Line> lines = call.getValue();
      List<Line> done = lines.stream().filter(l -> l.event().equals("done")).sorted(
          java.util.Comparator.comparingLong(Line::millis)).toList();
      if (done.isEmpty()) {
        continue;
      }
      completed++;
      Line first = done.get(0);
      if (first.attempt() > 1) {
        retried++;
      }
      String why = null;
      // when the call ran again: the later attempt's start (or, without one in the files, its end)
      long again = 0;
      List<Line> starts = lines.stream().filter(l -> l.event().equals("start"))
          .sorted(java.util.Comparator.comparingLong(Line::millis)).toList();
      List<Integer> startedAttempts = starts.stream().map(Line::attempt).toList();
      Line later = starts.stream().filter(l -> l.attempt() > first.attempt()).findFirst().orElse(null);
      if (done.size() > 1) {
        Line second = done.get(1);
        why = "attempt " + first.attempt() + " finished on worker " + first.pid() + ", then attempt "
            + second.attempt() + " finished on worker " + second.pid();
        again = starts.stream().filter(l -> l.attempt() == second.attempt() && l.millis() >= first.millis())
            .mapToLong(Line::millis).findFirst().orElse(second.millis());
      } else if (later != null) {
        why = "attempt " + first.attempt() + " finished on worker " + first.pid() + ", then attempt "
            + later.attempt() + " started on worker " + later.pid();
        again = later.millis();
      } else if (new TreeSet<>(startedAttempts).size() != startedAttempts.size()) {
        why = "an attempt started twice: attempts " + startedAttempts;
        again = starts.get(starts.size() - 1).millis();
      }
      if (why != null) {
        // A worker killed just after it finished a call (its result never reported, so Temporal ran the
        // call again: at-least-once delivery) may still write a line or two in the milliseconds before
        // the kill; what tells it from a live worker is whether it wrote anything once the call ran again.
        long lastLine = lastLineOfPid.getOrDefault(first.pid(), first.millis());
        boolean live = lastLine >= again;
        String[] key = call.getKey().split("\t", -1);
        twice.add(new RanTwice(key[0], key[1], key[2], first.type(), why + (live
            ? " (worker " + first.pid() + " went on running calls after that: it was alive)"
            : " (worker " + first.pid() + " wrote its last line " + (lastLine - first.millis())
                + " ms after that and nothing once the call ran again " + (again - first.millis())
                + " ms after it: it died before reporting it)"), live));
      }
    }
    Set<String> pids = lastLineOfPid.keySet();
    return new Report(count, completed, retried, pids.size(), List.copyOf(twice));
  }
}
