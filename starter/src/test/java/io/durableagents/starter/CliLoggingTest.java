package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import io.durableagents.starter.local.ChildProcesses;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What libraries log reaches the terminal in one line, and only with {@code --verbose} in full: gRPC's
 * warning on an address it cannot resolve (a {@code java.util.logging} record whose message holds a
 * 15-frame trace) stays out of {@code list}'s output, which is its own two lines; the starter's
 * logback.xml cuts any event to one line unless verbose.
 */
class CliLoggingTest {
  @TempDir
  Path dir;

  /** The classpath the shaded jar has: the main classes and the dependencies, not the tests' logback-test.xml. */
  private static String mainClasspath() {
    return Stream.of(ChildProcesses.classpath().split(File.pathSeparator))
        .filter(entry -> !entry.endsWith("test-classes"))
        .collect(Collectors.joining(File.pathSeparator));
  }

  private record Result(int exitCode, String out, String err) {}

  private Result run(String name, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(ChildProcesses.javaBinary(), "-Xmx256m",
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", mainClasspath(), StarterMain.class.getName()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(dir.resolve(name + ".out").toFile())
        .redirectError(dir.resolve(name + ".err").toFile());
    pb.environment().put("TEMPORAL_ADDRESS", "not-an-address:7233");
    pb.environment().remove(Failures.DEBUG_VARIABLE);
    Process p = pb.start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), name + " did not end");
    return new Result(p.exitValue(), Files.readString(dir.resolve(name + ".out")),
        Files.readString(dir.resolve(name + ".err")));
  }

  @Test
  void anUnresolvableAddressIsTwoLinesWithoutAGrpcTrace() throws Exception {
    Result list = run("list", "list");
    assertEquals(Failures.UNAVAILABLE, list.exitCode(), list.err());
    List<String> lines = list.err().strip().lines().toList();
    assertEquals(2, lines.size(), "two lines, no library's log:\n" + list.err());
    assertTrue(lines.get(0).startsWith("list: cannot reach Temporal at not-an-address:7233 (from TEMPORAL_ADDRESS)"),
        list.err());
    assertTrue(lines.get(1).startsWith("  Check the address (--address, --port or TEMPORAL_ADDRESS)"), list.err());

    Result verbose = run("list-verbose", "list", "--verbose");
    assertEquals(Failures.UNAVAILABLE, verbose.exitCode(), verbose.err());
    assertTrue(verbose.err().contains("\tat io.grpc."), "--verbose shows the traces:\n" + verbose.err());
  }

  private static String format(PatternLayoutEncoder encoder, Logger logger, String message, Throwable thrown) {
    LoggingEvent event = new LoggingEvent(Logger.class.getName(), logger, Level.WARN, message, thrown, null);
    event.setMDCPropertyMap(java.util.Map.of());
    return new String(encoder.encode(event), StandardCharsets.UTF_8);
  }

  @Test
  void theStartersLogbackXmlWritesOneLinePerEventUnlessVerbose() throws Exception {
    LoggerContext context = new LoggerContext();
    try {
      JoranConfigurator configurator = new JoranConfigurator();
      configurator.setContext(context);
      configurator.doConfigure(CliLoggingTest.class.getClassLoader().getResource("logback.xml"));
      assertEquals("true", context.getProperty(CliLogging.OWN_CONFIGURATION_PROPERTY));
      @SuppressWarnings("unchecked")
      OutputStreamAppender<ILoggingEvent> stderr =
          (OutputStreamAppender<ILoggingEvent>) context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR");
      PatternLayoutEncoder encoder = (PatternLayoutEncoder) stderr.getEncoder();
      Logger grpc = context.getLogger("io.grpc.internal.ManagedChannelImpl");
      String status = "Failed to resolve name. status=Status{code=UNAVAILABLE, cause=java.net.UnknownHostException: x\n"
          + "\tat io.grpc.internal.DnsNameResolver.resolveAddresses(DnsNameResolver.java:222)\n}";
      Exception thrown = new IllegalStateException("the channel is gone\nsecond line",
          new java.net.UnknownHostException("x"));

      String plain = format(encoder, grpc, status, null);
      assertEquals(1, plain.strip().lines().count(), plain);
      assertTrue(plain.strip().endsWith(" - Failed to resolve name. status=Status{code=UNAVAILABLE, cause="
          + "java.net.UnknownHostException: x [...; --verbose for the rest]"), plain);
      String withException = format(encoder, grpc, "channel closed", thrown);
      assertEquals(1, withException.strip().lines().count(), withException);
      assertTrue(withException.strip().endsWith(" - channel closed [IllegalStateException: the channel is gone; "
          + "--verbose for the trace]"), withException);

      CliLogging.configure("list", true);
      try {
        String verbose = format(encoder, grpc, "channel closed", thrown);
        assertTrue(verbose.contains("java.lang.IllegalStateException: the channel is gone")
            && verbose.contains("\tat io.durableagents.starter.CliLoggingTest")
            && verbose.contains("Caused by: java.net.UnknownHostException: x"), verbose);
        assertFalse(verbose.endsWith("\n\n"), "no blank line after the trace");
      } finally {
        CliLogging.configure("list", false);
      }
    } finally {
      context.stop();
    }
  }
}
