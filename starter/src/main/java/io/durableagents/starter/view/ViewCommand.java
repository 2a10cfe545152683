package io.durableagents.starter.view;

import io.durableagents.starter.view.history.ReplayedPast;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.worker.codec.CodecServer;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code durable-agents view}: a page in the browser for the simulations of the Temporal it is pointed at
 * (TEMPORAL_ADDRESS, as every command): the list, then one simulation live, with its charts, its world at
 * any step, its agents, and the CLI's actions on it.
 *
 * <pre>{@code
 * durable-agents view                      # http://127.0.0.1:8234
 * durable-agents view --port 0             # any free port, printed
 * DURABLE_AGENTS_VIEW_TOKEN=... durable-agents view --host 0.0.0.0   # beyond this machine: a token
 * }</pre>
 */
@Command(name = "view",
    description = {"Serve a web page for the simulations on the Temporal at TEMPORAL_ADDRESS: the list, and each "
        + "one live (charts that grow while it runs, the counts, interventions, LLM calls and tokens, failed agent "
        + "steps, its world at any step and its agents), with pause, resume, stop, intervene, fork and approvals.",
        "It listens on 127.0.0.1 only, unless --host says otherwise; then every request must carry the token "
            + "(--token or " + ViewCommand.TOKEN_VARIABLE + "). Nothing is sent anywhere else."})
public final class ViewCommand implements Callable<Integer> {
  /** The token a view beyond this machine requires. */
  public static final String TOKEN_VARIABLE = "DURABLE_AGENTS_VIEW_TOKEN";
  public static final int DEFAULT_PORT = 8234;

  @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
      description = "Address to listen on (default: ${DEFAULT-VALUE}); any other than this machine's needs a token.")
  String host;

  @Option(names = "--port", defaultValue = "" + DEFAULT_PORT, paramLabel = "PORT",
      description = "Port (default: ${DEFAULT-VALUE}; 0: any free port, printed).")
  int port;

  @Option(names = "--token", paramLabel = "TOKEN",
      description = "Every request must carry it (default: $" + TOKEN_VARIABLE + "); required with a --host "
          + "beyond this machine.")
  String token;

  @Override
  public Integer call() throws IOException, InterruptedException {
    String required = token != null ? token : ViewActions.environment().get(TOKEN_VARIABLE);
    checkExposure(host, required);
    if (port < 0 || port > 65535) {
      throw ViewActions.usage("--port " + port + " is not a port", "Give 1 to 65535, or 0 for any free port.");
    }
    if (port != 0) {
      ViewActions.checkPort("--port", host, port);
    }
    TemporalConnection connection = TemporalConnection.fromEnvironment(ViewActions.environment());
    WorkflowServiceStubs service = ViewActions.connect(connection);
    ViewServer server = start(connection, service, host, port, required, System.out);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      service.shutdown();
    }));
    new CountDownLatch(1).await();
    return 0;
  }

  /**
   * Refuses a host beyond this machine without a token: the page shows every prompt, plan and tool call of
   * every simulation, and acts on them.
   */
  static void checkExposure(String host, String token) {
    if ((token == null || token.isBlank()) && !CodecServer.isLoopback(host)) {
      throw ViewActions.usage("--host " + host + " opens the view beyond this machine, and no token is set: "
              + "anyone who reaches it could read every prompt and act on every simulation",
          "Give --token (or set " + TOKEN_VARIABLE + "), or keep --host 127.0.0.1.");
    }
  }

  /**
   * Starts the view on the Temporal {@code service} connects to and prints its address on {@code out} (as
   * {@code demo --view} does too).
   */
  public static ViewServer start(TemporalConnection connection, WorkflowServiceStubs service, String host, int port,
      String token, PrintStream out) throws IOException {
    WorkflowClient client = connection.client(service);
    String ui = ViewActions.temporalUi(connection, service);
    ViewServer server = new ViewServer(host, port, client, past(client, ui), token, connection.address(), ui);
    out.println("View of " + connection.address() + " on " + address(host, server.port(), token));
    return server;
  }

  /** Where a person opens the view: with the token in it when there is one (the page then keeps it in a cookie). */
  static String address(String host, int port, String token) {
    String shown = host.contains(":") ? "[" + host + "]" : host.equals("0.0.0.0") ? "127.0.0.1" : host;
    return "http://" + shown + ":" + port + "/" + (token == null || token.isBlank() ? ""
        : "?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
  }

  /**
   * The simulations' past read by replay ({@code world?step=N}, {@code agents/{id}?step=N}) with the
   * workflows of the scenarios on the classpath (the built-ins and a project's own), as {@code fork} reads it.
   */
  static SimulationPast past(WorkflowClient client, String temporalUi) {
    return new ReplayedPast(client, DurableAgentsPlugin.newBuilder().configureFromClasspath().build(), temporalUi);
  }
}
