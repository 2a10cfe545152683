package io.durableagents.devserver;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a first run can have a Temporal CLI it was not given: on the {@code PATH}, in the cache an
 * earlier download filled, or from Temporal's download site, if that answers within seconds.
 */
final class CliSources {
  private CliSources() {}

  /** How long the download host has to answer before a first run falls back to memory. */
  static final int DOWNLOAD_PROBE_MILLIS = 2_000;

  /** The {@code temporal} executable in one of the {@code path} directories, or null. */
  static Path onPath(List<Path> path) {
    String name = System.getProperty("os.name", "").toLowerCase().contains("win") ? "temporal.exe" : "temporal";
    for (Path dir : path) {
      Path candidate = dir.resolve(name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  /** A CLI an earlier run downloaded into the cache, or null. */
  static Path cached(LocalTemporal.Settings s) {
    if (!Files.isDirectory(s.cliCache())) {
      return null;
    }
    try (var files = Files.walk(s.cliCache(), 4)) {
      return files.filter(p -> p.getFileName().toString().matches("temporal(\\.exe)?"))
          .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p))
          .findFirst().orElse(null);
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Null when the CLI's download host answers within {@link #DOWNLOAD_PROBE_MILLIS}, else why not:
   * offline, a first run falls back within seconds instead of waiting out the download's own
   * 15 s connect timeout.
   */
  static String downloadUnreachable() {
    URI base = CliDownload.base();
    int port = base.getPort() > 0 ? base.getPort() : "http".equals(base.getScheme()) ? 80 : 443;
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(base.getHost(), port), DOWNLOAD_PROBE_MILLIS);
      return null;
    } catch (IOException e) {
      return "its download site " + base.getHost() + " cannot be reached (" + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")";
    }
  }
}
