package io.durableagents.starter.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.benchmark.BenchmarkServer.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark's comparison of the in-memory Temporal and the real dev server, without a server. */
class ServerComparisonTest {
  @Test
  void bothServersByDefaultWhereACliIsFoundElseInMemoryAndItSaysSo() {
    List<String> said = new ArrayList<>();
    assertEquals(List.of(Kind.IN_MEMORY, Kind.DEV_SERVER), BenchmarkServer.kinds(null, Path.of("temporal"), said::add));
    assertTrue(said.isEmpty());
    assertEquals(List.of(Kind.IN_MEMORY), BenchmarkServer.kinds(null, null, said::add));
    assertTrue(said.get(0).contains("in-memory Temporal only"), said.get(0));
    assertEquals(List.of(Kind.DEV_SERVER), BenchmarkServer.kinds(List.of("dev-server"), Path.of("t"), said::add));
  }

  @Test
  void anUnknownServerOrTheDevServerWithoutACliIsRefusedNamingTheOption() {
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> BenchmarkServer.kinds(List.of("cluster"), Path.of("t"), s -> {}));
    assertTrue(unknown.getMessage().contains("--servers 'cluster'"), unknown.getMessage());
    IllegalArgumentException noCli = assertThrows(IllegalArgumentException.class,
        () -> BenchmarkServer.kinds(List.of("in-memory", "dev-server"), null, s -> {}));
    assertTrue(noCli.getMessage().contains("DURABLE_AGENTS_TEMPORAL_CLI"), noCli.getMessage());
  }

  @Test
  void rowsSideBySideWithTheRatioOfTheDevServerToTheInMemoryOne() {
    ServerComparison c = new ServerComparison();
    c.add("200 agents", Kind.IN_MEMORY, new ServerComparison.Measured(200, 5, 3, 20.2, 3.06, -1));
    c.add("200 agents", Kind.DEV_SERVER, new ServerComparison.Measured(50, 6, 20, 20.2, 3.10, 12345));
    c.add("1,000 agents", Kind.IN_MEMORY, new ServerComparison.Measured(300, 4, 2, 6.9, 0.26, -1));
    List<String> lines = c.lines();
    assertEquals("| 200 agents | 200 | 50 | **0.25** | 5.0 + 3.0 | 6.0 + 20.0 | 20.2 / 20.2 | 3.06 / 3.10 | 12,345 |",
        lines.get(2));
    assertEquals("| 1,000 agents | 300 | - | - | 4.0 + 2.0 | - | 6.9 / - | 0.26 / - | - |", lines.get(3));
    assertEquals("", lines.get(4));
  }

  @Test
  void noTableWithoutARowOnBothServers() {
    ServerComparison c = new ServerComparison();
    c.add("200 agents", Kind.IN_MEMORY, new ServerComparison.Measured(200, 5, 3, 20.2, 3.06, -1));
    assertTrue(c.lines().isEmpty());
  }

  @Test
  void recoveryMediansAndWorstSideBySide() {
    ServerComparison.RecoveryRows rows = new ServerComparison.RecoveryRows();
    rows.add(1, Kind.IN_MEMORY, new ServerComparison.RecoveryOutcome(List.of(3000.0, 4000.0, 2000.0, 9000.0), 0, true));
    rows.add(1, Kind.DEV_SERVER, new ServerComparison.RecoveryOutcome(List.of(6000.0, 5000.0, 7000.0), 0, true));
    assertEquals("| a workflow per agent step | 4 / 3 | 3500 | 6000 | 1.71 | 9000 | 7000 | 0 / 0 | yes / yes |",
        rows.lines().get(4));
  }

  @Test
  void theDatabaseIsTheFileAndItsJournals(@TempDir Path dir) throws Exception {
    Path db = dir.resolve("t.db");
    Files.write(db, new byte[100]);
    Files.write(Path.of(db + "-wal"), new byte[20]);
    Files.write(Path.of(db + "-shm"), new byte[7]); // an index of the WAL in shared memory, not data
    assertEquals(120, BenchmarkServer.databaseBytes(db));
  }

  @Test
  void theYardsticksResultLineIsRead() {
    Matcher m = Yardstick.parse("warm-up\nrun=0 java=17 vt=false nosticky=false agents=200 steps=10 agentSteps=2000 "
        + "wall=12.50s critical=0.00s ratio=Infinity agentsteps/s=160.0\n");
    assertEquals("2000", m.group(1));
    assertEquals("12.50", m.group(2));
    assertEquals("160.0", m.group(3));
    assertNull(Yardstick.parse("Exception in thread main"));
  }

  @Test
  void theNextCompletedActivityAfterARestartIsTheFirstDoneFromThen(@TempDir Path dir) throws Exception {
    Path journal = dir.resolve("journal.log");
    Files.write(journal, List.of(
        "1000\tstart\twf\t1\t1\tLlm\t7\trun",
        "1500\tdone\twf\t1\t1\tLlm\t7\trun", // before the kill: skipped
        "2100\tstart\twf\t2\t1\tLlm\t7\trun",
        "2600\tdone\twf\t2\t1\tLlm\t7\trun",
        "2400\tdone\twf\t3\t1\tLlm\t7\trun")); // lines are written as they end, not in time order
    assertEquals(2400, ServerKillRecovery.firstDoneAfter(journal, 0, 2000));
    assertEquals(-1, ServerKillRecovery.firstDoneAfter(journal, 0, 3000));
  }
}
