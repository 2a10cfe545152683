package io.durableagents.testkit;

import io.durableagents.devserver.DevServer;
import io.durableagents.devserver.LocalTemporal;
import io.durableagents.devserver.TemporalCli;
import io.durableagents.worker.ExecutionJournal;
import io.durableagents.worker.WorkerSettings;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A harness for the test every durable program deserves: kill its worker with {@code kill -9} in the
 * middle of a run, start another, and check that the run ends as if nothing happened and that no
 * activity that had completed ran again.
 *
 * <p>It runs Temporal's real dev server (the Temporal CLI's {@code server start-dev}, found as {@link
 * TemporalCli} finds it: {@code DURABLE_AGENTS_TEMPORAL_CLI}, the {@code PATH}, a checkout's {@code
 * .ci/temporal}) on free ports with its runs in a SQLite file of {@code directory}; where this machine
 * has no Temporal CLI, the embedded Temporal ({@link DevServer}, which times out a dead worker's sticky
 * queue as a real server does) in this JVM, said on standard error. {@link #realServer()} tells which.
 * Your worker's {@code main} runs in child JVMs on this
 * JVM's classpath (Maven's test classpath under Surefire), each with {@code TEMPORAL_ADDRESS} set to the
 * server and {@code DURABLE_AGENTS_EXECUTION_LOG} set to one shared {@link ExecutionJournal}, which
 * records every activity attempt with the worker's process id. Wait on the journal (never a fixed
 * sleep) to kill a worker at a chosen point of the run.
 *
 * <pre>{@code
 * try (KillNineHarness harness = KillNineHarness.start(Path.of("target", "kill-nine"))) {
 *   KillNineHarness.ChildWorker first = harness.startWorker(WealthWorker.class);
 *   SimulationWorkflow sim = DurableAgentsTestEnvironment.simulation(harness.client(), "wealth-crash");
 *   WorkflowClient.start(sim::run, SimulationInput.of("wealth", 20, 42));
 *   harness.awaitCompletedActivities(100, Duration.ofSeconds(60));
 *   first.kill();                                   // SIGKILL: no shutdown hook runs
 *   harness.startWorker(WealthWorker.class);
 *   SimulationResult result = harness.client().newUntypedWorkflowStub("wealth-crash")
 *       .getResult(SimulationResult.class);
 *   ExecutionJournalCheck.Report report = harness.assertNoCompletedActivityRanAgain("wealth-crash");
 * }
 * }</pre>
 *
 * <p>A call in flight when its worker died is retried once Temporal notices: after the activity's
 * heartbeat timeout (10 seconds for LLM and tool calls), so a killed run takes that much longer.
 */
public final class KillNineHarness implements AutoCloseable {
  /** The JVM options of a child worker unless {@link #setWorkerJvmOptions} says otherwise: small and quick to start. */
  public static final List<String> DEFAULT_WORKER_JVM_OPTIONS =
      List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private final Path directory;
  private final Path journal;
  private final AutoCloseable server;
  private final String address;
  private final boolean realServer;
  private final WorkflowServiceStubs service;
  private final WorkflowClient client;
  private final List<ChildWorker> workers = new ArrayList<>();
  private List<String> workerJvmOptions = DEFAULT_WORKER_JVM_OPTIONS;

