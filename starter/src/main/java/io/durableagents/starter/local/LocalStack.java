package io.durableagents.starter.local;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import io.durableagents.starter.Interrupts;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.worker.TemporalConnection;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The processes a first run needs, started as child JVMs: the embedded Temporal (only when the
 * connection is the default address, or the port a command was given, and nothing listens there yet) and
 * a worker. Closing it stops
 * them, the worker first so that it finishes its in-flight tasks before the server goes.
 *
 * <pre>{@code
 * try (LocalStack stack = LocalStack.start(connection, Path.of("runs", "demo"), "demo")) {
 *   // start workflows through connection.client(...)
 * }
 * }</pre>
 */
public final class LocalStack implements AutoCloseable {
  /** How long the worker has to finish its in-flight tasks before it is killed. */
  static final long WORKER_GRACE_SECONDS = 30;
  /** How long the dev-server process has to stop its Temporal (which gets 30 s to close its database). */
  static final long SERVER_GRACE_SECONDS = 45;

  /** How much longer a child has to stop when it writes its class-data archive at exit (its first run, JDK 17). */
  static final long ARCHIVE_GRACE_SECONDS = 90;
  /** How long a worker started beside its Temporal waits for it ({@code worker --wait-for-temporal}). */
  static final long WORKER_WAITS_FOR_SERVER_SECONDS = 300;

  private final List<Process> started = new ArrayList<>();
  /** The class-data sharing archive of each child, settled once it exited. */
  private final Map<Process, ClassDataArchive> archives = new java.util.concurrent.ConcurrentHashMap<>();
  /** The children that came up (the server announced itself, the worker polled): their first-run archive is kept. */
  private final java.util.Set<Process> cameUp = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final Thread cleanup = new Thread(this::stopGracefully, "durable-agents-stop-children");
  private volatile boolean ownsServer;
  private volatile Process server;
  private volatile boolean serverInMemory;

  private LocalStack() {
    Runtime.getRuntime().addShutdownHook(cleanup);
  }

  /**
   * Starts what is missing, logging to {@code logs}.
   *
   * @throws IllegalStateException when the embedded Temporal does not come up
   */
  static LocalStack start(TemporalConnection connection, Path logs, String command)
      throws IOException, InterruptedException {
    return start(connection, logs, command, Map.of());
  }

  /** As {@link #start(TemporalConnection, Path, String)}, with {@code workerEnv} added to the worker's environment. */
  public static LocalStack start(TemporalConnection connection, Path logs, String command,
      Map<String, String> workerEnv) throws IOException, InterruptedException {
    return start(connection, null, logs, command, workerEnv);
  }

  /**
   * The worker's model settings (DURABLE_AGENTS_LLM_TIMEOUT, _RETRY_BUDGET, _MAX_OUTPUT_TOKENS, the
   * base URLs), checked before anything starts: a bad value is this command's one-line usage error,
   * naming the variable, instead of a worker that exits while the command waits for its run.
   */
  static void checkModelSettings(Map<String, String> workerEnv) {
    Map<String, String> env = Environment.variablesWith(workerEnv);
    try {
      io.durableagents.activities.llm.LlmSettings.fromEnvironment(env);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage(e.getMessage(), "Fix or unset the variable: docs/configuration.md lists "
          + "the worker's settings.");
    }
    try {
      ClassDataArchive.enabled(env);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage(e.getMessage(), "Unset it (on: the child JVMs share a class-data archive in "
          + "the data directory), or set it to off.");
    }
    try {
      ChildJvmTuning.fromEnvironment(env);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage(e.getMessage(), "Unset it (start-up: the child JVMs on C1 and the serial "
          + "collector), or set it to peak (the JVM's own defaults).");
    }
  }

  /**
   * Starts child {@code args[0]} with its class-data sharing archive (made on its first run, mapped after:
   * {@link ClassDataArchive}, off with {@value ClassDataArchive#VARIABLE}{@code =off}).
   */
  private Process startChild(String maxHeap, File log, Map<String, String> env, String... args) {
    String java = ChildProcesses.javaBinary();
    int feature = Runtime.version().feature();
    ClassDataArchive archive = ClassDataArchive.forChildOfThisJar(env, java, feature, args[0]);
    Process p = ChildProcesses.start(java, feature, maxHeap, log, env, archive.jvmOptions(), args);
    archives.put(p, archive);
    return p;
  }

