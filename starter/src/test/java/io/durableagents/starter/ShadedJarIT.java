package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.starter.local.LocalStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The shaded jar, {@code starter/target/durable-agents.jar}, run as the README runs it, after the build
 * made it: its {@code dev-server} starts Temporal's real dev server from the Temporal CLI. The tests
 * before it run the commands on Maven's test classpath, which has every test-scoped library; a library
 * missing from the jar (temporal-testing once was: every {@code demo} with a Temporal CLI failed with
 * {@code NoClassDefFoundError: TemporalDevServerOptions}) is found only here.
 */
class ShadedJarIT {
  /**
   * Both jars name the command line's main class: the shaded one runs with {@code java -jar}, and the
   * published {@code durable-agents-starter} jar names it for a user's own shaded jar or classpath.
   */
  @Test
  void bothJarsNameTheMainClass() throws Exception {
    Path shaded = Path.of("target", "durable-agents.jar");
    assertTrue(Files.isRegularFile(shaded), "no " + shaded.toAbsolutePath() + ": run this after package");
    Path thin;
    try (java.util.stream.Stream<Path> files = Files.list(Path.of("target"))) {
      thin = files.filter(f -> f.getFileName().toString().matches("durable-agents-starter-[^-]+(-SNAPSHOT)?\\.jar"))
          .findFirst().orElseThrow(() -> new AssertionError("no durable-agents-starter-<version>.jar in target"));
    }
    for (Path jar : List.of(shaded, thin)) {
      try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar.toFile())) {
        assertEquals(StarterMain.class.getName(),
            file.getManifest().getMainAttributes().getValue(java.util.jar.Attributes.Name.MAIN_CLASS), jar.toString());
      }
    }
  }

  @Test
  void theJarsDevServerStartsTheTemporalCli() throws Exception {
    Path cli = RealDevServer.cli();
    Path jar = Path.of("target", "durable-agents.jar");
    assertTrue(Files.isRegularFile(jar), "no " + jar.toAbsolutePath() + ": run this after package");
    Path dir = Files.createDirectories(Path.of("target", "shaded-jar-it"));
    Path db = dir.resolve("temporal.db");
    for (String suffix : List.of("", "-wal", "-shm")) {
      Files.deleteIfExists(dir.resolve("temporal.db" + suffix));
    }
    Path log = dir.resolve("dev-server.log");
    Files.deleteIfExists(log);
    List<String> command = new ArrayList<>(List.of(ChildProcesses.javaBinary(), "-Xmx256m", "-jar",
        jar.toString(), "dev-server", "--port", Integer.toString(RealDevServer.freePort()), "--ui-port",
        Integer.toString(RealDevServer.freePort()), "--db-file", db.toString(), "--temporal-cli", cli.toString()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    List<ProcessHandle> children = List.of();
    try {
      List<String> said = LocalStack.awaitAnnouncement(log, p, 120_000);
      assertTrue(said != null && said.get(said.size() - 1).startsWith("Temporal dev server (" + cli + ") listening on"),
          "the jar's dev-server did not start the Temporal CLI: " + Files.readString(log));
      children = p.descendants().toList();
      assertTrue(!children.isEmpty(), "the Temporal CLI runs as a child of dev-server");
    } finally {
      p.destroy();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "dev-server did not stop");
    }
    for (ProcessHandle child : children) {
      child.onExit().get(30, TimeUnit.SECONDS);
    }
    assertEquals(List.of(), children.stream().filter(ProcessHandle::isAlive).toList(),
        "the Temporal CLI stops with dev-server");
  }
}
