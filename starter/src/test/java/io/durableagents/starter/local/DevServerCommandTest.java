package io.durableagents.starter.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.devserver.LocalTemporal;
import io.durableagents.starter.CliFailuresTest;
import io.durableagents.starter.CliFailuresTest.Run;
import io.durableagents.starter.Failures;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dev-server}'s failures before a server starts: each says what is wrong and with what. */
class DevServerCommandTest {
  @TempDir
  Path dir;

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** An executable that is no Temporal CLI: nothing may get as far as running it. */
  private Path notRun() throws Exception {
    Path cli = dir.resolve("bin/temporal");
    Files.createDirectories(cli.getParent());
    Files.writeString(cli, "#!/bin/sh\nexit 7\n");
    Files.setPosixFilePermissions(cli, PosixFilePermissions.fromString("rwxr-xr-x"));
    return cli;
  }

  @Test
  void aDatabaseFileInADirectoryThatCannotBeCreatedIsNamedWithWhatToDo() throws Exception {
    Map<String, String> env = Map.of(LocalTemporal.DATA_DIR_VARIABLE, dir.resolve("data").toString(),
        LocalTemporal.CLI_VARIABLE, notRun().toString(), "TEMPORAL_ADDRESS", "");
    Run r = CliFailuresTest.run(env, "dev-server", "--port", Integer.toString(freePort()),
        "--db-file", "/proc/durable-agents/runs.db");
    assertEquals(Failures.LOCAL, r.exitCode(), r.out() + r.err());
    List<String> err = r.errLines();
    assertEquals(2, err.size(), r.err());
    assertTrue(err.get(0).startsWith("dev-server: cannot create the directory /proc/durable-agents of the "
        + "database file /proc/durable-agents/runs.db ("), err.get(0));
    assertEquals("  Give --db-file a file in a directory you can write to, or run with --in-memory.", err.get(1));
    CliFailuresTest.assertNoTrace(r);
  }

  @Test
  void demoSaysWhyTheTemporalItStartedDidNotStart() throws Exception {
    Map<String, String> env = Map.of(LocalTemporal.DATA_DIR_VARIABLE, "/proc/durable-agents",
        LocalTemporal.CLI_VARIABLE, notRun().toString(), "TEMPORAL_ADDRESS", "", "DURABLE_AGENTS_MODEL", "rules");
    int port = freePort();
    Run r = CliFailuresTest.run(env, "demo", "--port", Integer.toString(port), "--steps", "1");
    assertEquals(Failures.FAILED, r.exitCode(), r.out() + r.err());
    List<String> err = r.errLines();
    assertTrue(err.get(0).startsWith("demo: the local Temporal did not start: cannot create the directory "
        + "/proc/durable-agents of the database file /proc/durable-agents/temporal-" + port + ".db ("), r.err());
    assertEquals("  See " + Path.of("runs", "demo", "dev-server.log") + ".", err.get(1));
  }

  @Test
  void aDefaultDatabaseUnderAnUnwritableDataDirectoryNamesTheVariables() throws Exception {
    Map<String, String> env = Map.of(LocalTemporal.DATA_DIR_VARIABLE, "/proc/durable-agents",
        LocalTemporal.CLI_VARIABLE, notRun().toString(), "TEMPORAL_ADDRESS", "");
    Run r = CliFailuresTest.run(env, "dev-server", "--port", Integer.toString(freePort()));
    assertEquals(Failures.LOCAL, r.exitCode(), r.out() + r.err());
    List<String> err = r.errLines();
    assertTrue(err.get(0).startsWith("dev-server: cannot create the directory /proc/durable-agents of the "
        + "database file /proc/durable-agents/temporal-"), err.get(0));
    assertEquals("  Set DURABLE_AGENTS_DATA_DIR (or DURABLE_AGENTS_TEMPORAL_DB, or --db-file) to a place you can "
        + "write to, or run with --in-memory.", err.get(1));
  }
}