  /**
   * The ports a command was told to use on this machine ({@code demo --port --ui-port}): the Temporal on
   * 127.0.0.1:{@code port} is used when one listens there, else started there, its UI on {@code uiPort}
   * (null: {@code port} + 1000, as the Temporal CLI does).
   */
  record Ports(int port, Integer uiPort) {
    /** The arguments of the {@code dev-server} that listens on these ports. */
    List<String> devServerArgs() {
      List<String> args = new ArrayList<>(List.of("dev-server", "--port", Integer.toString(port)));
      if (uiPort != null) {
        args.addAll(List.of("--ui-port", uiPort.toString()));
      }
      return args;
    }
  }

  /**
   * As {@link #start(TemporalConnection, Path, String, Map)}; with {@code ports} (not null), {@code
   * connection} is 127.0.0.1:{@code ports.port()}, and the Temporal is started there when none listens.
   */
  static LocalStack start(TemporalConnection connection, Ports ports, Path logs, String command,
      Map<String, String> workerEnv) throws IOException, InterruptedException {
    checkModelSettings(workerEnv);
    Files.createDirectories(logs);
    LocalStack stack = new LocalStack();
    // from here on, Ctrl-C stops what was started, in order, and says what became of the run
    stack.stopOnInterrupt(command, connection);
    Process worker = null;
    try {
      int port = ports == null ? 7233 : ports.port();
      if ((ports != null || connection.isDefaultAddress()) && !ChildProcesses.listening("127.0.0.1", port)) {
        File log = logs.resolve("dev-server.log").toFile();
        System.out.println("Starting a Temporal on 127.0.0.1:" + port + " (log: " + log + ")");
        // the log is appended to: only what this server writes counts, not an earlier run's lines
        long earlier = log.exists() ? log.length() : 0;
        Process server = stack.startChild("384m", log, Map.of(),
            ports == null ? new String[] {"dev-server"} : ports.devServerArgs().toArray(new String[0]));
        stack.started.add(server);
        stack.server = server;
        stack.ownsServer = true;
        // the worker's JVM starts beside the server's, and waits for it to answer: the two start at once
        worker = stack.startWorker(logs, workerEnv, true);
        // the dev server says which Temporal it runs (and, falling back to memory, why) in its log
        List<String> said = awaitAnnouncement(log.toPath(), earlier, server, 180_000, line -> {
          System.out.println("  " + line);
          System.out.flush();
        });
        if (said == null) {
          // the dev-server process says why in its log, as its own one-line failure
          String why = WorkerStart.lastLineStartingWith(log.toPath(), earlier, "dev-server: ");
          throw new CommandFailure(Failures.FAILED, "the local Temporal did not start"
              + (why.isEmpty() ? "" : ": " + why.substring("dev-server: ".length())), "See " + log + ".");
        }
        stack.serverInMemory = said.get(said.size() - 1).startsWith("Embedded Temporal");
        stack.cameUp.add(server);
      } else {
        // something listens there: make sure it is Temporal before a worker starts polling it
        io.temporal.serviceclient.WorkflowServiceStubs service = TemporalCheck.connect(connection);
        service.shutdownNow();
        System.out.println("Using the Temporal at " + connection.address() + " ("
            + (ports == null ? connection.addressSource() : "from --port") + ")");
        if (ports != null && ports.uiPort() != null) {
          System.out.println("  (--ui-port is for a Temporal started here; this one runs already, with its own UI)");
        }
      }
      Process w = worker != null ? worker : stack.startWorker(logs, workerEnv, false);
      File workerLog = stack.workerLog.toFile();
      long workerFrom = stack.workerFrom;
      Path ready = stack.workerReady;
      System.out.println("Starting a worker (log: " + workerLog + ")");
      // the run starts once the worker polls: else the run's watch says no worker polls while it starts
      io.temporal.serviceclient.WorkflowServiceStubs watch = io.temporal.serviceclient.WorkflowServiceStubs
          .newServiceStubs(io.temporal.serviceclient.WorkflowServiceStubsOptions.newBuilder()
              .setTarget(connection.address()).build());
      WorkerStart.Outcome outcome;
      try {
        String identity = workerEnv.get(io.durableagents.worker.WorkerSettings.WORKER_IDENTITY);
        outcome = WorkerStart.await(workerLog.toPath(), workerFrom, w, WorkerStart.BOUND_MILLIS, System.out,
            () -> Files.exists(ready) || WorkerStart.listedAsPoller(watch, connection.namespace(),
                io.durableagents.workflows.TaskQueues.AGENTS, w.pid(), identity));
      } finally {
        watch.shutdownNow();
      }
      if (outcome == WorkerStart.Outcome.STARTED) {
        stack.cameUp.add(w);
      }
      if (outcome == WorkerStart.Outcome.EXITED) {
        String why = WorkerStart.lastLine(workerLog.toPath(), workerFrom);
        throw new CommandFailure(Failures.FAILED, "the worker " + command + " started exited (code "
            + w.exitValue() + ") before it polled" + (why.isEmpty() ? "" : ": " + why), "See " + workerLog + ".");
      }
      return stack;
    } catch (InterruptedException | RuntimeException e) {
      stack.close();
      throw e;
    }
  }

