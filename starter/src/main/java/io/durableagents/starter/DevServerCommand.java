package io.durableagents.starter;

import io.durableagents.devserver.DevServer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the embedded Temporal (Temporal's Java test server) until stopped. */
@Command(name = "dev-server",
    description = "Run the embedded Temporal (Temporal's Java test server: in memory, gRPC only, no UI).")
final class DevServerCommand implements Callable<Integer> {
  @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--port", defaultValue = "7233", description = "Port to listen on (default: ${DEFAULT-VALUE}).")
  int port;

  @Override
  public Integer call() throws InterruptedException {
    StartChecks.port("--port", host, port);
    DevServer server = DevServer.start(host, port);
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    System.out.println("Embedded Temporal listening on " + host + ":" + server.port()
        + " (in memory: a restart forgets every run; no UI).");
    System.out.flush();
    server.awaitTermination();
    return 0;
  }
}
