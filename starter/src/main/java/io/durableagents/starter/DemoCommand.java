package io.durableagents.starter;

import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The first run: starts the embedded Temporal (unless one already listens on 127.0.0.1:7233) and a
 * worker, each in its own JVM, runs a simulation through them over gRPC, and stops what it started.
 */
@Command(name = "demo",
    description = "Start the embedded Temporal and a worker (each its own process), run a simulation "
        + "through them, and stop them again. Defaults: Epstein civil violence, the offline rules model.")
final class DemoCommand implements Callable<Integer> {
  @Mixin
  SimulationOptions options;

  @Override
  public Integer call() throws Exception {
    SimulationInput input;
    try {
      input = options.toInput();
    } catch (IllegalArgumentException e) {
      System.err.println("demo: " + e.getMessage());
      return 2;
    }
    TemporalConnection connection = TemporalConnection.fromEnvironment();
    Path logs = Files.createDirectories(Path.of("runs", "demo"));
    List<Process> started = new ArrayList<>();
    Thread cleanup = new Thread(() -> started.forEach(Process::destroy));
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      if (connection.isDefaultAddress() && !ChildProcesses.listening("127.0.0.1", 7233)) {
        File log = logs.resolve("dev-server.log").toFile();
        System.out.println("Starting the embedded Temporal on 127.0.0.1:7233 (log: " + log + ")");
        Process server = ChildProcesses.start("384m", log, Map.of(), "dev-server");
        started.add(server);
        if (!ChildProcesses.awaitListening("127.0.0.1", 7233, server, 30_000)) {
          System.err.println("demo: the embedded Temporal did not start; see " + log);
          return 1;
        }
      } else {
        System.out.println("Using the Temporal at " + connection.address());
      }
      File workerLog = logs.resolve("worker.log").toFile();
      System.out.println("Starting a worker (log: " + workerLog + ")");
      started.add(0, ChildProcesses.start("512m", workerLog, Map.of(), "worker"));

      WorkflowServiceStubs service = connection.connect(null);
      try {
        WorkflowClient client = connection.client(service);
        return SimulateCommand.run(connection, client, input, options.id, false);
      } finally {
        service.shutdown();
      }
    } finally {
      // the worker first (it finishes its in-flight tasks), then the server it talks to
      for (Process p : started) {
        p.destroy();
        p.waitFor();
      }
      Runtime.getRuntime().removeShutdownHook(cleanup);
    }
  }

}
