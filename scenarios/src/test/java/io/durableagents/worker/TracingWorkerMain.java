package io.durableagents.worker;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.scenarios.Builtins;
import io.durableagents.worker.tracing.AgentTracing;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.Map;

/**
 * A worker process for {@link TracingKillTest}: the plugin configured from the environment, tracing
 * into a file of JSON lines ({@link JsonLinesSpanExporter}) written as each span ends, so that a span
 * is on disk before the call it belongs to is reported to Temporal, and nothing is lost to a queue
 * when the process is killed. It runs until it is killed.
 *
 * <pre>{@code
 * TEMPORAL_ADDRESS=127.0.0.1:7233 TRACE_FILE=spans.jsonl java -cp <test classpath> \
 *     io.durableagents.worker.TracingWorkerMain
 * }</pre>
 */
public final class TracingWorkerMain {
  /** Where spans go. */
  static final String TRACE_FILE = "TRACE_FILE";

  private TracingWorkerMain() {}

  public static void main(String[] args) throws InterruptedException {
    Map<String, String> env = System.getenv();
    DurableAgentsPlugin plugin = Builtins.plugin().configureFromEnvironment(env)
        .setTracing(AgentTracing.withSpanProcessor(SimpleSpanProcessor.create(
            new JsonLinesSpanExporter(Path.of(env.get(TRACE_FILE))))))
        .build();
    TemporalConnection connection = TemporalConnection.fromEnvironment(env);
    WorkflowServiceStubs service = connection.connect(null);
    WorkflowClient client = connection.client(service, plugin);
    WorkerFactory.newInstance(client).start();
    System.out.println("tracing worker " + ProcessHandle.current().pid() + " started");
    new java.util.concurrent.CountDownLatch(1).await(); // until killed
  }

  /**
   * One JSON object a line: {@code pid}, {@code name}, {@code trace}, {@code span}, {@code parent},
   * {@code start} and {@code end} (epoch nanos) and {@code attributes}.
   */
  static final class JsonLinesSpanExporter implements SpanExporter {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path file;

    JsonLinesSpanExporter(Path file) {
      this.file = file;
    }

    @Override
    public synchronized CompletableResultCode export(Collection<SpanData> spans) {
      StringBuilder lines = new StringBuilder();
      for (SpanData s : spans) {
        ObjectNode line = JSON.createObjectNode();
        line.put("pid", ProcessHandle.current().pid());
        line.put("name", s.getName());
        line.put("trace", s.getTraceId());
        line.put("span", s.getSpanId());
        line.put("parent", s.getParentSpanContext().isValid() ? s.getParentSpanId() : null);
        line.put("start", s.getStartEpochNanos());
        line.put("end", s.getEndEpochNanos());
        ObjectNode attributes = line.putObject("attributes");
        s.getAttributes().forEach((k, v) -> attributes.put(k.getKey(), String.valueOf(v)));
        lines.append(line).append('\n');
      }
      try {
        Files.writeString(file, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }
}
