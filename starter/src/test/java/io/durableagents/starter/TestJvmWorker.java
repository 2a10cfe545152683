package io.durableagents.starter;

import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.TemporalConnection;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A worker in the test JVM, configured from the environment as the {@code worker} command configures its
 * own (this JVM's variables, then {@code extraEnv}, then the namespace's address and name): for a test
 * whose worker's own process is not the point (an undisturbed reference run, the worker that takes over
 * from a killed one). A worker JVM's start costs seconds of CPU on a loaded machine; this one polls at once.
 *
 * <pre>{@code
 * try (TestJvmWorker w = TestJvmWorker.start(temporal, "reference", Map.of())) { ... }
 * }</pre>
 */
final class TestJvmWorker implements AutoCloseable {
  private final WorkerFactory factory;
  private final WorkflowServiceStubs service;

  private TestJvmWorker(WorkerFactory factory, WorkflowServiceStubs service) {
    this.factory = factory;
    this.service = service;
  }

  /**
   * Starts a worker on {@code namespace}, named {@code identity} (its pid is this JVM's, as an execution
   * journal records it), with {@code extraEnv} over this JVM's variables ({@code
   * DURABLE_AGENTS_EXECUTION_LOG}, the model's settings, ...).
   */
  static TestJvmWorker start(OnSharedDevServer namespace, String identity, Map<String, String> extraEnv) {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.putAll(namespace.env(extraEnv));
    TemporalConnection connection = TemporalConnection.fromEnvironment(env);
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().configureFromEnvironment(env)
          .configureFromClasspath().build();
      WorkerFactory factory = WorkerFactory.newInstance(connection.client(service,
          ProcessHandle.current().pid() + "@" + identity, plugin));
      factory.start();
      return new TestJvmWorker(factory, service);
    } catch (RuntimeException e) {
      service.shutdownNow();
      throw e;
    }
  }

  /** Stops polling and ends the tasks in flight (as a worker process's end would), then the connection. */
  @Override
  public void close() {
    factory.shutdownNow();
    factory.awaitTermination(20, TimeUnit.SECONDS);
    service.shutdownNow();
  }
}
