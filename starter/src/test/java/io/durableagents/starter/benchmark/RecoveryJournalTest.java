package io.durableagents.starter.benchmark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recovery parts' reading of an execution journal: calls that ran again, and a worker's first completion. */
class RecoveryJournalTest {
  // epoch ms, event, workflow id, activity id, attempt, activity type, worker pid, run id
  private static final List<String> JOURNAL = List.of(
      "900\tstart\twf\t9\t1\tLlm\t6\trun", // before the part's first line: skipped
      "1000\tstart\twf\t1\t1\tLlm\t7\trun", // in flight at the kill, retried as attempt 2
      "1100\tstart\twf\t2\t1\tLlm\t7\trun", // completed, then started again: ran again
      "1200\tdone\twf\t2\t1\tLlm\t7\trun",
      "2100\tstart\twf\t1\t2\tLlm\t8\trun",
      "2600\tdone\twf\t1\t2\tLlm\t8\trun",
      "2300\tstart\twf\t2\t2\tLlm\t8\trun",
      "2400\tdone\twf\t3\t1\tLlm\t8\trun", // lines are written as they end, not in time order
      "2500\tstart\twf\t4\t1\tLlm\t8\trun",
      "2550\tstart\twf\t4\t1\tLlm\t8\trun"); // one attempt started twice: ran again

  @Test
  void completedCallsThatRanAgainAndCallsRetriedAfterBeingInFlightAreCountedApart(@TempDir Path dir)
      throws Exception {
    Path journal = dir.resolve("journal.log");
    Files.write(journal, JOURNAL);
    Map<String, Integer> completed = new LinkedHashMap<>();
    completed.put("wf|run|1", 2);
    completed.put("wf|run|2", 1);
    completed.put("wf|run|3", 1);
    completed.put("wf|run|4", 1);
    assertArrayEquals(new int[] {2, 1}, RecoveryJournal.ranAgain(journal, 1, completed));
  }

  @Test
  void aWorkersFirstCompletionIsItsEarliestDoneLineWithItsAttempt(@TempDir Path dir) throws Exception {
    Path journal = dir.resolve("journal.log");
    Files.write(journal, JOURNAL);
    assertArrayEquals(new long[] {2400, 1}, RecoveryJournal.firstDoneWithAttempt(journal, 1, 8));
    assertEquals(1200, RecoveryJournal.firstDone(journal, 1, 7));
    assertEquals(-1, RecoveryJournal.firstDone(journal, 1, 6));
  }
}
