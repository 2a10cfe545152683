package io.durableagents.starter.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads the execution journal a benchmark worker writes ({@link io.durableagents.worker.ExecutionJournal},
 * {@code DURABLE_AGENTS_EXECUTION_LOG}: a tab-separated line per activity attempt started or done) for the
 * recovery parts: which calls ran again after a kill, and when a worker first completed one.
 */
final class RecoveryJournal {
  private RecoveryJournal() {}

  /**
   * Checks an execution journal (from line {@code skip}) against the attempts that completed each call
   * ({@link io.durableagents.worker.CompletedActivities#byRun}): {completed calls that ran again, calls retried after being in
   * flight}. A completed call ran again if an attempt started after the one the history records as
   * completed, or if one attempt started twice. Earlier attempts were in flight at a kill: retried, as
   * at-least-once delivery allows (they may have finished on the dead worker, their results lost).
   */
  static int[] ranAgain(Path journal, int skip, Map<String, Integer> completed) throws IOException {
    Map<String, List<Integer>> executed = new HashMap<>();
    List<String> journalLines = Files.readAllLines(journal);
    for (String l : journalLines.subList(skip, journalLines.size())) {
      String[] f = l.split("\t");
      if (f[1].equals("start")) {
        executed.computeIfAbsent(f[2] + "|" + f[7] + "|" + f[3], k -> new ArrayList<>()).add(Integer.parseInt(f[4]));
      }
    }
    int ranAgainAfterCompletion = 0;
    int retriedInFlight = 0;
    for (Map.Entry<String, Integer> e : completed.entrySet()) {
      List<Integer> attempts = executed.getOrDefault(e.getKey(), List.of());
      for (int a : attempts) {
        if (e.getValue() != null && a > e.getValue()) {
          ranAgainAfterCompletion++;
        }
      }
      if (new HashSet<>(attempts).size() != attempts.size()) {
        ranAgainAfterCompletion++;
      }
      if (e.getValue() != null && e.getValue() > 1) {
        retriedInFlight++;
      }
    }
    return new int[] {ranAgainAfterCompletion, retriedInFlight};
  }

  /** When worker {@code pid} first completed an activity (epoch ms), or -1. */
  static long firstDone(Path journal, int skip, long pid) throws IOException {
    return firstDoneWithAttempt(journal, skip, pid)[0];
  }

  /** When worker {@code pid} first completed an activity (epoch ms, -1 if never) and that attempt. */
  static long[] firstDoneWithAttempt(Path journal, int skip, long pid) throws IOException {
    long[] first = {-1, 0};
    try (Stream<String> lines = Files.lines(journal)) {
      lines.skip(skip).forEach(l -> {
        String[] f = l.split("\t");
        if (f.length > 6 && f[1].equals("done") && f[6].equals(Long.toString(pid))) {
          long at = Long.parseLong(f[0]);
          if (first[0] < 0 || at < first[0]) {
            first[0] = at;
            first[1] = Integer.parseInt(f[4]);
          }
        }
      });
    }
    return first;
  }
}
