package io.durableagents.devserver;

import io.durableagents.worker.SearchAttributeRegistry;
import io.durableagents.worker.TemporalConnection;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.temporal.api.workflowservice.v1.WorkflowServiceGrpc;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import io.temporal.serviceclient.OperatorServiceStubs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * The embedded Temporal: Temporal's Java test server, listening for gRPC on 127.0.0.1:7233 so that
 * workers and the starter reach it as they would a real cluster. It keeps everything in memory (a
 * restart forgets every run) and has no UI. It runs in its own process: killing a worker does not
 * kill it. It registers our search attributes ({@code Scenario}, {@code Strategy}, {@code SimStep}) on
 * the {@code default} namespace when it starts. Unlike the bare test server, it times out sticky
 * queues as a real server does ({@link StickyQueueTimeouts}), so workers keep sticky execution on and a
 * killed worker's workflows move on to another worker.
 *
 * <pre>{@code
 * java -jar durable-agents.jar dev-server --port 7233
 * }</pre>
 */
public final class DevServer implements AutoCloseable {
  private final TestServicesStarter services;
  private final Server server;
  private final StickyQueueTimeouts stickyQueues;
  private ManagedChannel loopback;

  private DevServer(TestServicesStarter services, Server server, StickyQueueTimeouts stickyQueues) {
    this.services = services;
    this.server = server;
    this.stickyQueues = stickyQueues;
  }

  /**
   * Starts the server on {@code host:port} with time running as on a real server (no time skipping).
   */
  public static DevServer start(String host, int port) {
    TestServicesStarter services = new TestServicesStarter(true, 0);
    if (!Boolean.getBoolean("durableagents.stockTimer")) {
      TimerLockBookkeeping.streamline(services);
    }
    StickyQueueTimeouts stickyQueues = new StickyQueueTimeouts();
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
        .intercept(stickyQueues);
    GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
    try {
      DevServer server = new DevServer(services, builder.build().start(), stickyQueues);
      server.loopback = NettyChannelBuilder.forAddress(host, server.port()).usePlaintext().build();
      stickyQueues.start(WorkflowServiceGrpc.newBlockingStub(server.loopback), Duration.ofMillis(250));
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

  /** The test server's services, for tests. */
  TestServicesStarter services() {
    return services;
  }

  /** How many workflow tasks were moved from sticky queues whose workers were gone. */
  public long stickyTasksMoved() {
    return stickyQueues.moved();
  }

  @Override
  public void close() {
    stickyQueues.close();
    if (loopback != null) {
      loopback.shutdownNow();
    }
    server.shutdownNow();
    services.close();
  }
}
