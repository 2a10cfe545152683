package io.durableagents.worker;

import com.sun.net.httpserver.HttpServer;
import com.uber.m3.tally.RootScopeBuilder;
import com.uber.m3.tally.Scope;
import com.uber.m3.util.Duration;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

/**
 * The worker's HTTP endpoint: Prometheus metrics at {@code /metrics} (the Temporal SDK's own metrics
 * through its Micrometer bridge, ours, and the JVM's heap, threads, GC and CPU; {@code
 * /metrics?name[]=jvm_memory_used_bytes&name[]=jvm_threads_live_threads} renders only the series named,
 * as Prometheus's own exporters do) and {@code /health}, which answers 200 while the worker runs and 503
 * otherwise. It names what it checked, a line each ({@code mcp server fs: ok}), and answers 503 when
 * something the worker needs does not answer ({@code mcp server fs: does not answer: ...}); the runs whose
 * workflow task keeps failing follow, if any.
 */
public final class MetricsServer implements AutoCloseable {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Scope scope;
  private final HttpServer server;
  private volatile java.util.function.Supplier<java.util.Map<String, String>> problems = java.util.Map::of;
  private volatile java.util.function.Supplier<java.util.Map<String, String>> checks = java.util.Map::of;

  private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

  /** The state of a check ({@link #setChecks}) that is fine. */
  public static final String OK = "ok";

  /**
   * The address the endpoint listens on: {@value #DEFAULT_HOST} (this machine only) unless this
   * variable says otherwise, e.g. {@code 0.0.0.0} in a container whose port is published.
   */
  public static final String HOST_VARIABLE = "DURABLE_AGENTS_METRICS_HOST";

  public static final String DEFAULT_HOST = "127.0.0.1";

  /** The host {@code env} asks for in {@value #HOST_VARIABLE}, else {@value #DEFAULT_HOST}. */
  public static String host(java.util.Map<String, String> env) {
    String host = env.get(HOST_VARIABLE);
    return host == null || host.isBlank() ? DEFAULT_HOST : host.trim();
  }

  /** Listens on {@value #DEFAULT_HOST}. */
  public MetricsServer(int port, BooleanSupplier healthy) {
    this(DEFAULT_HOST, port, healthy);
  }

  /** Listens on {@code host} ({@code 0.0.0.0} for every interface). */
  public MetricsServer(String host, int port, BooleanSupplier healthy) {
    this(host, port, healthy, java.util.List::of);
  }

  /**
   * Listens on {@code host}; {@code /health} adds the lines {@code notes} gives (for example the runs
   * whose workflow task keeps failing, from {@link WorkflowTaskFailures#healthLines()}) to its answer.
   * They do not change its status: a worker whose workflow code fails for one run still serves the others,
   * and restarting it would not help.
   */
  public MetricsServer(String host, int port, BooleanSupplier healthy,
      java.util.function.Supplier<java.util.List<String>> notes) {
    // the JVM's own: heap, threads, GC and CPU, to size workers (jvm_*, process_*)
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    scope = new RootScopeBuilder()
        .reporter(new CachedTimerStatsReporter(registry))
        .reportEvery(Duration.ofSeconds(1));
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on metrics port " + host + ":" + port
          + " (DURABLE_AGENTS_METRICS_PORT, " + HOST_VARIABLE + ")", e);
    }
    server.createContext("/metrics", exchange -> {
      java.util.Set<String> names = includedNames(exchange.getRequestURI().getRawQuery());
      byte[] body = (names.isEmpty() ? registry.scrape() : registry.scrape(TEXT_FORMAT, names))
          .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", TEXT_FORMAT);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.createContext("/health", exchange -> {
      boolean running = healthy.getAsBoolean();
      java.util.Map<String, String> checked = checks.get();
      java.util.Map<String, String> now = problems.get();
      boolean ok = running && now.isEmpty() && checked.values().stream().allMatch(OK::equals);
      StringBuilder text = new StringBuilder(ok ? "ok\n" : running ? "" : "not running\n");
      checked.forEach((what, state) -> text.append(what).append(": ").append(state).append('\n'));
      now.forEach((what, why) -> text.append(what).append(": ").append(why).append('\n'));
      for (String note : notes.get()) {
        text.append(note).append('\n');
      }
      byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(ok ? 200 : 503, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
  }

  /**
   * The series names a {@code /metrics} query asks for ({@code name[]=a&name[]=b}, Prometheus's filter);
   * empty: all of them. A monitor that reads two gauges every second (the benchmark's) then does not make
   * the worker render every series of the SDK's each time.
   */
  static java.util.Set<String> includedNames(String rawQuery) {
    java.util.Set<String> names = new java.util.LinkedHashSet<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return names;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String key = java.net.URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      if (key.equals("name[]") && !value.isBlank()) {
        names.add(value.trim());
      }
    }
    return names;
  }

  /**
   * What else {@code /health} reports: each entry (e.g. {@code mcp server fs} to {@code cannot be
   * reached: ...}) makes it answer 503 with a line {@code <what>: <why>}; asked at every request.
   */
  public void setProblems(java.util.function.Supplier<java.util.Map<String, String>> problems) {
    this.problems = problems == null ? java.util.Map::of : problems;
  }

  /**
   * What {@code /health} checks and names at every request, each with its state (e.g. {@code mcp server
   * fs} to {@value #OK}, or to {@code does not answer: ...}): a line {@code <what>: <state>} each, and 503
   * when a state is not {@value #OK}.
   */
  public void setChecks(java.util.function.Supplier<java.util.Map<String, String>> checks) {
    this.checks = checks == null ? java.util.Map::of : checks;
  }

  /** The scope to give the service stubs, so that the SDK reports its metrics here. */
  public Scope scope() {
    return scope;
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** The address it listens on. */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    try {
      scope.close();
    } catch (com.uber.m3.tally.ScopeCloseException e) {
      // the registry is being discarded with it
    }
  }
}
