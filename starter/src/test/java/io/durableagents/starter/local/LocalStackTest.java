package io.durableagents.starter.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local stack reads only what the server it started wrote to the (appended) log. */
class LocalStackTest {
  @TempDir
  Path dir;

  @Test
  void aBadModelSettingOfTheWorkerIsTheCommandsUsageErrorBeforeAnythingStarts() {
    io.durableagents.starter.CommandFailure f = org.junit.jupiter.api.Assertions.assertThrows(
        io.durableagents.starter.CommandFailure.class, () -> LocalStack.checkModelSettings(
            java.util.Map.of("DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS", "rewoo-plann=5")));
    assertEquals(io.durableagents.starter.Failures.USAGE, f.exitCode());
    org.junit.jupiter.api.Assertions.assertTrue(f.getMessage().startsWith(
        "DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS='rewoo-plann=5' is not allowed"), f.getMessage());
    LocalStack.checkModelSettings(java.util.Map.of("DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS", "512,rewoo-plan=768"));
  }

  @Test
  void theServersLinesArePrintedAsTheyComeNotWhenItListens() throws Exception {
    Path log = dir.resolve("dev-server.log");
    Files.writeString(log, "");
    java.util.concurrent.BlockingQueue<String> printed = new java.util.concurrent.LinkedBlockingQueue<>();
    Process alive = new ProcessBuilder("sleep", "60").start();
    java.util.concurrent.ExecutorService waiting = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      java.util.concurrent.Future<List<String>> said = waiting.submit(
          () -> LocalStack.awaitAnnouncement(log, 0, alive, 30_000, printed::add));
      Files.writeString(log, "Downloading the Temporal CLI once into /data/temporal-cli, from temporal.download ...\n"
          + "Downloading the Temporal CLI: 4.8 of 48.0 MB (10%)\nDownloading the Temporal CLI: 9", StandardOpenOption.APPEND);
      // the download goes on (the server does not listen yet): what it said so far is printed now
      assertEquals("Downloading the Temporal CLI once into /data/temporal-cli, from temporal.download ...",
          printed.poll(10, java.util.concurrent.TimeUnit.SECONDS));
      assertEquals("Downloading the Temporal CLI: 4.8 of 48.0 MB (10%)", printed.poll(10, java.util.concurrent.TimeUnit.SECONDS));
      assertNull(printed.poll(300, java.util.concurrent.TimeUnit.MILLISECONDS), "a half-written line waits");
      Files.writeString(log, ".6 of 48.0 MB (20%)\nTemporal CLI 1.9.1 (Server 1.32.0)\n"
          + "Temporal dev server (/data/temporal) listening on 127.0.0.1:7233; runs kept in /data/temporal.db\n",
          StandardOpenOption.APPEND);
      assertEquals(List.of("Downloading the Temporal CLI once into /data/temporal-cli, from temporal.download ...",
          "Downloading the Temporal CLI: 4.8 of 48.0 MB (10%)", "Downloading the Temporal CLI: 9.6 of 48.0 MB (20%)",
          "Temporal dev server (/data/temporal) listening on 127.0.0.1:7233; runs kept in /data/temporal.db"),
          said.get(10, java.util.concurrent.TimeUnit.SECONDS));
      assertEquals(List.of("Downloading the Temporal CLI: 9.6 of 48.0 MB (20%)",
          "Temporal dev server (/data/temporal) listening on 127.0.0.1:7233; runs kept in /data/temporal.db"),
          List.copyOf(printed), "each line printed once");
    } finally {
      waiting.shutdownNow();
      alive.destroyForcibly();
    }
  }

  @Test
  void anEarlierRunsAnnouncementInTheLogIsNotTakenForTheNewServers() throws Exception {
    Path log = dir.resolve("dev-server.log");
    Files.writeString(log, "Embedded Temporal listening on 127.0.0.1:7233 (in memory: an earlier demo).\n");
    long earlier = Files.size(log);
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    // the new server died before it said anything: no announcement, not the earlier one
    assertNull(LocalStack.awaitAnnouncement(log, earlier, gone, 5_000));
    Files.writeString(log, "Embedded Temporal listening on 127.0.0.1:7233 (in memory: this one).\n",
        StandardOpenOption.APPEND);
    Process alive = new ProcessBuilder("sleep", "30").start();
    try {
      assertEquals(List.of("Embedded Temporal listening on 127.0.0.1:7233 (in memory: this one)."),
          LocalStack.awaitAnnouncement(log, earlier, alive, 5_000));
    } finally {
      alive.destroyForcibly();
    }
  }
}
