package io.durableagents.examples.boltzmann;

import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.TemporalConnection;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker of your own for the Boltzmann wealth scenario: the Durable Agents plugin, configured from
 * the environment ({@code OPENAI_API_KEY}, {@code DURABLE_AGENTS_*}), with this scenario registered,
 * connected to {@code TEMPORAL_ADDRESS} (default {@code 127.0.0.1:7233}) and running until SIGTERM,
 * which lets it finish its in-flight tasks first.
 *
 * <pre>{@code
 * TEMPORAL_ADDRESS=127.0.0.1:7233 java -cp target/boltzmann-wealth.jar \
 *     io.durableagents.examples.boltzmann.BoltzmannWorker
 * }</pre>
 */
public final class BoltzmannWorker {
  private static final Logger log = LoggerFactory.getLogger(BoltzmannWorker.class);

  private BoltzmannWorker() {}

  public static void main(String[] args) throws InterruptedException {
    Map<String, String> env = System.getenv();
    DurableAgentsPlugin plugin;
    try {
      plugin = DurableAgentsPlugin.newBuilder()
          .configureFromEnvironment(env)
          .registerScenario(new BoltzmannScenario(), new BoltzmannActions(), new BoltzmannRulePolicy())
          .build();
    } catch (IllegalArgumentException e) {
      // a bad setting stops the worker at once, naming the setting and what is allowed
      System.err.println("boltzmann worker: bad configuration: " + e.getMessage());
      System.exit(2);
      return;
    }
    TemporalConnection connection = TemporalConnection.fromEnvironment(env);
    WorkflowServiceStubs service = connection.connect(null);
    WorkflowClient client = connection.client(service, plugin);
    WorkerFactory factory = WorkerFactory.newInstance(client);

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      log.info("stopping: finishing in-flight tasks");
      factory.shutdown();
      factory.awaitTermination(20, TimeUnit.SECONDS);
      service.shutdown();
      stopped.countDown();
    }, "boltzmann-worker-shutdown"));

    factory.start();
    log.info("worker started: Temporal {} namespace {}, scenarios {}", connection.address(),
        connection.namespace(), plugin.scenarioNames());
    stopped.await();
  }
}
