package io.durableagents.starter;

import io.durableagents.starter.local.ChildProcesses;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class's namespace on the JVM's {@link SharedDevServer}, as a JUnit extension: registered before
 * the class's {@code @BeforeAll} methods run, with stubs and a client of it, and the processes the class
 * starts in it ({@link #start}: workers, commands). After the class's {@code @AfterAll} methods, those
 * processes are killed, the runs the class left open are terminated and the stubs shut down. The server
 * itself stays up for the JVM's next class.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final OnSharedDevServer temporal = new OnSharedDevServer("my-test");
 * ...
 * Process worker = temporal.start("384m", log, Map.of(), "worker");
 * temporal.client().newUntypedWorkflowStub(id).getResult(SimulationResult.class);
 * }</pre>
 */
public final class OnSharedDevServer implements BeforeAllCallback, AfterAllCallback {
  private final String name;
  private SharedDevServer.Namespace namespace;
  private WorkflowServiceStubs service;
  private WorkflowClient client;
  private final List<Process> processes = new ArrayList<>();

  /** The class's namespace is named {@code name} (made unique in the JVM). */
  public OnSharedDevServer(String name) {
    this.name = name;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    namespace = SharedDevServer.namespace(name);
  }

  @Override
  public void afterAll(ExtensionContext context) throws InterruptedException {
    try {
      stopProcesses();
      if (namespace != null) {
        namespace.terminateOpenRuns();
      }
    } finally {
      if (service != null) {
        service.shutdownNow();
      }
    }
  }

  /**
   * Starts {@code durable-agents <args>} in a JVM of its own (at most {@code maxHeap} of heap, its output
   * to {@code log}) with {@link #env()} and {@code extraEnv}; killed after the class, or by {@link
   * #stopProcesses}.
   */
  public synchronized Process start(String maxHeap, Path log, Map<String, String> extraEnv, String... args) {
    Process p = ChildProcesses.start(maxHeap, log.toFile(), env(extraEnv), args);
    processes.add(p);
    return p;
  }

  /**
   * Kills ({@code kill -9}) every process {@link #start} started and still running, and waits for each: a
   * worker left polling would take the next test's tasks.
   */
  public synchronized void stopProcesses() throws InterruptedException {
    for (Process p : processes) {
      p.destroyForcibly().waitFor();
    }
    processes.clear();
  }

  /** Terminates the runs still open in the namespace (one a failed test left going, say). */
  public void terminateOpenRuns() {
    namespace.terminateOpenRuns();
  }

  /** The namespace, its address and ports. */
  public SharedDevServer.Namespace namespace() {
    return namespace;
  }

  /** The namespace's name. */
  public String name() {
    return namespace.name();
  }

  /** {@code 127.0.0.1:<port>}. */
  public String address() {
    return namespace.address();
  }

  public int port() {
    return namespace.port();
  }

  /** {@code TEMPORAL_ADDRESS} and {@code TEMPORAL_NAMESPACE}. */
  public Map<String, String> env() {
    return namespace.env();
  }

  /** {@link #env()} with {@code more}. */
  public Map<String, String> env(Map<String, String> more) {
    return namespace.env(more);
  }

  /** Stubs to the server, shut down after the class. */
  public synchronized WorkflowServiceStubs service() {
    if (service == null) {
      service = namespace.service();
    }
    return service;
  }

  /** A client of the namespace. */
  public synchronized WorkflowClient client() {
    if (client == null) {
      client = namespace.client(service());
    }
    return client;
  }
}