  private KillNineHarness(Path directory, AutoCloseable server, String address, boolean realServer) {
    this.directory = directory;
    this.journal = directory.resolve("execution-journal.log");
    this.server = server;
    this.address = address;
    this.realServer = realServer;
    this.service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget(address()).build());
    this.client = WorkflowClient.newInstance(service, WorkflowClientOptions.newBuilder().build());
  }

  /**
   * Starts the embedded Temporal on a free port of 127.0.0.1. The execution journal and the workers'
   * logs go to {@code directory} (created; a journal left there by an earlier run is deleted).
   */
  public static KillNineHarness start(Path directory) {
    try {
      Files.createDirectories(directory);
      Files.deleteIfExists(directory.resolve("execution-journal.log"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare " + directory.toAbsolutePath(), e);
    }
    java.util.Optional<Path> cli = TemporalCli.find(System.getenv(), Path.of(""));
    if (cli.isPresent()) {
      Path db = directory.resolve("temporal.db");
      try {
        for (String suffix : List.of("", "-wal", "-shm")) {
          Files.deleteIfExists(directory.resolve("temporal.db" + suffix));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot delete an earlier " + db.toAbsolutePath(), e);
      }
      LocalTemporal temporal = LocalTemporal.startDevServer(cli.get(), db, line -> { });
      try {
        return new KillNineHarness(directory, temporal, temporal.target(), true);
      } catch (RuntimeException e) {
        temporal.close();
        throw e;
      }
    }
    System.err.println("KillNineHarness: no Temporal CLI here (set " + LocalTemporal.CLI_VARIABLE
        + " or put 'temporal' on the PATH); using the embedded in-memory Temporal");
    DevServer server = DevServer.start("127.0.0.1", 0);
    try {
      return new KillNineHarness(directory, server, "127.0.0.1:" + server.port(), false);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** The server's address, {@code 127.0.0.1:<port>}: what the workers get as {@code TEMPORAL_ADDRESS}. */
  public String address() {
    return address;
  }

  /** Whether the run is on Temporal's real dev server (true) or on the embedded in-memory Temporal. */
  public boolean realServer() {
    return realServer;
  }

  /** A client of the server (default namespace, no plugin): start runs and read their results with it. */
  public WorkflowClient client() {
    return client;
  }

  /** The execution journal that every worker started here writes to. */
  public Path journal() {
    return journal;
  }

  /** The JVM options of the workers started from now on (heap, GC, an agent, ...). */
  public KillNineHarness setWorkerJvmOptions(List<String> options) {
    this.workerJvmOptions = List.copyOf(options);
    return this;
  }

  /** Starts {@code mainClass}'s {@code main} as a worker in a child JVM. */
  public ChildWorker startWorker(Class<?> mainClass) {
    return startWorker(mainClass, Map.of());
  }

  /**
   * Starts {@code mainClass}'s {@code main} as a worker in a child JVM, with {@code env} added to its
   * environment (e.g. {@code DURABLE_AGENTS_RULES_DELAY_MS}, so that the rules model takes a moment and
   * calls are in flight when the worker is killed). Its output goes to {@code worker-<n>.log}.
   */
  public ChildWorker startWorker(Class<?> mainClass, Map<String, String> env) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(workerJvmOptions);
    command.add("-cp");
    command.add(classpath());
    command.add(mainClass.getName());
    Path log = directory.resolve("worker-" + (workers.size() + 1) + ".log");
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
    Map<String, String> childEnv = new HashMap<>(env);
    childEnv.put("TEMPORAL_ADDRESS", address());
    childEnv.put(WorkerSettings.EXECUTION_LOG, journal.toAbsolutePath().toString());
    pb.environment().putAll(childEnv);
    try {
      ChildWorker worker = new ChildWorker(pb.start(), log);
      workers.add(worker);
      return worker;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command, e);
    }
  }

  /** How many activity executions the journal records as done so far, by every worker. */
  public long completedActivities() {
    return ExecutionJournalCheck.completedExecutions(journal);
  }

  /**
   * Waits until the journal records at least {@code count} activity executions as done, in total.
   *
   * @throws AssertionError when {@code timeout} passes first, or every worker started here has died
   */
  public long awaitCompletedActivities(long count, Duration timeout) throws InterruptedException {
    await(() -> completedActivities() >= count, timeout,
        () -> count + " completed activities in the journal (" + completedActivities() + " so far)");
    return completedActivities();
  }

  /**
   * Waits until {@code condition} holds, checking it every 10 ms.
   *
   * @throws AssertionError when {@code timeout} passes first, or every worker started here has died
   */
  public void await(BooleanSupplier condition, Duration timeout, Supplier<String> what)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("waited " + timeout + " for " + what.get());
      }
      if (!workers.isEmpty() && workers.stream().noneMatch(w -> w.process.isAlive())) {
        throw new AssertionError("every worker died while waiting for " + what.get() + "; see "
            + workers.get(workers.size() - 1).log().toAbsolutePath());
      }
      Thread.sleep(10);
    }
  }

  /**
   * Checks, from the histories of {@code workflowId}'s finished run and the journal, that no activity
   * that had completed ran again; see {@link ExecutionJournalCheck}.
   */
  public ExecutionJournalCheck.Report assertNoCompletedActivityRanAgain(String workflowId) {
    return ExecutionJournalCheck.assertNoCompletedActivityRanAgain(client, workflowId, journal);
  }

  /** Kills every worker still running, then stops the server. */
  @Override
  public void close() {
    for (ChildWorker w : workers) {
      w.kill();
    }
    service.shutdownNow();
    try {
      server.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop the Temporal at " + address + ": " + e.getMessage(), e);
    }
  }

  /** The classpath of this JVM: Maven's test classpath under Surefire, else {@code java.class.path}. */
  static String classpath() {
    String surefire = System.getProperty("surefire.test.class.path");
    return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
  }

  /** A worker running in a child JVM. */
  public static final class ChildWorker {
    private final Process process;
    private final Path log;

    private ChildWorker(Process process, Path log) {
      this.process = process;
      this.log = log;
    }

    /** Its process id: the one its lines in the execution journal carry. */
    public long pid() {
      return process.pid();
    }

    /** Where its output goes. */
    public Path log() {
      return log;
    }

    public boolean isAlive() {
      return process.isAlive();
    }

    /**
     * {@code kill -9}: SIGKILL, so no shutdown hook runs and Temporal is told nothing; returns once the
     * process is gone.
     */
    public void kill() {
      process.destroyForcibly();
      try {
        process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /**
     * SIGTERM, as {@code docker stop} or Kubernetes send: the worker's shutdown hook finishes its
     * in-flight tasks. Returns its exit code, or throws when it has not stopped within {@code timeout}.
     */
    public int stop(Duration timeout) throws InterruptedException {
      process.destroy();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("the worker did not stop within " + timeout + "; see " + log.toAbsolutePath());
      }
      return process.exitValue();
    }
  }
}
