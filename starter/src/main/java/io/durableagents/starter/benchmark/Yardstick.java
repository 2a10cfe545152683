package io.durableagents.starter.benchmark;

import io.durableagents.starter.local.ChildProcesses;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;

/**
 * The yardstick {@code ../shared/naive-bench} (the simplest version of the design's shape: a workflow
 * that starts a child workflow per agent per step, each making two activities) run by the benchmark
 * against the server it measures ({@code -Dtarget=127.0.0.1:PORT}), taking turns with the benchmark's
 * own rows. Its {@code Bench.java} is compiled once against this jar's classpath (the SDK this project
 * uses), into the benchmark's log directory: nothing is written into the yardstick's own directory.
 */
final class Yardstick {
  private static final Pattern RESULT = Pattern.compile("agentSteps=(\\d+) wall=([0-9.]+)s .*agentsteps/s=([0-9.]+)");

  private Yardstick() {}

  /**
   * Runs it with {@code agents} x {@code steps} at L = 0 on the server at {@code port}, giving up after
   * {@code timeLimitMinutes}; a table row.
   */
  static String run(Path dir, Path logs, BenchmarkServer server, int agents, int steps, int round,
      int timeLimitMinutes) throws Exception {
    BenchmarkServer.Kind kind = server.kind;
    int port = server.port;
    Path classes = compile(dir, logs);
    double ownCpu0 = MachineReadings.exitedChildrenCpuMillis();
    double serverCpu0 = server.cpuMillis();
    File log = logs.resolve("yardstick-" + kind.label + "-" + agents + ".log").toFile();
    Process p = new ProcessBuilder(ChildProcesses.javaBinary(), "-Xmx3g", "-Dlat=0",
        "-Dtarget=127.0.0.1:" + port, "-cp", classes + File.pathSeparator + ChildProcesses.classpath(), "b.Bench",
        Integer.toString(agents), Integer.toString(steps))
        .redirectErrorStream(true).redirectOutput(log).start();
    if (!p.waitFor(timeLimitMinutes, TimeUnit.MINUTES)) {
      p.destroyForcibly().waitFor();
    }
    // its JVM's CPU: what this process's exited children used grew by it (nothing else is started meanwhile)
    double ownCpu = MachineReadings.exitedChildrenCpuMillis() - ownCpu0;
    double serverCpu = server.cpuMillis() - serverCpu0;
    Matcher m = parse(Files.readString(log.toPath()));
    String result;
    if (m == null) {
      result = "did not finish in " + timeLimitMinutes + " min | - | -";
    } else {
      double agentSteps = Double.parseDouble(m.group(1));
      // its CPU is its JVM's whole life (start, warm-up run of 10 agent steps, run); ours the measured run's only
      result = String.format(Locale.ROOT, "%.1f | %.1f | %.1f + %.1f", Double.parseDouble(m.group(3)),
          Double.parseDouble(m.group(2)), ownCpu / agentSteps, serverCpu / agentSteps);
    }
    System.out.printf(Locale.ROOT, "  round %d: yardstick on the %s, %d agents: %s%n", round + 1, kind.label, agents,
        result);
    return String.format(Locale.ROOT, "| %d | %s | %d | %d | %s |", round + 1, kind.label, agents, steps, result);
  }

  /** The yardstick's result line ({@code ... agentSteps=N wall=Ws ... agentsteps/s=R}), or null. */
  static Matcher parse(String output) {
    Matcher last = null;
    for (String line : output.split("\n")) {
      Matcher m = RESULT.matcher(line);
      if (m.find()) {
        last = m;
      }
    }
    return last;
  }

  private static Path compile(Path dir, Path logs) throws IOException {
    Path classes = logs.resolve("yardstick-classes").toAbsolutePath();
    if (Files.exists(classes.resolve("b").resolve("Bench.class"))) {
      return classes;
    }
    Path source = dir.resolve("src/main/java/b/Bench.java");
    if (!Files.isRegularFile(source)) {
      throw new IllegalArgumentException("--yardstick " + dir + ": no src/main/java/b/Bench.java there");
    }
    Files.createDirectories(classes);
    List<String> args = new ArrayList<>(List.of("-nowarn", "-d", classes.toString(), "-cp",
        ChildProcesses.classpath(), source.toString()));
    int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new));
    if (rc != 0) {
      throw new IllegalStateException("could not compile " + source);
    }
    return classes;
  }
}
