package io.durableagents.starter.local;

import io.durableagents.devserver.DatabaseNotWritable;
import io.durableagents.devserver.LocalTemporal;
import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import io.durableagents.starter.StartChecks;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs a Temporal on this machine until stopped: Temporal's dev server (the Temporal CLI), keeping runs
 * in a database file and serving the UI, wherever a Temporal CLI can be had; otherwise the in-memory
 * Java test server, said so in one line.
 */
@Command(name = "dev-server",
    description = {"Run a Temporal on this machine: Temporal's dev server, its runs kept in a database file "
        + "across restarts and its UI on --ui-port; or, with --in-memory or without a Temporal CLI, the in-memory "
        + "Java test server.",
        "The dev server is the Temporal CLI's 'server start-dev', when a Temporal CLI is given (--temporal-cli, "
            + "DURABLE_AGENTS_TEMPORAL_CLI), on the PATH, cached or can be downloaded. The in-memory server has no "
            + "UI, and every run is lost when it stops: long runs belong on a persistent Temporal."})
public final class DevServerCommand implements Callable<Integer> {
  /** The port of the Temporal that {@code demo}, {@code simulate} and the others use by default. */
  static final int DEFAULT_PORT = 7233;

  @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--port", defaultValue = "7233", description = "Port to listen on (default: ${DEFAULT-VALUE}; "
      + "another port keeps its runs in a database file of its own, and the other commands find it with "
      + "--port PORT, or TEMPORAL_ADDRESS=127.0.0.1:PORT).")
  int port;

  @Option(names = "--ui-port", description = "The UI's port (default: 8233).")
  Integer uiPort;

  @Option(names = "--db-file", paramLabel = "FILE",
      description = "The database file runs are kept in (default: $DURABLE_AGENTS_TEMPORAL_DB, else temporal.db "
          + "in $DURABLE_AGENTS_DATA_DIR, else in ~/.local/share/durable-agents; on a --port other than 7233, "
          + "temporal-PORT.db there).")
  Path database;

  @Option(names = "--temporal-cli", paramLabel = "PATH",
      description = "The Temporal CLI to run (default: $DURABLE_AGENTS_TEMPORAL_CLI, else 'temporal' on the PATH, "
          + "else a cached or downloaded one).")
  Path cli;

  @Option(names = "--ui-codec-endpoint", paramLabel = "URL",
      description = "A codec server (e.g. 'codec-server' on http://127.0.0.1:8888) the UI decodes payloads through, "
          + "as the viewer's browser reaches it: encrypted payloads (DURABLE_AGENTS_ENCRYPTION_KEYS) become readable "
          + "there. Dev server only.")
  String uiCodecEndpoint;

  @Option(names = "--dynamic-config-value", paramLabel = "KEY=VALUE",
      description = "A dynamic configuration value of the dev server, as the Temporal CLI takes it (repeatable), "
          + "e.g. limit.historyCount.suggestContinueAsNew=1000. Dev server only.")
  List<String> dynamicConfig = new ArrayList<>();

  @Option(names = "--sqlite-pragma", paramLabel = "NAME=VALUE",
      description = "A SQLite pragma of the database (repeatable), over the defaults journal_mode=wal and "
          + "synchronous=normal; synchronous=off for throwaway runs (a power loss can then corrupt the file). "
          + "Dev server only.")
  List<String> sqlitePragmas = new ArrayList<>();

  @Option(names = "--in-memory", description = "Run the in-memory Java test server (no UI; runs are lost when it stops).")
  boolean inMemory;