  private Path workerLog;
  private long workerFrom;
  private Path workerReady;

  /**
   * Starts the worker, logging to {@code logs/worker.log} (appended to: what it writes from now on is
   * its) and writing {@code logs/worker.ready} once it polls; {@code besideServer}: the server is starting
   * too, and the worker waits for it ({@code worker --wait-for-temporal}).
   */
  private Process startWorker(Path logs, Map<String, String> workerEnv, boolean besideServer) throws IOException {
    workerLog = logs.resolve("worker.log");
    workerFrom = Files.exists(workerLog) ? Files.size(workerLog) : 0;
    workerReady = logs.resolve("worker.ready");
    Files.deleteIfExists(workerReady);
    Map<String, String> env = new java.util.HashMap<>(workerEnv);
    env.put(io.durableagents.worker.WorkerSettings.READY_FILE, workerReady.toAbsolutePath().toString());
    Process worker = besideServer
        ? startChild("512m", workerLog.toFile(), env, "worker", "--wait-for-temporal",
            Long.toString(WORKER_WAITS_FOR_SERVER_SECONDS))
        : startChild("512m", workerLog.toFile(), env, "worker");
    started.add(0, worker);
    return worker;
  }

  /**
   * Makes Ctrl-C stop this stack gracefully (a second Ctrl-C kills it), after saying what becomes of
   * the run and how to keep runs across Ctrl-C.
   */
  void stopOnInterrupt(String command, TemporalConnection connection) {
    Interrupts.install(System.err, () -> interruptMessage(command, connection), this::stopGracefully,
        this::killNow);
  }

  private String interruptMessage(String command, TemporalConnection connection) {
    String id = Interrupts.runId();
    if (id == null) {
      return command + ": interrupted before a run started; stopping what it started (Ctrl-C again to stop "
          + "at once).";
    }
    String run = "run " + id;
    if (ownsServer && serverInMemory) {
      return command + ": interrupted; stopping the worker, then the embedded Temporal (Ctrl-C again to "
          + "stop at once).\n  The embedded Temporal keeps runs in memory: " + run + " ends with it. To keep "
          + "runs across Ctrl-C, run 'durable-agents dev-server' in another terminal and 'simulate' here "
          + "(Ctrl-C then only detaches), or use a persistent Temporal (docs/embedded-temporal.md).";
    }
    if (ownsServer) {
      return command + ": interrupted; stopping the worker, then the Temporal dev server (Ctrl-C again to "
          + "stop at once).\n  The dev server keeps " + run + " in its database: start 'durable-agents "
          + "dev-server' and 'durable-agents worker', then 'attach " + id + "' to go on.";
    }
    return command + ": interrupted; stopping the worker (Ctrl-C again to stop at once).\n  " + run
        + " stays on " + connection.address() + " and goes on when a worker runs: 'durable-agents worker'"
        + (command.equals("demo") ? ", then 'attach " + id + "'." : ", then 'describe " + id + "'.");
  }

