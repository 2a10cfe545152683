package io.durableagents.starter;

import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.worker.Warmup;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Durable Agents worker in the test's own JVM: the plugin configured from {@code env} as the {@code worker}
 * command configures it from its environment (the rules model and its delay, the execution journal, the
 * LLM rate limit, {@code TEMPORAL_ADDRESS} and {@code TEMPORAL_NAMESPACE}...), warmed up as the command warms
 * up, then polling. For a test whose worker's own process is not what it tests: a worker that a test kills
 * with {@code kill -9} needs a process ({@link OnSharedDevServer#start}); one that only runs, survives the
 * server's restart or gives a reference run does not, and starts in a fraction of a JVM's start. Its journal
 * lines carry this JVM's pid. {@link #close} stops it.
 *
 * <pre>{@code
 * try (WorkerInThisJvm worker = WorkerInThisJvm.start("ref-worker", temporal.env(Map.of(
 *     "DURABLE_AGENTS_EXECUTION_LOG", journal.toString())))) {
 *   CliFailuresTest.run(temporal.env(), "simulate", "--steps", "3");
 * }
 * }</pre>
 */
public final class WorkerInThisJvm implements AutoCloseable {
  private final String identity;
  private final WorkflowServiceStubs service;
  private final WorkerFactory factory;

  private WorkerInThisJvm(String identity, WorkflowServiceStubs service, WorkerFactory factory) {
    this.identity = identity;
    this.service = service;
    this.factory = factory;
  }

  /** Starts a worker named {@code identity} configured from {@code env} alone (not this JVM's variables). */
  public static WorkerInThisJvm start(String identity, Map<String, String> env) {
    TemporalConnection connection = TemporalConnection.fromEnvironment(env);
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().configureFromEnvironment(env)
          .configureFromClasspath().build();
      WorkflowClient client = connection.client(service, identity, plugin);
      WorkerFactory factory = WorkerFactory.newInstance(client);
      Warmup.run(client, plugin);
      factory.start();
      return new WorkerInThisJvm(identity, service, factory);
    } catch (RuntimeException e) {
      service.shutdownNow();
      throw e;
    }
  }

  /**
   * Starts a worker on {@code namespace}, named {@code identity}, with this JVM's variables and then {@code
   * extraEnv} and the namespace's address and name over them, as a worker process the test started would
   * inherit them ({@code DURABLE_AGENTS_EXECUTION_LOG}, the model's settings, ...).
   */
  public static WorkerInThisJvm start(OnSharedDevServer namespace, String identity, Map<String, String> extraEnv) {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.putAll(namespace.env(extraEnv));
    return start(identity, env);
  }

  /** The identity it polls with (what the histories record for the tasks it took). */
  public String identity() {
    return identity;
  }

  /** Stops polling at once and waits for the tasks in hand to be given up; closes its connection. */
  @Override
  public void close() {
    factory.shutdownNow();
    factory.awaitTermination(20, TimeUnit.SECONDS);
    service.shutdownNow();
  }
}
