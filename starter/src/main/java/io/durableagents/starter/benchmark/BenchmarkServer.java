package io.durableagents.starter.benchmark;

import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.starter.local.ClassDataArchive;
import io.durableagents.starter.local.LocalStack;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Temporal the benchmark measures on, in a process of its own, started as a user starts it: {@code
 * durable-agents dev-server --in-memory} (the embedded in-memory Temporal, Temporal's Java test server
 * with our patches), or {@code durable-agents dev-server --temporal-cli CLI --db-file F} (the Temporal
 * CLI's real dev server, its runs in a SQLite file). The dev server can be killed with kill -9 (the CLI's
 * process and its parent JVM) and started again on the same file and port.
 *
 * <pre>{@code
 * BenchmarkServer s = BenchmarkServer.start(Kind.DEV_SERVER, "2g", logs, cli);
 * long before = s.databaseBytes();
 * ... run a simulation on 127.0.0.1:s.port() ...
 * long grown = s.databaseBytes() - before;
 * }</pre>
 */
final class BenchmarkServer {
  /** Which Temporal. */
  enum Kind {
    IN_MEMORY("in-memory"),
    DEV_SERVER("dev-server");

    final String label;

    Kind(String label) {
      this.label = label;
    }

    static Kind parse(String text) {
      for (Kind k : values()) {
        if (k.label.equals(text.trim().toLowerCase(Locale.ROOT))) {
          return k;
        }
      }
      throw new IllegalArgumentException("--servers '" + text + "' is not one of: in-memory, dev-server");
    }
  }

  /**
   * The servers to measure on: those asked for ({@code requested}, null when {@code --servers} was not
   * given), else both where a Temporal CLI was found ({@code cli}), else the in-memory one. {@code
   * note} receives why the dev server is left out when it is.
   *
   * @throws IllegalArgumentException on an unknown name, or the dev server asked for without a CLI
   */
  static List<Kind> kinds(List<String> requested, Path cli, java.util.function.Consumer<String> note) {
    if (requested == null || requested.isEmpty()) {
      if (cli == null) {
        note.accept("No Temporal CLI found (DURABLE_AGENTS_TEMPORAL_CLI, the PATH, .ci/temporal/bin/temporal): "
            + "measuring on the in-memory Temporal only.");
        return List.of(Kind.IN_MEMORY);
      }
      return List.of(Kind.IN_MEMORY, Kind.DEV_SERVER);
    }
    List<Kind> kinds = new ArrayList<>();
    for (String r : requested) {
      Kind k = Kind.parse(r);
      if (k == Kind.DEV_SERVER && cli == null) {
        throw new IllegalArgumentException("--servers dev-server needs a Temporal CLI: set "
            + "DURABLE_AGENTS_TEMPORAL_CLI or put temporal on the PATH");
      }
      if (!kinds.contains(k)) {
        kinds.add(k);
      }
    }
    return List.copyOf(kinds);
  }

  final Kind kind;
  final int port;
  private final String heap;
  private final Path cli;
  private final Path database;
  private final Path log;
  private final Map<String, String> env;
  private Process process;
  private ClassDataArchive archive = ClassDataArchive.none();

  private BenchmarkServer(Kind kind, int port, String heap, Path cli, Path database, Path log,
      Map<String, String> env) {
    this.env = Map.copyOf(env);
    this.kind = kind;
    this.port = port;
    this.heap = heap;
    this.cli = cli;
    this.database = database;
    this.log = log;
  }

  /**
   * Starts a fresh server of {@code kind} on a free port: for the dev server a new SQLite file under
   * {@code logs}, with the dev-server JVM's heap small (the CLI keeps the runs), the UI on another free port.
   */
  static BenchmarkServer start(Kind kind, String heap, Path logs, Path cli) throws Exception {
    return start(kind, heap, logs, cli, Map.of());
  }