  /**
   * The lines the dev-server process prints about the Temporal it runs, up to the one saying where it
   * listens; null when the process dies or {@code timeoutMillis} pass first (a download takes time).
   */
  public static List<String> awaitAnnouncement(Path log, Process server, long timeoutMillis)
      throws InterruptedException {
    return awaitAnnouncement(log, 0, server, timeoutMillis);
  }

  /** As above, reading the log from byte {@code from} on (what was there before the server started is not its). */
  public static List<String> awaitAnnouncement(Path log, long from, Process server, long timeoutMillis)
      throws InterruptedException {
    return awaitAnnouncement(log, from, server, timeoutMillis, line -> { });
  }

  /**
   * As above, handing each line to {@code asSaid} as soon as it is in the log: the lines of a first run's
   * download (its progress) are printed while it runs, not after the server is up.
   */
  public static List<String> awaitAnnouncement(Path log, long from, Process server, long timeoutMillis,
      java.util.function.Consumer<String> asSaid) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    List<String> said = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      try {
        int seen = 0;
        for (String line : linesFrom(log, from)) {
          if (!announces(line)) {
            continue;
          }
          if (seen++ < said.size()) {
            continue; // handed on at an earlier look
          }
          said.add(line);
          asSaid.accept(line);
          if (line.contains(" listening on ")) {
            return said;
          }
        }
      } catch (IOException | java.io.UncheckedIOException e) {
        // being written: read again
      }
      if (!server.isAlive()) {
        return null;
      }
      Thread.sleep(100);
    }
    return null;
  }

  private static boolean announces(String line) {
    return line.startsWith("Embedded Temporal") || line.startsWith("Temporal dev server")
        || line.startsWith("No persistent Temporal") || line.startsWith("Downloading the Temporal CLI")
        || line.startsWith("Temporal's download site");
  }

  private static List<String> linesFrom(Path log, long from) throws IOException {
    if (!Files.exists(log)) {
      return List.of();
    }
    byte[] all = Files.readAllBytes(log);
    int start = (int) Math.min(Math.max(from, 0), all.length);
    String text = new String(all, start, all.length - start, java.nio.charset.StandardCharsets.UTF_8);
    // whole lines only: the last one may be half written
    int end = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
    return end < 0 ? List.of() : List.of(text.substring(0, end).split("\\R"));
  }

  /** Whether this stack started the Temporal it uses (in memory: its runs end with it). */
  boolean ownsServer() {
    return ownsServer;
  }

  /**
   * Stops what it started, the worker first (it finishes its in-flight tasks while the server is still
   * up, at most {@link #WORKER_GRACE_SECONDS}), then the server (which stops its Temporal cleanly: SIGTERM and a
   * wait, at most {@link #SERVER_GRACE_SECONDS}), and waits for each; idempotent.
   */
  synchronized void stopGracefully() {
    try {
      for (Process p : List.copyOf(started)) {
        p.destroy();
        ClassDataArchive archive = archives.get(p);
        // a first run writes its class-data archive at exit (seconds; a minute on a loaded machine)
        long grace = (p == server ? SERVER_GRACE_SECONDS : WORKER_GRACE_SECONDS)
            + (archive != null && archive.makes() ? ARCHIVE_GRACE_SECONDS : 0);
        if (!p.waitFor(grace, TimeUnit.SECONDS)) {
          p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        started.remove(p);
        settleArchive(p);
      }
    } catch (InterruptedException e) {
      killNow();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Once {@code p} exited: the archive its first run made goes into place if it came up (one of a child
   * that failed early would hold too few classes), else is dropped.
   */
  private void settleArchive(Process p) {
    ClassDataArchive archive = archives.remove(p);
    if (archive != null && !p.isAlive()) {
      if (cameUp.contains(p)) {
        archive.settle(p);
      } else {
        archive.discard(p);
      }
    }
  }

  /** Kills what it started, and their children, without waiting. */
  void killNow() {
    for (Process p : List.copyOf(started)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  @Override
  public void close() throws InterruptedException {
    stopGracefully();
    try {
      Runtime.getRuntime().removeShutdownHook(cleanup);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down: the hook runs, and finds nothing left to stop
    }
  }
}
