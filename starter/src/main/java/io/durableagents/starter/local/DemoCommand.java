package io.durableagents.starter.local;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.starter.OutputOptions;
import io.durableagents.starter.StartChecks;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.starter.run.SimulateCommand;
import io.durableagents.starter.run.SimulationOptions;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The first run: starts the embedded Temporal (unless one already listens on 127.0.0.1:7233, or on
 * {@code --port}) and a worker, each in its own JVM, runs a simulation through them over gRPC, and stops
 * what it started.
 *
 * <pre>{@code
 * durable-agents demo --steps 10
 * durable-agents demo --port 7300   # the Temporal on 127.0.0.1:7300: used if one listens, else started there
 * }</pre>
 */
@Command(name = "demo",
    description = {"Start the embedded Temporal and a worker (each its own process), run a simulation "
        + "through them, and stop them again. Defaults: Epstein civil violence, the offline rules model.",
        "The Temporal is the one on 127.0.0.1:7233 (or --port) when one listens there, else one started there; "
            + "with TEMPORAL_ADDRESS set to another address, the one there."})
public final class DemoCommand implements Callable<Integer> {
  private static final String ADDRESS_VARIABLE = "TEMPORAL_ADDRESS";

  @Option(names = "--port", paramLabel = "PORT",
      description = "Use the Temporal on 127.0.0.1:PORT, or start the embedded one there (its UI on PORT + 1000, "
          + "its runs in temporal-PORT.db), as 'dev-server --port' does; over TEMPORAL_ADDRESS (default: 7233).")
  Integer port;

  @Option(names = "--ui-port", paramLabel = "PORT",
      description = "The UI's port of the Temporal demo starts, as 'dev-server --ui-port' (default: --port + 1000).")
  Integer uiPort;

  @Option(names = "--view", description = "Serve the view of this Temporal beside the run ('view --port 0': a free "
      + "port on 127.0.0.1) and print its address.")
  boolean view;

  @Mixin
  SimulationOptions options;

  @Mixin
  OutputOptions output = new OutputOptions();

  @Override
  public Integer call() throws Exception {
    SimulationInput input;
    try {
      input = options.toInput();
    } catch (IllegalArgumentException e) {
      System.err.println("demo: " + e.getMessage());
      return 2;
    }
    StartChecks.workflowId("--id", options.id);
    StartChecks.simulation(input, LocalCatalog.get());
    StartChecks.outputFile("--csv", output.csv);
    StartChecks.outputFile("--chart", output.chart);
    LocalStack.Ports ports = ports();
    Map<String, String> env = new HashMap<>(Environment.variables());
    if (ports != null) {
      // the worker it starts, and this process, talk to the Temporal on that port
      env.put(ADDRESS_VARIABLE, "127.0.0.1:" + ports.port());
    }
    TemporalConnection connection = TemporalConnection.fromEnvironment(env);
    LocalStack stack = LocalStack.start(connection, ports, Path.of("runs", "demo"), "demo",
        ports == null ? Map.of() : Map.of(ADDRESS_VARIABLE, env.get(ADDRESS_VARIABLE)));
    try (stack) {
      WorkflowServiceStubs service = TemporalCheck.connect(connection);
      try (AutoCloseable page = view ? io.durableagents.starter.view.ViewCommand.start(connection, service,
          "127.0.0.1", 0, null, System.out) : null) {
        WorkflowClient client = connection.client(service);
        int code = SimulateCommand.run(connection, client, input, options.id, false, output, null,
            options.replaceFinished);
        if (view) { // the page, the worker and the Temporal stay for forks and a look back, until Ctrl-C
          System.out.println("The view stays open until Ctrl-C (which stops what demo started).");
          new java.util.concurrent.CountDownLatch(1).await();
        }
        return code;
      } finally {
        service.shutdown();
      }
    }
  }

  /**
   * The ports given ({@code --port}, {@code --ui-port}), checked; null when neither is, or when only
   * {@code --ui-port} is and TEMPORAL_ADDRESS names a Temporal elsewhere (demo starts none then).
   */
  LocalStack.Ports ports() {
    checkPort("--port", port);
    checkPort("--ui-port", uiPort);
    LocalStack.Ports ports = port != null ? new LocalStack.Ports(port, uiPort)
        : uiPort != null && TemporalConnection.fromEnvironment(Environment.variables()).isDefaultAddress()
            ? new LocalStack.Ports(7233, uiPort) : null;
    if (ports != null && !ChildProcesses.listening("127.0.0.1", ports.port())) {
      // a Temporal is started there: its UI's port must be free too
      int ui = uiPort != null ? uiPort : ports.port() + 1000;
      if (uiPort == null && ui > 65535) {
        throw CommandFailure.usage("--port " + port + " leaves no port for the UI (--port + 1000 is past 65535)",
            "Give --ui-port as well.");
      }
      StartChecks.port(uiPort != null ? "--ui-port" : "--ui-port", "127.0.0.1", ui);
    }
    return ports;
  }

  private static void checkPort(String option, Integer value) {
    if (value != null && (value < 1 || value > 65535)) {
      throw CommandFailure.usage(option + " " + value + " is not a port", "Give 1 to 65535.");
    }
  }

}
