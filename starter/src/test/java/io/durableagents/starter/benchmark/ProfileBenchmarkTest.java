package io.durableagents.starter.benchmark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The profile part's options, its OTLP sink, and what it reads from the dev server and perf. */
class ProfileBenchmarkTest {
  private static BenchmarkCommand parsed(String... args) {
    BenchmarkCommand b = new BenchmarkCommand();
    new CommandLine(b).parseArgs(args);
    return b;
  }

  @Test
  void theProfilePartRunsOnlyWhenAskedForAndProfilesBothWorkersByDefault() {
    BenchmarkCommand defaults = parsed();
    assertFalse(defaults.parts.contains("profile"), defaults.parts.toString());
    assertTrue(BenchmarkCommand.PARTS.contains("profile"));
    assertEquals(List.of(ProfileOptions.Worker.PLAIN, ProfileOptions.Worker.INSTRUMENTED), defaults.profile.workers);

    BenchmarkCommand one = parsed("--parts", "profile", "--profile-workers", " Instrumented");
    assertEquals(List.of("profile"), one.parts);
    assertEquals(List.of(ProfileOptions.Worker.INSTRUMENTED), one.profile.workers);
  }

  @Test
  void anUnknownWorkerConfigurationFailsNamingTheOptionAndTheOnesThereAre() {
    CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class,
        () -> parsed("--profile-workers", "plain,fast"));
    assertTrue(e.getMessage().contains("--profile-workers") && e.getMessage().contains("'fast' is not one of: plain, "
        + "instrumented"), e.getMessage());
  }

  @Test
  void theInstrumentedWorkerTracesOverOtlpAndKeepsAJournalAndThePlainOneNeither() {
    Map<String, String> env = ProfileOptions.Worker.INSTRUMENTED.env("http://127.0.0.1:1/v1/traces", Path.of("/j.log"));
    assertEquals("otlp", env.get("OTEL_TRACES_EXPORTER"));
    assertEquals("http://127.0.0.1:1/v1/traces", env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"));
    assertEquals("/j.log", env.get("DURABLE_AGENTS_EXECUTION_LOG"));
    assertEquals(Map.of(), ProfileOptions.Worker.PLAIN.env("http://127.0.0.1:1/v1/traces", Path.of("/j.log")));
    assertEquals("-XX:StartFlightRecording=filename=runs/w.jfr,settings=profile,dumponexit=true",
        ProfileBenchmark.jfr(Path.of("runs/w.jfr")).get("DURABLE_AGENTS_CHILD_JVM_OPTIONS"));
  }

  @Test
  void theOtlpSinkAnswersEveryExportAndCountsItsBytes() throws Exception {
    AtomicLong bytes = new AtomicLong();
    HttpServer sink = ProfileBenchmark.otlpSink(bytes);
    try {
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + sink.getAddress().getPort() + "/v1/traces"))
          .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[1234])).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode());
      assertEquals(1234, bytes.get());
    } finally {
      sink.stop(0);
    }
  }

  @Test
  void theDevServersPersistenceTimeIsReadPerOperationInMilliseconds(@TempDir Path dir) throws Exception {
    String before = """
        # HELP persistence_latency persistence_latency histogram
        persistence_latency_sum{operation="CreateWorkflowExecution",service_name="history"} 0.5
        persistence_latency_count{operation="CreateWorkflowExecution",service_name="history"} 10
        persistence_latency_sum{operation="UpdateWorkflowExecution",service_name="history"} 1
        persistence_latency_count{operation="UpdateWorkflowExecution",service_name="history"} 20
        persistence_requests{operation="UpdateWorkflowExecution",service_name="history"} 20
        """;
    String after = before.replace("} 0.5", "} 0.75").replace("} 10", "} 15")
        + "persistence_latency_sum{operation=\"UpdateWorkflowExecution\",service_name=\"matching\"} 0.25\n"
        + "persistence_latency_count{operation=\"UpdateWorkflowExecution\",service_name=\"matching\"} 5\n";

    Map<String, double[]> used = ServerMetrics.delta(ServerMetrics.persistence(before), ServerMetrics.persistence(after));

    assertArrayEquals(new double[] {250, 5}, used.get("CreateWorkflowExecution"), 1e-9);
    assertArrayEquals(new double[] {250, 5}, used.get("UpdateWorkflowExecution"), 1e-9);
    assertArrayEquals(new double[] {7, 2}, ServerMetrics.persistence(
        "persistence_latency_milliseconds_sum{operation=\"GetTasks\"} 7\n"
        + "persistence_latency_milliseconds_count{operation=\"GetTasks\"} 2\n").get("GetTasks"), 1e-9);

    Path log = dir.resolve("dev-server.log");
    Files.writeString(log, "Temporal Metrics:    http://localhost:40001/metrics\nrestarted\n"
        + "Temporal Metrics:    http://localhost:40002/metrics\n");
    assertEquals("http://127.0.0.1:40002/metrics", ServerMetrics.urlIn(log.toFile()).orElseThrow());
    assertTrue(ServerMetrics.urlIn(dir.resolve("none.log").toFile()).isEmpty());
  }

  @Test
  void perfsFileOffsetsBecomeAddressesThroughTheLoadableSegmentThatHoldsThem(@TempDir Path dir) throws Exception {
    List<long[]> segments = List.of(new long[] {0, 0x400000, 0x1000}, new long[] {0x2000, 0x602000, 0x500});
    assertEquals(0x400123, GoProfile.address(segments, 0x123));
    assertEquals(0x602010, GoProfile.address(segments, 0x2010));
    assertEquals(0x1800, GoProfile.address(segments, 0x1800));
    Path notElf = dir.resolve("x");
    Files.write(notElf, new byte[64]);
    assertEquals(List.of(), GoProfile.loadSegments(notElf));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java").toRealPath();
    assertFalse(GoProfile.loadSegments(java).isEmpty(), "the java launcher is an ELF file with loadable segments");
  }
}