  /**
   * As {@link #start(Kind, String, Path, Path)}, with {@code env} added to the environment of the {@code
   * dev-server} JVM (e.g. {@code DURABLE_AGENTS_CHILD_JVM_OPTIONS}: a JFR recording of the in-memory server).
   */
  static BenchmarkServer start(Kind kind, String heap, Path logs, Path cli, Map<String, String> env) throws Exception {
    int port = freePort();
    Path database = null;
    if (kind == Kind.DEV_SERVER) {
      // temporal-<port>.db: the dev-server command writes the CLI's log beside it, temporal-<port>.log,
      // truncating it at each start; named after the JVM's log, dev-server-<port>.log, the two wrote one
      // file and the command's "listening" line was sometimes lost ("the Temporal dev server did not start")
      database = logs.resolve("temporal-" + port + ".db").toAbsolutePath();
      for (Path f : databaseFiles(database)) {
        Files.deleteIfExists(f);
      }
      Files.deleteIfExists(Path.of(database + "-shm"));
    }
    BenchmarkServer s = new BenchmarkServer(kind, port, heap, cli, database,
        logs.resolve(kind.label + "-" + port + ".log"), env);
    s.launch();
    return s;
  }

  /** The SQLite file and the journals beside it whose sizes together are what the runs take on disk. */
  static List<Path> databaseFiles(Path database) {
    return List.of(database, Path.of(database + "-wal"), Path.of(database + "-journal"));
  }

  private void launch() throws Exception {
    long from = Files.exists(log) ? Files.size(log) : 0;
    if (kind == Kind.IN_MEMORY) {
      // with the dev-server command's class-data sharing archive, as demo starts it (ClassDataArchive)
      String java = ChildProcesses.javaBinary();
      int feature = Runtime.version().feature();
      archive = ClassDataArchive.forChildOfThisJar(env, java, feature, "dev-server");
      process = ChildProcesses.start(java, feature, heap, log.toFile(), env, archive.jvmOptions(), "dev-server",
          "--in-memory", "--port", Integer.toString(port));
      if (!ChildProcesses.awaitListening("127.0.0.1", port, process, 60_000)) {
        archive = ClassDataArchive.none();
        throw new IllegalStateException("the embedded Temporal did not start; see " + log);
      }
      return;
    }
    process = ChildProcesses.start("256m", log.toFile(), env, "dev-server", "--port", Integer.toString(port),
        "--ui-port", Integer.toString(freePort()), "--db-file", database.toString(), "--temporal-cli",
        cli.toString());
    List<String> said = LocalStack.awaitAnnouncement(log, from, process, 120_000);
    if (said == null || !said.get(said.size() - 1).startsWith("Temporal dev server")) {
      throw new IllegalStateException("the Temporal dev server did not start; see " + log);
    }
  }

  /** The process that serves: the Temporal CLI's for the dev server, the JVM's for the in-memory one. */
  long pid() {
    return process.pid();
  }

  /** The log of the {@code dev-server} command. */
  File log() {
    return log.toFile();
  }

  /** The SQLite file, or null in memory. */
  Path database() {
    return database;
  }

  /**
   * CPU time (user + system, ms) of the server's process and every process it started (the dev
   * server's work is in the Temporal CLI, a child of the {@code dev-server} JVM).
   */
  double cpuMillis() {
    double total = MachineReadings.cpuMillis(process.pid());
    for (ProcessHandle child : process.descendants().toList()) {
      double c = MachineReadings.cpuMillis(child.pid());
      if (c > 0) {
        total += c;
      }
    }
    return total;
  }

  /** Bytes of the SQLite file and its journals now; 0 in memory. */
  long databaseBytes() {
    return database == null ? 0 : databaseBytes(database);
  }

  static long databaseBytes(Path database) {
    long total = 0;
    for (Path f : databaseFiles(database)) {
      try {
        total += Files.exists(f) ? Files.size(f) : 0;
      } catch (IOException e) {
        // a journal removed meanwhile: it holds nothing
      }
    }
    return total;
  }

  /** kill -9: the Temporal CLI's process first, then the {@code dev-server} JVM. */
  void kill() throws InterruptedException {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly().waitFor();
    archive.discard(process);
    archive = ClassDataArchive.none();
    // the CLI's process must be gone before its port and file are taken again
    for (int i = 0; i < 100 && process.descendants().anyMatch(ProcessHandle::isAlive); i++) {
      Thread.sleep(50);
    }
  }

  /** After {@link #kill}: the same server again, on the same port and (for the dev server) the same file. */
  void restart() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (ChildProcesses.listening("127.0.0.1", port) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    launch();
  }

  /**
   * Stops the server gracefully (the dev server closes its database; an in-memory server's first run writes
   * its class-data archive), or kills it after 30 s (90 s while it writes the archive).
   */
  void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(archive.makes() ? 90 : 30, TimeUnit.SECONDS)) {
      kill();
    }
    archive.settle(process);
    archive = ClassDataArchive.none();
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
