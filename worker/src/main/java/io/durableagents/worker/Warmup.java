package io.durableagents.worker;

import io.durableagents.workflows.TaskQueues;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays a few recorded histories (a simulation, an agent step, a group step of the built-in
 * Epstein scenario; shipped in the scenarios jar, under this package's {@code warmup/}) with the
 * plugin's workflows before a worker polls, so that the classes, Jackson's serializers for our
 * records and the SDK's replay code are loaded and partly compiled when the first real tasks
 * arrive. A worker started after another was killed takes over hundreds of workflows at once and
 * replays their histories; cold, the simulation's own replay took longer than its workflow task
 * timeout on a busy machine. It never delays polling by more than {@link #AT_MOST}, and a history
 * that does not replay (another version of the workflows, or no scenarios jar on the classpath) is
 * skipped: the warm-up is an optimisation, never a failure.
 *
 * <pre>{@code
 * Warmup.Result r = Warmup.run(client, plugin); // before WorkerFactory.start()
 * }</pre>
 */
public final class Warmup {
  /** The longest a warm-up may hold a worker back from polling. */
  public static final Duration AT_MOST = Duration.ofSeconds(2);

  /** The shipped histories and the workflow ids they were recorded under (child ids derive from them). */
  static final java.util.Map<String, String> HISTORIES = java.util.Map.of(
      "warmup/simulation.json", "sim-epstein-replay",
      "warmup/agent-step.json", "sim-epstein-replay/agent-citizen-0/step-2",
      "warmup/agent-group-step.json", "sim-epstein-replay-groups/step-2/group-1");

  private static final Logger log = LoggerFactory.getLogger(Warmup.class);

  /**
   * What a warm-up did.
   *
   * @param replayed histories replayed whole
   * @param failures the histories that did not replay, with why
   * @param took how long the caller waited for it
   */
  public record Result(int replayed, List<String> failures, Duration took) {}

  private Warmup() {}

  /**
   * Replays the shipped histories with {@code plugin}'s workflows through {@code client}'s data
   * converter, waiting at most {@link #AT_MOST} (a replay still running goes on in the background).
   */
  public static Result run(WorkflowClient client, DurableAgentsPlugin plugin) {
    return run(client, plugin, AT_MOST);
  }

  static Result run(WorkflowClient client, DurableAgentsPlugin plugin, Duration atMost) {
    long start = System.nanoTime();
    AtomicInteger replayed = new AtomicInteger();
    List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    Thread thread = new Thread(() -> {
      WorkerFactory factory = WorkerFactory.newInstance(client);
      try {
        Worker worker = factory.newWorker("durable-agents-warmup-" + UUID.randomUUID());
        plugin.initializeWorker(TaskQueues.AGENTS, worker);
        for (java.util.Map.Entry<String, String> h : new java.util.TreeMap<>(HISTORIES).descendingMap().entrySet()) {
          String name = h.getKey();
          try {
            worker.replayWorkflowExecution(read(name, h.getValue()));
            replayed.incrementAndGet();
          } catch (Exception | LinkageError e) {
            failures.add(name + ": " + e);
            log.debug("warm-up: {} did not replay: {}", name, e.toString());
          }
        }
      } finally {
        factory.shutdownNow();
      }
    }, "durable-agents-warmup");
    thread.setDaemon(true);
    thread.start();
    try {
      thread.join(atMost.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return new Result(replayed.get(), List.copyOf(failures), Duration.ofNanos(System.nanoTime() - start));
  }

  private static WorkflowExecutionHistory read(String name, String workflowId) throws IOException {
    try (InputStream in = Warmup.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("no resource " + name);
      }
      // protobuf's own JSON parser: the SDK's fromJson needs json-path, which the worker's jar leaves out
      io.temporal.api.history.v1.History.Builder history = io.temporal.api.history.v1.History.newBuilder();
      com.google.protobuf.util.JsonFormat.parser().ignoringUnknownFields()
          .merge(new String(in.readAllBytes(), StandardCharsets.UTF_8), history);
      return new WorkflowExecutionHistory(history.build(), workflowId);
    }
  }
}
