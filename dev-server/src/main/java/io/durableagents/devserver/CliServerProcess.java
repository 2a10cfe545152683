package io.durableagents.devserver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The Temporal CLI's server process once it runs: its log file (the server's own output, which would
 * otherwise go to the terminal) and a clean stop, SIGTERM and a wait for it to close its database, longer
 * than the SDK's 10 s before a SIGKILL.
 */
final class CliServerProcess {
  /** How long the server has to stop after SIGTERM before it is killed. */
  static final long STOP_GRACE_SECONDS = 30;

  private CliServerProcess() {}

  /**
   * The file the server's output goes to: beside its database ({@code temporal.db}: {@code temporal.log}),
   * a directory {@link DatabaseNotWritable#prepare} has checked.
   */
  static Path logFile(Path database) {
    Path absolute = database.toAbsolutePath();
    String name = absolute.getFileName().toString();
    String base = name.endsWith(".db") ? name.substring(0, name.length() - 3) : name;
    return absolute.resolveSibling(base + ".log");
  }

  /**
   * Moves the log of the server that ran before to {@code <log>.1} (the SDK's launcher truncates the
   * file it writes to: the last start's log is what tells why a server stopped).
   */
  static void keepPrevious(Path log) {
    try {
      if (Files.isRegularFile(log) && Files.size(log) > 0) {
        Files.move(log, log.resolveSibling(log.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      // the new log then replaces it: nothing that stops the server from starting
    }
  }

  /** Where {@code setsid} is on Linux (macOS has none: there the CLI shares the terminal's Ctrl-C). */
  private static final List<Path> SETSID = List.of(Path.of("/usr/bin/setsid"), Path.of("/bin/setsid"));

  /**
   * What to run for {@code cli} so that it runs in a session of its own: a terminal's Ctrl-C goes to
   * its whole process group, and reached the server at once, while the worker still had tasks to report to
   * it; out of that group, Ctrl-C reaches only durable-agents, which stops the worker first, then the
   * server (SIGTERM and a wait). A script in {@code dataDir/run} that execs {@code setsid cli} (the
   * same process: a child of a JVM leads no process group, so setsid does not fork); {@code cli} itself
   * where there is no setsid or the script cannot be written.
   */
  static Path inOwnSession(Path cli, Path dataDir) {
    Path setsid = SETSID.stream().filter(Files::isExecutable).findFirst().orElse(null);
    if (setsid == null) {
      return cli;
    }
    String absolute = cli.toAbsolutePath().toString();
    Path script = dataDir.resolve("run").resolve("temporal-own-session-"
        + Integer.toHexString(absolute.hashCode()) + ".sh");
    String text = "#!/bin/sh\n# the Temporal CLI in a session of its own: a terminal's Ctrl-C is not sent to it "
        + "(durable-agents stops it, after its worker)\nexec " + setsid + " '" + absolute.replace("'", "'\\''")
        + "' \"$@\"\n";
    try {
      if (!Files.isRegularFile(script) || !Files.readString(script).equals(text) || !Files.isExecutable(script)) {
        Files.createDirectories(script.getParent());
        Path part = Files.createTempFile(script.getParent(), "temporal-own-session-", ".part");
        Files.writeString(part, text);
        Files.setPosixFilePermissions(part, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.move(part, script, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      }
      return script;
    } catch (IOException | UnsupportedOperationException e) {
      return cli;
    }
  }

  /** The CLI's {@code server start-dev} process this JVM started on {@code port}, if it can be told. */
  static Optional<ProcessHandle> find(int port) {
    String portArg = Integer.toString(port);
    return ProcessHandle.current().children().filter(p -> {
      List<String> args = p.info().arguments().map(List::of).orElse(List.of());
      int at = args.indexOf("--port");
      return args.contains("start-dev") && at >= 0 && at + 1 < args.size() && args.get(at + 1).equals(portArg);
    }).findFirst();
  }

  /** SIGTERM, then up to {@link #STOP_GRACE_SECONDS} for it to exit, then SIGKILL. */
  static void stop(ProcessHandle process) {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      process.onExit().get(STOP_GRACE_SECONDS, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
