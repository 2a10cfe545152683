package io.durableagents.worker;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import io.temporal.serviceclient.OperatorServiceStubs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;

/**
 * The embedded Temporal: Temporal's Java test server, listening for gRPC on 127.0.0.1:7233 so that
 * workers and the starter reach it as they would a real cluster. It keeps everything in memory (a
 * restart forgets every run) and has no UI. It runs in its own process: killing a worker does not
 * kill it. It registers our search attributes ({@code Scenario}, {@code Strategy}, {@code SimStep}) on
 * the {@code default} namespace when it starts.
 *
 * <pre>{@code
 * java -jar durable-agents.jar dev-server --port 7233
 * }</pre>
 */
public final class DevServer implements AutoCloseable {
  private final TestServicesStarter services;
  private final Server server;

  private DevServer(TestServicesStarter services, Server server) {
    this.services = services;
    this.server = server;
  }

  /**
   * Starts the server on {@code host:port} with time running as on a real server (no time skipping).
   */
  public static DevServer start(String host, int port) {
    TestServicesStarter services = new TestServicesStarter(true, 0);
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port));
    GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
    try {
      DevServer server = new DevServer(services, builder.build().start());
      OperatorServiceStubs operator = SearchAttributeRegistry.connect(host + ":" + server.port());
      try {
        SearchAttributeRegistry.register(operator, TemporalConnection.DEFAULT_NAMESPACE);
      } finally {
        operator.shutdownNow();
      }
      return server;
    } catch (IOException e) {
      services.close();
      throw new UncheckedIOException("cannot listen on " + host + ":" + port
          + " (is another Temporal server running there?)", e);
    }
  }

  public int port() {
    return server.getPort();
  }

  /** Blocks until the server stops. */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  @Override
  public void close() {
    server.shutdownNow();
    services.close();
  }
}
