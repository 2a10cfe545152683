package io.durableagents.starter;

import io.durableagents.worker.TemporalConnection;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The processes a first run needs, started as child JVMs: the embedded Temporal (only when the
 * connection is the default address and nothing listens there yet) and a worker. Closing it stops
 * them, the worker first so that it finishes its in-flight tasks before the server goes.
 *
 * <pre>{@code
 * try (LocalStack stack = LocalStack.start(connection, Path.of("runs", "demo"), "demo")) {
 *   // start workflows through connection.client(...)
 * }
 * }</pre>
 */
final class LocalStack implements AutoCloseable {
  private final List<Process> started = new ArrayList<>();
  private final Thread cleanup = new Thread(() -> started.forEach(Process::destroy));

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
    Files.createDirectories(logs);
    LocalStack stack = new LocalStack();
    try {
      if (connection.isDefaultAddress() && !ChildProcesses.listening("127.0.0.1", 7233)) {
        File log = logs.resolve("dev-server.log").toFile();
        System.out.println("Starting the embedded Temporal on 127.0.0.1:7233 (log: " + log + ")");
        Process server = ChildProcesses.start("384m", log, Map.of(), "dev-server");
        stack.started.add(server);
        if (!ChildProcesses.awaitListening("127.0.0.1", 7233, server, 30_000)) {
          throw new IllegalStateException(command + ": the embedded Temporal did not start; see " + log);
        }
      } else {
        System.out.println("Using the Temporal at " + connection.address());
      }
      File workerLog = logs.resolve("worker.log").toFile();
      System.out.println("Starting a worker (log: " + workerLog + ")");
      stack.started.add(0, ChildProcesses.start("512m", workerLog, Map.of(), "worker"));
      return stack;
    } catch (InterruptedException | RuntimeException e) {
      stack.close();
      throw e;
    }
  }

  @Override
  public void close() throws InterruptedException {
    for (Process p : started) {
      p.destroy();
      p.waitFor();
    }
    started.clear();
    Runtime.getRuntime().removeShutdownHook(cleanup);
  }
}
