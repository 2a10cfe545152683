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
