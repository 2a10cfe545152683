package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.durableagents.devserver.TemporalCli;
import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.starter.local.LocalStack;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Temporal's real dev server (the Temporal CLI's {@code server start-dev}, with a SQLite file and the
 * UI) for the end-to-end tests, started as a user starts it: {@code durable-agents dev-server --port N
 * --db-file F --temporal-cli CLI} in a process of its own, its database synced to the operating system
 * only ({@code --sqlite-pragma synchronous=off}: a test's runs need not survive a power loss, and a
 * {@code kill -9} of the server loses nothing either way). A test that needs it is skipped, saying why,
 * on a machine without the CLI, and fails under CI ({@link TemporalCli#forTests()}).
 */
public final class RealDevServer {
  private RealDevServer() {}

  /** The Temporal CLI; skips the calling test where there is none (fails it under CI). */
  static Path cli() {
    Path cli = TemporalCli.forTests();
    assumeTrue(cli != null, TemporalCli.MISSING);
    return cli;
  }

  /** A free port on loopback. */
  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /**
   * Starts the dev server on {@code port} with its runs in {@code db} and its UI on {@code uiPort}, its
   * output appended to {@code log}, and returns once it says it listens.
   */
  static Process start(Path cli, Path db, int port, int uiPort, Path log, String... extraArgs) throws Exception {
    long from = Files.exists(log) ? Files.size(log) : 0;
    List<String> args = new java.util.ArrayList<>(List.of("dev-server", "--port",
        Integer.toString(port), "--ui-port", Integer.toString(uiPort), "--db-file", db.toString(),
        "--temporal-cli", cli.toString(), "--sqlite-pragma", "synchronous=off"));
    args.addAll(List.of(extraArgs));
    Process p = ChildProcesses.start("256m", log.toFile(), Map.of(), args.toArray(String[]::new));
    List<String> said = LocalStack.awaitAnnouncement(log, from, p, 120_000);
    assertTrue(said != null && said.get(said.size() - 1).startsWith("Temporal dev server"),
        "the dev server did not start: " + Files.readString(log));
    return p;
  }

  /** Starts a fresh dev server (a new database in {@code dir}) on {@code port}, the UI on a free port. */
  public static Process startFresh(Path dir, int port, String... extraArgs) throws Exception {
    Path db = dir.resolve("temporal.db");
    Files.createDirectories(dir);
    Files.deleteIfExists(db);
    Files.deleteIfExists(dir.resolve("temporal.db-wal"));
    Files.deleteIfExists(dir.resolve("temporal.db-shm"));
    return start(cli(), db, port, freePort(), dir.resolve("dev-server.log"), extraArgs);
  }

  /** kill -9 of the dev server: the Temporal CLI's process first, then the {@code dev-server} JVM. */
  static void kill(Process server) throws InterruptedException {
    server.descendants().forEach(ProcessHandle::destroyForcibly);
    server.destroyForcibly().waitFor();
  }

  /** Stops it gracefully (the CLI closes its database). */
  public static void stop(Process server) throws InterruptedException {
    if (server == null) {
      return;
    }
    server.destroy();
    if (!server.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
      kill(server);
    }
  }
}
