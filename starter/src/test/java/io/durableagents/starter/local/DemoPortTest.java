package io.durableagents.starter.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.devserver.LocalTemporal;
import io.durableagents.starter.CliFailuresTest.Run;
import io.durableagents.starter.CliFailuresTest;
import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code demo --port} and {@code dev-server --port} without a Temporal: bad ports are usage errors, and
 * {@code dev-server --port} keeps the runs of another port in a database file of its own (two dev servers
 * on one SQLite file lock each other out). A demo on such a port: {@code DemoViewTest} (none listens there:
 * one is started) and {@code CliAgainstServerTest}'s Ctrl-C of a demo (one listens: it is used, and left running).
 */
class DemoPortTest {
  @TempDir
  static Path dir;

  private static Map<String, String> env() {
    // the in-memory Temporal: no Temporal CLI needed, nothing kept
    return Map.of(LocalTemporal.SERVER_VARIABLE, "in-memory", LocalTemporal.DATA_DIR_VARIABLE, dir.toString(),
        "TEMPORAL_ADDRESS", "", "DURABLE_AGENTS_MODEL", "rules");
  }

  // demo --port where nothing listens (it starts a Temporal there, and the run starts once its own worker
  // polls): DemoViewTest's demo, which is the same command with --view, says so; a demo of its own here
  // cost a server's and a worker's start.

  // demo --port where a Temporal listens (it is used, and left running): CliAgainstServerTest's
  // ctrlCInDemoOnARunningTemporal..., on the JVM's shared dev server, whose demo's worker it is.

  @Test
  void badPortsAreUsageErrors() {
    Run zero = CliFailuresTest.run(env(), "demo", "--port", "0");
    assertEquals(Failures.USAGE, zero.exitCode());
    assertEquals(List.of("demo: --port 0 is not a port", "  Give 1 to 65535."), zero.errLines());
    Run high = CliFailuresTest.run(env(), "demo", "--port", "65000");
    assertEquals(Failures.USAGE, high.exitCode(), high.err());
    assertEquals("demo: --port 65000 leaves no port for the UI (--port + 1000 is past 65535)", high.errLines().get(0));
  }

  @Test
  void aDevServerOnAnotherPortKeepsItsRunsInAFileOfItsOwn() throws Exception {
    Map<String, String> env = Map.of(LocalTemporal.DATA_DIR_VARIABLE, dir.toString(), LocalTemporal.DB_VARIABLE, "");
    Environment.with(env, () -> {
      assertEquals(dir.resolve("temporal.db"), settings().database());
      assertEquals(dir.resolve("temporal-7300.db"), settings("--port", "7300").database());
      assertEquals(dir.resolve("mine.db"), settings("--port", "7300", "--db-file", dir.resolve("mine.db").toString())
          .database());
      return null;
    });
    Environment.with(Map.of(LocalTemporal.DATA_DIR_VARIABLE, dir.toString(), LocalTemporal.DB_VARIABLE,
        dir.resolve("set.db").toString()), () -> {
          assertEquals(dir.resolve("set.db"), settings("--port", "7300").database(),
              LocalTemporal.DB_VARIABLE + " names the file on any port");
          return null;
        });
  }

  private static LocalTemporal.Settings settings(String... args) {
    DevServerCommand command = new DevServerCommand();
    new CommandLine(command).parseArgs(args);
    return command.settings();
  }
}
