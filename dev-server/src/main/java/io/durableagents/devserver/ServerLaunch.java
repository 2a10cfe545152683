package io.durableagents.devserver;

import io.temporal.testing.TemporalDevServer;
import io.temporal.testing.TemporalDevServerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Starts the one Temporal that {@link LocalTemporal#start} chose: the Temporal CLI's dev server (on a free
 * port if none is set, started again when a port was taken before it bound it, its database's directory
 * made, its UI's address left in the data directory while it runs) or the in-memory server, each said in
 * one line.
 */
final class ServerLaunch {
  private ServerLaunch() {}

  /**
   * How many times a dev server is started when it stops at once because a port of its was taken: a port
   * picked free here (or one the Temporal CLI picks for itself) can be bound by another process, another
   * dev server among them, between the pick and the server's bind.
   */
  static final int PORT_TAKEN_ATTEMPTS = 3;

  static LocalTemporal devServer(LocalTemporal.Settings s, Path cli, boolean download, Consumer<String> say) {
    return devServer(s, cli, download, say, false);
  }

  /**
   * The dev server on {@code s}'s ports: a gRPC port of 0 is picked free, and the UI's too where {@code
   * freeUiPort}. When it stops at once because a port was taken ("address already in use"), it is started
   * again, on ports picked anew where they were picked free, up to {@link #PORT_TAKEN_ATTEMPTS} times.
   */
  static LocalTemporal devServer(LocalTemporal.Settings s, Path cli, boolean download, Consumer<String> say,
      boolean freeUiPort) {
    for (int attempt = 1; ; attempt++) {
      LocalTemporal.Settings tried = s;
      if (s.port() == 0) {
        // a free port now, so that the UI's (port + 1000) is known before the server starts
        tried = tried.withAddress(s.host(), freePort(s.host()));
      }
      if (freeUiPort) {
        tried = tried.withUiPort(freePort(s.host()));
      }
      try {
        return devServerOnce(tried, cli, download, say);
      } catch (IllegalStateException e) {
        if (attempt >= PORT_TAKEN_ATTEMPTS || !portTaken(e)) {
          throw e;
        }
      }
    }
  }

  /** Whether the server stopped because a port it was to listen on was taken (the Temporal CLI's words). */
  static boolean portTaken(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).contains("address already in use")) {
        return true;
      }
    }
    return false;
  }

  private static int freePort(String host) {
    try (java.net.ServerSocket free = new java.net.ServerSocket(0, 0, java.net.InetAddress.getByName(host))) {
      return free.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port on " + host + ": " + e.getMessage(), e);
    }
  }

  private static LocalTemporal devServerOnce(LocalTemporal.Settings s, Path cli, boolean download,
      Consumer<String> say) {
    DatabaseNotWritable.prepare(s.database());
    // the server's own output (its warnings as it recovers a database, its shutdown) goes to a file, not
    // to the terminal of whoever started it
    Path log = CliServerProcess.logFile(s.database());
    CliServerProcess.keepPrevious(log);
    TemporalDevServerOptions.Builder options = TemporalDevServerOptions.newBuilder()
        .setLogFile(log.toString())
        .setIp(s.host())
        .setPort(s.port())
        .setDatabaseFilename(s.database().toAbsolutePath().toString())
        .setUiPort(s.effectiveUiPort())
        .setStartupTimeout(Duration.ofSeconds(60))
        .setExtraArgs(DevServerArgs.extraArgs(s));
    if (cli != null) {
      options.setExistingPath(CliServerProcess.inOwnSession(cli, s.dataDir()).toAbsolutePath().toString());
    } else {
      options.setDownloadEnabled(download).setDownloadDestination(s.cliCache().toString());
    }
    TemporalDevServer server = TemporalDevServer.start(options.build());
    java.util.Optional<ProcessHandle> process = CliServerProcess.find(s.port());
    String ui = "http://" + ("0.0.0.0".equals(s.host()) ? "localhost" : displayHost(s.host())) + ":"
        + s.effectiveUiPort();
    Path marker = marker(s.dataDir(), server.getTarget());
    try {
      Files.createDirectories(marker.getParent());
      Files.writeString(marker, ui + "\n");
    } catch (IOException e) {
      // only links use it: they fall back to the default UI address
    }
    say.accept("Temporal dev server (" + (cli == null ? "downloaded Temporal CLI" : cli.toString())
        + ") listening on " + server.getTarget() + "; runs kept in " + s.database() + "; UI at " + ui
        + (s.uiCodecEndpoint() == null ? "" : ", decoding payloads through " + s.uiCodecEndpoint())
        + "; its log in " + log);
    return new LocalTemporal(LocalTemporal.Kind.DEV_SERVER, server.getTarget(), ui, s.database(), () -> {
      try {
        // SIGTERM and a wait for the server to close its database; the SDK's close below would kill it after 10 s
        process.ifPresent(CliServerProcess::stop);
        server.close();
      } finally {
        Files.deleteIfExists(marker);
      }
    });
  }

  static LocalTemporal inMemory(LocalTemporal.Settings s, Consumer<String> say, String why) {
    if (why != null) {
      say.accept("No persistent Temporal here: " + why + ". Falling back to the in-memory Temporal: no UI, "
          + "and every run is lost when it stops. For runs kept across restarts with a UI, install the "
          + "Temporal CLI (https://docs.temporal.io/cli) or set " + LocalTemporal.CLI_VARIABLE + ".");
    }
    DevServer server = DevServer.start(s.host(), s.port());
    say.accept("Embedded Temporal listening on " + s.host() + ":" + server.port()
        + " (in memory: a restart forgets every run; no UI).");
    return new LocalTemporal(LocalTemporal.Kind.IN_MEMORY, s.host() + ":" + server.port(), null, null, server);
  }

  /**
   * The file a dev server started here leaves in the data directory while it runs, with its UI's address
   * (read by {@link LocalTemporal#uiUrlOf}).
   */
  static Path marker(Path dataDir, String target) {
    target = target.startsWith("localhost:") ? "127.0.0.1" + target.substring("localhost".length()) : target;
    return dataDir.resolve("run").resolve("ui-" + target.replaceAll("[^A-Za-z0-9.-]", "_"));
  }

  private static String displayHost(String host) {
    return host.indexOf(':') >= 0 ? "[" + host + "]" : host;
  }
}
