package io.durableagents.worker;

import io.durableagents.activities.tools.mcp.McpServerUnavailableException;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a Durable Agents worker until it is stopped. Configuration comes from the environment (see the
 * README's configuration table); a bad setting stops it at once with a message naming the setting.
 *
 * <pre>{@code
 * java -jar durable-agents.jar worker
 * }</pre>
 */
public final class WorkerMain {
  private static final Logger log = LoggerFactory.getLogger(WorkerMain.class);

  private WorkerMain() {}

  public static void main(String[] args) throws InterruptedException {
    System.exit(run(System.getenv()));
  }

  /** Logs a warning each minute in which the SDK evicted cached workflows to free workflow threads. */
  private static void watchThreadEvictions(MetricsServer metrics, int workflowThreads) {
    ThreadEvictions evictions = new ThreadEvictions(metrics.registry(), workflowThreads);
    java.util.concurrent.ScheduledExecutorService every = java.util.concurrent.Executors
        .newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "durable-agents-thread-evictions");
          t.setDaemon(true);
          return t;
        });
    every.scheduleWithFixedDelay(() -> evictions.check().ifPresent(log::warn), 1, 1, TimeUnit.MINUTES);
  }

  /** Runs a worker until the JVM is asked to stop; returns the exit code. */
  public static int run(Map<String, String> env) throws InterruptedException {
    WorkerSettings settings;
    String identity;
    DurableAgentsPlugin.Builder pluginBuilder;
    try {
      settings = WorkerSettings.fromEnvironment(env);
      identity = WorkerSettings.identity(env);
      pluginBuilder = DurableAgentsPlugin.newBuilder().configureFromEnvironment(env).configureFromClasspath();
    } catch (IllegalArgumentException e) {
      System.err.println("durable-agents worker: bad configuration: " + e.getMessage());
      return 2;
    }
    TemporalConnection connection = TemporalConnection.fromEnvironment(env);
    WorkerFactory[] factoryRef = new WorkerFactory[1];
    WorkflowTaskFailures[] failuresRef = new WorkflowTaskFailures[1];
    MetricsServer metrics = settings.metricsPort() == null ? null
        : new MetricsServer(MetricsServer.host(env), settings.metricsPort(),
            () -> factoryRef[0] != null && factoryRef[0].isStarted() && !factoryRef[0].isShutdown(),
            () -> failuresRef[0] == null ? java.util.List.of() : failuresRef[0].healthLines());
    if (metrics != null) {
      pluginBuilder.setMeterRegistry(metrics.registry());
    }
    // the runs whose workflow task keeps failing, for /health and the metric
    // and workflow code's log lines written once their workflow task is committed
    WorkflowTaskFailures failures = new WorkflowTaskFailures(metrics == null
        ? new io.micrometer.core.instrument.simple.SimpleMeterRegistry() : metrics.registry(),
        io.durableagents.workflows.CommittedLog.install());
    failuresRef[0] = failures;
    WorkflowServiceStubs service = connection.connect(metrics == null ? null : metrics.scope(),
        java.util.List.of(failures));
    boolean sticky = settings.sticky() == WorkerSettings.Sticky.ON
        || (settings.sticky() == WorkerSettings.Sticky.AUTO && !TestServerDetector.stickyQueuesNeverTimeOut(service));
    DurableAgentsPlugin plugin;
    try {
      plugin = pluginBuilder.setStickyExecution(sticky).build();
    } catch (IllegalArgumentException | McpServerUnavailableException e) {
      // A bad setting found late, a clash of tool names or an MCP server that cannot be reached.
      System.err.println("durable-agents worker: " + e.getMessage());
      if (e instanceof McpServerUnavailableException) {
        System.err.println("  Start that server, or fix or remove its entry (" + WorkerSettings.MCP_SERVERS + ").");
      }
      service.shutdown();
      if (metrics != null) {
        metrics.close();
      }
      return 2;
    }
    if (metrics != null) {
      metrics.setChecks(() -> McpHealth.checks(plugin.mcpTools()));
    }
    WorkflowClient client = connection.client(service, identity, plugin);
    WorkerFactory factory = WorkerFactory.newInstance(client);
    factoryRef[0] = factory;
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      log.info("stopping: finishing in-flight tasks");
      factory.shutdown();
      factory.awaitTermination(20, TimeUnit.SECONDS);
      service.shutdown();
      plugin.closeMcpServers();
      plugin.tracing().ifPresent(io.durableagents.worker.tracing.AgentTracing::close);
      if (metrics != null) {
        metrics.close();
      }
      stopped.countDown();
    }, "durable-agents-shutdown"));
    // replay a few recorded histories first: a worker that takes over from a killed one replays hundreds
    Warmup.Result warm = Warmup.run(client, plugin);
    log.info("warmed up in {} ms ({} of {} recorded histories replayed{})", warm.took().toMillis(), warm.replayed(),
        Warmup.HISTORIES.size(), warm.failures().isEmpty() ? "" : "; " + warm.failures().get(0));
    factory.start();
    String ready = env.get(WorkerSettings.READY_FILE);
    if (ready != null && !ready.isBlank()) {
      try {
        java.nio.file.Files.writeString(java.nio.file.Path.of(ready), identity + "\n");
      } catch (java.io.IOException e) {
        log.warn("{}: cannot write {}: {}", WorkerSettings.READY_FILE, ready, e.toString());
      }
    }
    log.info("worker started: identity {}, Temporal {} namespace {}, task queues {}, {} and {}, sticky execution {}, "
            + "virtual threads {}{}",
        identity, connection.address(), connection.namespace(),
        io.durableagents.workflows.TaskQueues.SIMULATIONS, io.durableagents.workflows.TaskQueues.AGENTS,
        io.durableagents.workflows.TaskQueues.LLM, sticky ? "on" : "off",
        WorkerSettings.virtualThreads(env, Runtime.version().feature() >= 21) ? "on"
            : Runtime.version().feature() >= 21 ? "off" : "off (JVM < 21)",
        metrics == null ? "" : ", metrics on :" + metrics.port() + "/metrics");
    plugin.tracing().ifPresent(t -> log.info("traces: {}", t.describe()));
    if (metrics != null && !WorkerSettings.virtualThreads(env, Runtime.version().feature() >= 21)) {
      watchThreadEvictions(metrics, plugin.workflowThreads());
    }
    stopped.await();
    return 0;
  }
}
