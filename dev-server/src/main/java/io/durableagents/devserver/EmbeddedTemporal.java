package io.durableagents.devserver;

import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowClientPlugin;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.serviceclient.WorkflowServiceStubsPlugin;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The embedded Temporal with a client of it and a started worker factory, for tests, demos and local
 * development: one object to start and one {@link #close()} that stops everything in the one order that
 * logs nothing. The client is made with the caller's plugins, so a plugin that registers workflows and
 * activities (Durable Agents' {@code DurableAgentsPlugin}, or a {@link io.temporal.common.SimplePlugin}
 * of the caller's own) has its workers running when {@link Builder#start()} returns.
 *
 * <pre>{@code
 * try (EmbeddedTemporal temporal = EmbeddedTemporal.newBuilder()
 *     .setPlugins(DurableAgentsPlugin.newBuilder().build())
 *     .start()) {
 *   AgentTaskWorkflow agent = temporal.client().newWorkflowStub(AgentTaskWorkflow.class,
 *       WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("task-1").build());
 *   AgentTaskResult result = agent.run(new AgentTaskInput("What is 17 * 23?", null, null));
 *   System.out.println(result.answer());
 * } // the workers stop, then the connection, then the server
 * }
 * }</pre>
 *
 * <p>{@code close()} shuts the worker factory down and waits for its in-flight tasks (up to
 * {@link Builder#setShutdownTimeout}), then closes the client's connection, then the server. In any
 * other order the workers' pollers find their server gone and each logs a warning with a stack trace.
 */
public final class EmbeddedTemporal implements AutoCloseable {
  /** How long {@link #close()} waits for the workers' in-flight tasks, unless told otherwise. */
  public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);

  private final DevServer server;
  private final String target;
  private final WorkflowServiceStubs service;
  private final WorkflowClient client;
  private final WorkerFactory workerFactory;
  private final Duration shutdownTimeout;

  private EmbeddedTemporal(DevServer server, String target, WorkflowServiceStubs service,
      WorkflowClient client, WorkerFactory workerFactory, Duration shutdownTimeout) {
    this.server = server;
    this.target = target;
    this.service = service;
    this.client = client;
    this.workerFactory = workerFactory;
    this.shutdownTimeout = shutdownTimeout;
  }

  /** A builder with the defaults: 127.0.0.1, a free port, no plugins. */
  public static Builder newBuilder() {
    return new Builder();
  }

  /** The client, made with the plugins given to the builder. */
  public WorkflowClient client() {
    return client;
  }

  /** The worker factory of {@link #client()}, started. */
  public WorkerFactory workerFactory() {
    return workerFactory;
  }

  /** The client's connection to the server. */
  public WorkflowServiceStubs service() {
    return service;
  }

  /** The server. */
  public DevServer server() {
    return server;
  }

  /** Where the server listens, as {@code host:port}, for clients and workers of other processes. */
  public String target() {
    return target;
  }

  /**
   * Shuts down the worker factory and waits for it, then the client's connection, then the server. It
   * logs nothing when all goes well.
   */
  @Override
  public void close() {
    try {
      workerFactory.shutdown();
      workerFactory.awaitTermination(shutdownTimeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!workerFactory.isTerminated()) {
        workerFactory.shutdownNow();
        workerFactory.awaitTermination(shutdownTimeout.toMillis(), TimeUnit.MILLISECONDS);
      }
      service.shutdown();
      service.awaitTermination(shutdownTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      service.shutdownNow();
      server.close();
    }
  }

  /** How to start an {@link EmbeddedTemporal}; every setting has a default. */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port;
    private final List<WorkflowClientPlugin> plugins = new ArrayList<>();
    private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;

    private Builder() {}

    /** The address to listen on; 127.0.0.1 by default. */
    public Builder setHost(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /** The port to listen on; 0 (the default) lets the system choose a free one. */
    public Builder setPort(int port) {
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException("port must be between 0 and 65535, was " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * The plugins of the client, and so of the worker factory: each one that is also a worker plugin
     * (as {@link io.temporal.common.SimplePlugin}s are) configures the workers, and each one that is a
     * service stubs plugin configures the connection. Replaces any set before.
     */
    public Builder setPlugins(WorkflowClientPlugin... plugins) {
      this.plugins.clear();
      this.plugins.addAll(Arrays.asList(plugins));
      return this;
    }

    /** How long {@link #close()} waits for the workers' in-flight tasks; 10 s by default. */
    public Builder setShutdownTimeout(Duration shutdownTimeout) {
      if (shutdownTimeout.isNegative()) {
        throw new IllegalArgumentException("shutdownTimeout must not be negative, was " + shutdownTimeout);
      }
      this.shutdownTimeout = shutdownTimeout;
      return this;
    }

    /**
     * Starts the server, connects a client with the plugins and starts a worker factory of it.
     *
     * @throws java.io.UncheckedIOException when the port is taken
     */
    public EmbeddedTemporal start() {
      DevServer server = DevServer.start(host, port);
      String target = host + ":" + server.port();
      WorkflowServiceStubs service = null;
      try {
        service = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
            .setTarget(target)
            .setPlugins(plugins.stream().filter(WorkflowServiceStubsPlugin.class::isInstance)
                .map(WorkflowServiceStubsPlugin.class::cast).toArray(WorkflowServiceStubsPlugin[]::new))
            .build());
        // the client takes over the connection's plugins by itself: give it only the others
        WorkflowClient client = WorkflowClient.newInstance(service, WorkflowClientOptions.newBuilder()
            .setPlugins(plugins.stream().filter(p -> !(p instanceof WorkflowServiceStubsPlugin))
                .toArray(WorkflowClientPlugin[]::new))
            .build());
        WorkerFactory factory = WorkerFactory.newInstance(client);
        factory.start();
        return new EmbeddedTemporal(server, target, service, client, factory, shutdownTimeout);
      } catch (RuntimeException e) {
        if (service != null) {
          service.shutdownNow();
        }
        server.close();
        throw e;
      }
    }
  }
}
