package io.durableagents.worker.tracing;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.temporal.common.interceptors.WorkerInterceptor;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * OpenTelemetry traces of what the workers run: a span per simulation, simulation step, agent step (or
 * single task, or autonomous agent), LLM call and tool call, parent to child across workflows and
 * activities, with the GenAI semantic conventions' attributes ({@link TraceAttributes}) and never a
 * prompt or a key. Off unless configured: {@link #fromEnvironment} turns it on when the standard
 * {@code OTEL_*} variables name an exporter ({@code OTEL_EXPORTER_OTLP_ENDPOINT}, {@code
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} or {@code OTEL_TRACES_EXPORTER}), and reads every other
 * {@code OTEL_*} variable as the OpenTelemetry SDK does.
 *
 * <pre>{@code
 * // OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf
 * DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder()
 *     .configureFromEnvironment(System.getenv())   // tracing on, from OTEL_*
 *     .build();
 * // or your own exporter:
 * builder.setTracing(AgentTracing.withSpanProcessor(BatchSpanProcessor.builder(exporter).build()));
 * }</pre>
 *
 * <p>Replay adds no span: a workflow's span (and a simulation step's) is built once, when it ends, by
 * the worker that runs that moment for the first time, with the start time the workflow recorded and an
 * id derived from Temporal's ids, which its children named as their parent long
 * before. A span that starts on a worker killed with {@code kill -9} and ends on the next one is thus
 * exported once, by the second. An LLM or tool call's span is built by the activity worker around the
 * call: each attempt that ran has one, and a call completed before a crash is not run, nor traced, again.
 *
 * <p>Close it when the worker stops ({@link #close()}): the spans of the last seconds are still queued.
 */
public final class AgentTracing implements AutoCloseable {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(AgentTracing.class);
  /** The instrumentation scope of our spans. */
  public static final String INSTRUMENTATION_NAME = "io.durableagents";
  /** {@code service.name} unless {@code OTEL_SERVICE_NAME} says otherwise. */
  public static final String DEFAULT_SERVICE_NAME = "durable-agents";

  /** The variables that turn tracing on (any of them set, and the exporter not {@code none}). */
  public static final String TRACES_EXPORTER = "OTEL_TRACES_EXPORTER";
  public static final String OTLP_ENDPOINT = "OTEL_EXPORTER_OTLP_ENDPOINT";
  public static final String OTLP_TRACES_ENDPOINT = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
  /** {@code true} turns tracing off whatever else is set (the SDK's own switch). */
  public static final String SDK_DISABLED = "OTEL_SDK_DISABLED";

  private static final int RECENT_SPANS = 20_000;

  private final SdkTracerProvider provider;
  private final Tracer tracer;
  private final String description;
  private final AtomicLong notReemitted = new AtomicLong();
  /** Workflow spans this process exported: a workflow task retried here does not export one twice. */
  private final Set<String> exported = Collections.newSetFromMap(new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > RECENT_SPANS;
    }
  });

  private AgentTracing(SdkTracerProvider provider, String description) {
    this.provider = provider;
    this.tracer = provider.get(INSTRUMENTATION_NAME);
    this.description = description;
  }

  /** Whether {@code env} turns tracing on: an exporter or an OTLP endpoint named, the SDK not disabled. */
  public static boolean isConfigured(Map<String, String> env) {
    if ("true".equalsIgnoreCase(trimmed(env.get(SDK_DISABLED)))) {
      return false;
    }
    String exporter = trimmed(env.get(TRACES_EXPORTER));
    if (exporter != null) {
      return !exporter.equalsIgnoreCase("none");
    }
    return trimmed(env.get(OTLP_ENDPOINT)) != null || trimmed(env.get(OTLP_TRACES_ENDPOINT)) != null;
  }

  /**
   * Tracing as the {@code OTEL_*} variables of {@code env} configure it (exporter, endpoint, protocol,
   * headers, service name, resource attributes, batch settings), or empty when they don't turn it on.
   * Only traces: the SDK's metrics and logs exporters stay off (metrics are on {@code /metrics}).
   *
   * @throws IllegalArgumentException naming the variable, when the SDK refuses the configuration
   */
  public static Optional<AgentTracing> fromEnvironment(Map<String, String> env) {
    if (!isConfigured(env)) {
      return Optional.empty();
    }
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("otel.service.name", DEFAULT_SERVICE_NAME);
    env.forEach((k, v) -> {
      if (k.startsWith("OTEL_") && v != null) {
        properties.put(k.toLowerCase(Locale.ROOT).replace('_', '.'), v);
      }
    });
    // the worker's metrics are Prometheus's; the SDK would otherwise push its own over OTLP
    properties.put("otel.metrics.exporter", "none");
    properties.put("otel.logs.exporter", "none");
    DurableIds ids = new DurableIds();
    OpenTelemetrySdk sdk;
    try {
      sdk = AutoConfiguredOpenTelemetrySdk.builder()
          .addPropertiesCustomizer(config -> properties)
          .addTracerProviderCustomizer((builder, config) -> builder.setIdGenerator(ids))
          .disableShutdownHook()
          .build()
          .getOpenTelemetrySdk();
    } catch (ConfigurationException e) {
      throw new IllegalArgumentException("OpenTelemetry (" + TRACES_EXPORTER + ", " + OTLP_ENDPOINT
          + " and the other OTEL_* variables): " + e.getMessage(), e);
    }
    String exporter = properties.getOrDefault("otel.traces.exporter", "otlp");
    String endpoint = properties.getOrDefault("otel.exporter.otlp.traces.endpoint",
        properties.get("otel.exporter.otlp.endpoint"));
    String protocol = properties.getOrDefault("otel.exporter.otlp.traces.protocol",
        properties.getOrDefault("otel.exporter.otlp.protocol", "grpc"));
    String description = exporter + (exporter.contains("otlp") ? " " + protocol + " to "
        + (endpoint == null ? "the default endpoint" : endpoint) : "");
    AgentTracing tracing = new AgentTracing(sdk.getSdkTracerProvider(), description);
    // A safety net for a JVM that exits without close(): queued spans are still sent.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> tracing.provider.forceFlush().join(5, TimeUnit.SECONDS),
        "durable-agents-tracing-flush"));
    return Optional.of(tracing);
  }

  /**
   * Tracing into {@code processor} (an in-memory exporter in tests, or your own exporter behind a
   * {@code BatchSpanProcessor}), with {@code service.name} {@value #DEFAULT_SERVICE_NAME}.
   */
  public static AgentTracing withSpanProcessor(SpanProcessor processor) {
    SdkTracerProvider provider = SdkTracerProvider.builder()
        .setIdGenerator(new DurableIds())
        .setResource(Resource.getDefault().merge(Resource.create(
            Attributes.of(io.opentelemetry.api.common.AttributeKey.stringKey("service.name"), DEFAULT_SERVICE_NAME))))
        .addSpanProcessor(processor)
        .build();
    return new AgentTracing(provider, processor.getClass().getSimpleName());
  }

  /** The worker interceptor that makes the spans; the plugin registers it. */
  public WorkerInterceptor workerInterceptor() {
    return new TracingInterceptor(this);
  }

  /**
   * The client interceptor that makes a workflow started within a span of the caller's (the current
   * OpenTelemetry span) a child of it; the plugin registers it on clients made with it.
   */
  public io.temporal.common.interceptors.WorkflowClientInterceptor clientInterceptor() {
    return new TracingClientInterceptor();
  }

  /** Where spans go, for the worker's start-up line ({@code otlp http/protobuf to http://...}). */
  public String describe() {
    return description;
  }

  /** Exports what is queued; waits at most {@code timeout}. */
  public boolean flush(long timeout, TimeUnit unit) {
    CompletableResultCode result = provider.forceFlush().join(timeout, unit);
    return result.isSuccess();
  }

  /** Exports what is queued and stops the exporter. */
  @Override
  public void close() {
    provider.shutdown().join(10, TimeUnit.SECONDS);
  }

  /**
   * How many workflow and simulation-step span ends this process met again without exporting them: in
   * a replay, or in a workflow task retried here after the first export.
   */
  public long notReemitted() {
    return notReemitted.get();
  }

  void countNotReemitted() {
    notReemitted.incrementAndGet();
  }

  Tracer tracer() {
    return tracer;
  }

  /**
   * Builds and ends a span whose ids, start and end were decided by the workflow: once per process for
   * one span id.
   */
  void emit(DurableSpan span) {
    try {
      build(span);
    } catch (RuntimeException e) {
      // tracing never fails a workflow task
      log.warn("span {} not exported: {}", span.name(), e.toString());
    }
  }

  private void build(DurableSpan span) {
    synchronized (exported) {
      if (!exported.add(span.traceId() + "/" + span.spanId())) {
        countNotReemitted();
        return;
      }
    }
    Context parent = Context.root();
    if (span.parentSpanId() != null) {
      parent = parent.with(Span.wrap(SpanContext.createFromRemoteParent(span.traceId(), span.parentSpanId(),
          span.sampled() ? TraceFlags.getSampled() : TraceFlags.getDefault(), TraceState.getDefault())));
    }
    Context parentContext = parent;
    Span built = DurableIds.with(span.traceId(), span.spanId(), () -> {
      SpanBuilder builder = tracer.spanBuilder(span.name())
          .setParent(parentContext)
          .setSpanKind(SpanKind.INTERNAL)
          .setAllAttributes(span.attributes())
          .setStartTimestamp(span.startMillis(), TimeUnit.MILLISECONDS);
      return builder.startSpan();
    });
    if (span.errorType() != null) {
      built.setStatus(StatusCode.ERROR);
      built.setAttribute(TraceAttributes.ERROR_TYPE, span.errorType());
    }
    built.end(Math.max(span.endMillis(), span.startMillis()), TimeUnit.MILLISECONDS);
  }

  /** A workflow-level span, decided deterministically by workflow code and built when it ends. */
  record DurableSpan(String name, String traceId, String spanId, String parentSpanId, boolean sampled,
      long startMillis, long endMillis, Attributes attributes, String errorType) {}

  private static String trimmed(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}
