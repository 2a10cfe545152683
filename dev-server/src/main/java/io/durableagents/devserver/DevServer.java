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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The embedded Temporal: Temporal's Java test server, listening for gRPC on 127.0.0.1:7233 so that
 * workers and the starter reach it as they would a real cluster. It keeps everything in memory (a
 * restart forgets every run) and has no UI. It runs in its own process: killing a worker does not
 * kill it. It registers our search attributes ({@code Scenario}, {@code Strategy}, {@code SimStep}) on
 * the {@code default} namespace when it starts. Unlike the bare test server, it times out sticky
 * queues as a real server does ({@link StickyQueueTimeouts}), so workers keep sticky execution on and a
 * killed worker's workflows move on to another worker, and it writes what happened to a run during a
 * killed worker's workflow task when that task times out ({@link WorkflowTaskTimeouts}).
 *
 * <p>In a program or a test, {@link EmbeddedTemporal} starts it together with a client and a worker
 * factory, and closes the three in the right order. From the command line:
 *
 * <pre>{@code
 * java -jar durable-agents.jar dev-server --in-memory --port 7233
 * }</pre>
 */
public final class DevServer implements AutoCloseable {
  private final TestServicesStarter services;
  private final ExecutorService callExecutor;
  private final Server server;
  private final StickyQueueTimeouts stickyQueues;
  private WorkflowTaskTimeouts workflowTaskTimeouts;
  private ManagedChannel loopback;

  private DevServer(TestServicesStarter services, ExecutorService callExecutor, Server server,
      StickyQueueTimeouts stickyQueues) {
    this.services = services;
    this.callExecutor = callExecutor;
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
    WorkflowTaskTimeouts workflowTaskTimeouts =
        Boolean.getBoolean("durableagents.stockWorkflowTaskTimeouts") ? null : WorkflowTaskTimeouts.install(services);
    StickyQueueTimeouts stickyQueues = new StickyQueueTimeouts();
    // gRPC's own executor, but this server's alone, so that close() can wait for its last tasks
    ExecutorService callExecutor = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "durable-agents-dev-server-call");
      t.setDaemon(true);
      return t;
    });
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
        .executor(callExecutor)
        .intercept(stickyQueues)
        .intercept(new ContinueAsNewCompletions(services));
    GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
    try {
      DevServer server = new DevServer(services, callExecutor, builder.build().start(), stickyQueues);
      server.workflowTaskTimeouts = workflowTaskTimeouts;
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
      callExecutor.shutdown();
      services.close();
      throw new UncheckedIOException("cannot listen on " + host + ":" + port
          + " (is another Temporal server running there?)", e);
    }
  }

  /** The port it listens on: the one asked for, or the one the system chose for port 0. */
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

  /** How many changes held during workflow tasks that timed out were written after the timeout, for tests. */
  long heldChangesWritten() {
    return workflowTaskTimeouts == null ? 0 : workflowTaskTimeouts.written();
  }

  /** How many workflow tasks were moved from sticky queues whose workers were gone. */
  public long stickyTasksMoved() {
    return stickyQueues.moved();
  }

  /**
   * Stops the server. Close the workers and clients of it first ({@link EmbeddedTemporal} does): a
   * worker still polling when its server goes away logs a stack trace for every poller.
   */
  @Override
  public void close() {
    stickyQueues.close();
    try {
      if (loopback != null) {
        loopback.shutdownNow();
        loopback.awaitTermination(5, TimeUnit.SECONDS);
      }
      server.shutdownNow();
      // Let the calls' last tasks run before the services' executors stop: a call's context cancelled
      // after that would hand its listener to a stopped executor, which gRPC reports with a stack
      // trace. Closing a call queues its context's cancellation on the call executor: drain it.
      server.awaitTermination(5, TimeUnit.SECONDS);
      callExecutor.shutdown();
      callExecutor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      services.close();
    }
  }
}
