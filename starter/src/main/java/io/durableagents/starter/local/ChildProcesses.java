package io.durableagents.starter.local;

import io.durableagents.starter.Environment;
import io.durableagents.starter.Interrupts;
import io.durableagents.starter.StarterMain;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts the dev server and workers as separate JVMs running this same program, so that killing a
 * worker never kills the server, and everything talks over gRPC as it would to a real cluster.
 */
public final class ChildProcesses {
  /**
   * Extra JVM options of child JVMs, space separated (e.g. a JFR recording), after those of
   * {@link ChildJvmTuning}.
   */
  public static final String CHILD_JVM_OPTIONS = "DURABLE_AGENTS_CHILD_JVM_OPTIONS";

  private ChildProcesses() {}

  /** The classpath of this JVM (the shaded jar, or Maven's test classpath under Surefire). */
  public static String classpath() {
    String surefire = System.getProperty("surefire.test.class.path");
    return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
  }

  /** The java executable of this JVM. */
  public static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * Starts {@code durable-agents <args>} in a new JVM with at most {@code maxHeap} of heap, its output
   * going to {@code log}.
   */
  public static Process start(String maxHeap, File log, Map<String, String> extraEnv, String... args) {
    return start(javaBinary(), Runtime.version().feature(), maxHeap, log, extraEnv, args);
  }

  /**
   * Starts {@code durable-agents <args>} with the java executable {@code java}, whose feature version is
   * {@code javaFeature} (e.g. 25), with at most {@code maxHeap} of heap, its output going to {@code log}.
   * Extra JVM options come from {@code DURABLE_AGENTS_CHILD_JVM_OPTIONS} (space separated; {@code {child}}
   * becomes the command and a unique number), e.g. {@code
   * -XX:StartFlightRecording=filename=runs/{child}.jfr} to profile every child with JFR.
   */
  public static Process start(String java, int javaFeature, String maxHeap, File log, Map<String, String> extraEnv,
      String... args) {
    return start(java, javaFeature, maxHeap, log, extraEnv, List.of(), args);
  }

  /**
   * As {@link #start(String, int, String, File, Map, String...)}, with {@code jvmOptions} too (a class-data
   * sharing archive's, {@link ClassDataArchive#jvmOptions()}).
   */
  public static Process start(String java, int javaFeature, String maxHeap, File log, Map<String, String> extraEnv,
      List<String> jvmOptions, String... args) {
    List<String> command = command(java, javaFeature, maxHeap, extraEnv, jvmOptions, args);
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log));
    if (Environment.variables() != System.getenv()) {
      // a command run in-process by a test hands its children the variables it was given
      pb.environment().clear();
      pb.environment().putAll(Environment.variables());
    }
    // the child ignores Ctrl-C and exits when this process does (Interrupts.superviseIfChild)
    pb.environment().put(Interrupts.PARENT_PID_VARIABLE, Long.toString(ProcessHandle.current().pid()));
    pb.environment().putAll(extraEnv);
    try {
      return pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command, e);
    }
  }

  /**
   * The command line {@link #start(String, int, String, File, Map, List, String...)} runs: java, the heap,
   * {@link ChildJvmTuning}'s options, {@code jvmOptions}, {@value #CHILD_JVM_OPTIONS}'s, the classpath, the
   * main class and {@code args}.
   */
  static List<String> command(String java, int javaFeature, String maxHeap, Map<String, String> extraEnv,
      List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>();
    command.add(java);
    command.add("-Xmx" + maxHeap);
    Map<String, String> env = Environment.variablesWith(extraEnv);
    // first, so that DURABLE_AGENTS_CHILD_JVM_OPTIONS can still override what it sets (the last one wins)
    command.addAll(ChildJvmTuning.fromEnvironment(env).jvmOptions());
    command.addAll(jvmOptions);
    String extra = env.getOrDefault(CHILD_JVM_OPTIONS, "");
    for (String option : extra.trim().split("\\s+")) {
      if (!option.isEmpty()) {
        // {child} names the child in file names: -XX:StartFlightRecording=filename={child}.jfr
        command.add(option.replace("{child}", (args.length > 0 ? args[0] : "child") + "-" + System.nanoTime()));
      }
    }
    if (javaFeature >= 24) {
      // gRPC's shaded Netty still uses sun.misc.Unsafe; say so once here instead of warning each start
      command.add("--sun-misc-unsafe-memory-access=allow");
      command.add("--enable-native-access=ALL-UNNAMED");
    }
    command.add("-cp");
    command.add(classpath());
    command.add(StarterMain.class.getName());
    command.addAll(List.of(args));
    return command;
  }

  /** Whether something accepts TCP connections on {@code host:port}. */
  public static boolean listening(String host, int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 300);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Waits until {@code host:port} accepts connections, or the process dies, or {@code timeoutMillis}
   * pass.
   */
  public static boolean awaitListening(String host, int port, Process process, long timeoutMillis)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    while (System.nanoTime() < deadline) {
      if (listening(host, port)) {
        return true;
      }
      if (process != null && !process.isAlive()) {
        return false;
      }
      Thread.sleep(100);
    }
    return false;
  }
}