  @Override
  public Integer call() throws InterruptedException {
    LocalTemporal.Settings settings = settings();
    StartChecks.port("--port", host, port);
    LocalTemporal temporal;
    try {
      temporal = LocalTemporal.start(settings, line -> {
        System.out.println(line);
        System.out.flush();
      });
    } catch (DatabaseNotWritable e) {
      throw new CommandFailure(Failures.LOCAL, e.getMessage(), databaseHint());
    } catch (IllegalStateException e) {
      throw new CommandFailure(Failures.LOCAL, e.getMessage(),
          "Check the Temporal CLI, or run with --in-memory.");
    }
    CountDownLatch stopped = new CountDownLatch(1);
    java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      stopping.set(true);
      temporal.close();
      stopped.countDown();
    }));
    // the dev server is a process of its own: if it goes, say so and stop (unless this process stops it)
    while (!stopped.await(2, TimeUnit.SECONDS)) {
      if (!listening(host, port) && !stopping.get()) {
        System.out.println("The Temporal on " + temporal.target() + " stopped listening; exiting.");
        return Failures.FAILED;
      }
    }
    return 0;
  }

  /** The settings from the environment, then the flags. */
  LocalTemporal.Settings settings() {
    LocalTemporal.Settings settings;
    try {
      settings = LocalTemporal.Settings.fromEnvironment(Environment.variables());
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage(e.getMessage(), "See docs/embedded-temporal.md.");
    }
    settings = settings.withAddress(host, port).withInMemory(inMemory || settings.inMemory());
    String dbVariable = Environment.get(LocalTemporal.DB_VARIABLE);
    if (port != DEFAULT_PORT && port != 0 && (dbVariable == null || dbVariable.isBlank())) {
      // two dev servers on one SQLite file lock each other out (SQLITE_BUSY): a port of its own, a file of its own
      settings = settings.withDatabase(settings.dataDir().resolve("temporal-" + port + ".db"));
    }
    if (uiPort != null) {
      StartChecks.port("--ui-port", host, uiPort);
      settings = settings.withUiPort(uiPort);
    }
    if (database != null) {
      // its directory and file are checked where the server starts (DatabaseNotWritable), naming the setting
      settings = settings.withDatabase(database);
    }
    if (cli != null) {
      settings = settings.withCli(cli, "--temporal-cli");
    }
    if (uiCodecEndpoint != null) {
      if (settings.inMemory()) {
        throw CommandFailure.usage("--ui-codec-endpoint needs the dev server's UI; the in-memory Temporal has none",
            "Leave out --in-memory (and " + LocalTemporal.SERVER_VARIABLE + "=in-memory), or --ui-codec-endpoint.");
      }
      try {
        settings = settings.withUiCodecEndpoint(uiCodecEndpoint);
      } catch (IllegalArgumentException e) {
        throw CommandFailure.usage(e.getMessage(), "Give the address 'codec-server' prints.");
      }
    }
    if (!dynamicConfig.isEmpty()) {
      if (settings.inMemory()) {
        throw CommandFailure.usage("--dynamic-config-value configures the dev server; the in-memory Temporal has none",
            "Leave out --in-memory (and " + LocalTemporal.SERVER_VARIABLE + "=in-memory), or --dynamic-config-value.");
      }
      try {
        settings = settings.withDynamicConfig(dynamicConfig);
      } catch (IllegalArgumentException e) {
        throw CommandFailure.usage(e.getMessage(), "See 'temporal server start-dev --help'.");
      }
    }
    if (!sqlitePragmas.isEmpty()) {
      if (settings.inMemory()) {
        throw CommandFailure.usage("--sqlite-pragma configures the dev server's database; the in-memory Temporal has none",
            "Leave out --in-memory (and " + LocalTemporal.SERVER_VARIABLE + "=in-memory), or --sqlite-pragma.");
      }
      try {
        settings = settings.withSqlitePragmas(sqlitePragmas);
      } catch (IllegalArgumentException e) {
        throw CommandFailure.usage(e.getMessage(), "See 'temporal server start-dev --help'.");
      }
    }
    return settings;
  }

  /** What to do about a database file that cannot be had, naming the setting that chose it. */
  private String databaseHint() {
    if (database != null) {
      return "Give --db-file a file in a directory you can write to, or run with --in-memory.";
    }
    String variable = Environment.get(LocalTemporal.DB_VARIABLE);
    if (variable != null && !variable.isBlank()) {
      return "Set " + LocalTemporal.DB_VARIABLE + " (or --db-file) to a file in a directory you can write to, "
          + "or run with --in-memory.";
    }
    return "Set " + LocalTemporal.DATA_DIR_VARIABLE + " (or " + LocalTemporal.DB_VARIABLE + ", or --db-file) to a "
        + "place you can write to, or run with --in-memory.";
  }

  private static boolean listening(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("0.0.0.0".equals(host) ? "127.0.0.1" : host, port), 1000);
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
