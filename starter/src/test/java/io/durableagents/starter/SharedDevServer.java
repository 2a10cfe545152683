package io.durableagents.starter;

import io.durableagents.worker.SearchAttributeRegistry;
import io.durableagents.workflows.SearchAttributes;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.operatorservice.v1.ListSearchAttributesRequest;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.RegisterNamespaceRequest;
import io.temporal.api.workflowservice.v1.TerminateWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One real dev server ({@link RealDevServer}) per test JVM, shared by the classes that need a Temporal
 * but never kill or restart it: started by the first class that asks, stopped when the JVM exits
 * (Surefire runs every class of a fork in one JVM; a JUnit extension store would close it after each
 * class). Each class gets a namespace of its own ({@link #namespace}): its workers poll, its runs live and
 * its {@code list} finds only there, so classes never take or see each other's runs, whatever ids and
 * task queues they use. The classes that kill the server, restart it or start it with settings of their
 * own ({@code --dynamic-config-value}) keep a server of their own.
 *
 * <pre>{@code
 * static final SharedDevServer.Namespace temporal = SharedDevServer.namespace("my-test");
 * ChildProcesses.start("384m", log, temporal.env(), "worker");
 * CliFailuresTest.run(temporal.env(), "simulate", "--steps", "3");
 * }</pre>
 */
public final class SharedDevServer {
  private static Process server;
  private static int port;
  private static int uiPort;
  private static Path dir;
  private static final Set<String> registered = new HashSet<>();

  private SharedDevServer() {}

  /**
   * A namespace of its own on this JVM's shared dev server (starting the server the first time), with
   * our search attributes registered, once Temporal answers for it; {@code name} names it (a class's).
   * Skips the calling test where there is no Temporal CLI (fails it under CI), as {@link RealDevServer}.
   */
  public static synchronized Namespace namespace(String name) throws Exception {
    if (server == null || !server.isAlive()) {
      start();
    }
    String unique = name;
    for (int n = 2; !registered.add(unique); n++) {
      unique = name + "-" + n; // a class run again in this JVM starts from an empty namespace all the same
    }
    name = unique;
    Namespace ns = new Namespace(name, port, uiPort, dir);
    WorkflowServiceStubs service = ns.service();
    OperatorServiceStubs operator = SearchAttributeRegistry.connect(ns.address());
    try {
      service.blockingStub().registerNamespace(RegisterNamespaceRequest.newBuilder().setNamespace(name)
          .setWorkflowExecutionRetentionPeriod(com.google.protobuf.Duration.newBuilder().setSeconds(86_400)).build());
      awaitReady(service, operator, name);
    } finally {
      operator.shutdownNow();
      service.shutdownNow();
    }
    return ns;
  }

  /** The shared dev server's process (the {@code durable-agents dev-server} JVM), or null before one started. */
  static synchronized Process process() {
    return server;
  }

  private static void start() throws Exception {
    Path cli = RealDevServer.cli();
    dir = Files.createDirectories(Path.of("target", "shared-dev-server", "jvm-" + ProcessHandle.current().pid()));
    Path db = dir.resolve("temporal.db");
    for (String suffix : new String[] {"", "-wal", "-shm"}) {
      Files.deleteIfExists(dir.resolve("temporal.db" + suffix));
    }
    port = RealDevServer.freePort();
    uiPort = RealDevServer.freePort();
    Process p = RealDevServer.start(cli, db, port, uiPort, dir.resolve("dev-server.log"));
    server = p;
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        RealDevServer.stop(p);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "shared-dev-server-stop"));
  }

  /**
   * Registers our search attributes on {@code namespace} and waits until Temporal knows the namespace and
   * lists them for it (a query by one of them is then accepted): conditions, not a fixed wait.
   */
  private static void awaitReady(WorkflowServiceStubs service, OperatorServiceStubs operator, String namespace)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    StatusRuntimeException last = null;
    while (System.nanoTime() < deadline) {
      try {
        SearchAttributeRegistry.register(operator, namespace);
        Map<String, IndexedValueType> custom = operator.blockingStub().listSearchAttributes(
            ListSearchAttributesRequest.newBuilder().setNamespace(namespace).build()).getCustomAttributesMap();
        if (SearchAttributes.ALL.stream().allMatch(k -> custom.get(k.getName()) == k.getValueType())) {
          service.blockingStub().listWorkflowExecutions(ListWorkflowExecutionsRequest.newBuilder()
              .setNamespace(namespace).setPageSize(1)
              .setQuery(SearchAttributes.SCENARIO.getName() + " = 'ready'").build());
          return;
        }
      } catch (StatusRuntimeException e) {
        last = e; // the namespace or its attributes not known yet where asked (NOT_FOUND, INVALID_ARGUMENT)
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the shared dev server did not make namespace " + namespace + " ready in 60 s", last);
  }

  /** A namespace of the shared dev server: where a class's workers, commands and clients go. */
  public record Namespace(String name, int port, int uiPort, Path serverDir) {
    /** {@code 127.0.0.1:<port>}. */
    public String address() {
      return "127.0.0.1:" + port;
    }

    /** The UI's address, {@code http://127.0.0.1:<uiPort>}. */
    public String ui() {
      return "http://127.0.0.1:" + uiPort;
    }

    /** {@code TEMPORAL_ADDRESS} and {@code TEMPORAL_NAMESPACE}: what a worker or a command is given. */
    public Map<String, String> env() {
      return Map.of("TEMPORAL_ADDRESS", address(), "TEMPORAL_NAMESPACE", name);
    }

    /** {@link #env()} with {@code more} (which may not override them). */
    public Map<String, String> env(Map<String, String> more) {
      Map<String, String> all = new HashMap<>(more);
      all.putAll(env());
      return all;
    }

    /** New stubs to the server (the caller shuts them down). */
    public WorkflowServiceStubs service() {
      return WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder().setTarget(address()).build());
    }

    /** A client of this namespace over {@code service}. */
    public WorkflowClient client(WorkflowServiceStubs service) {
      return WorkflowClient.newInstance(service, WorkflowClientOptions.newBuilder().setNamespace(name).build());
    }

    /**
     * Terminates the runs still open in this namespace (a run a test left going, a 400-step run detached
     * from): no worker polls here once its class is done, but an open run would still hold the server's
     * timers and visibility.
     */
    public void terminateOpenRuns() {
      WorkflowServiceStubs service = service();
      try {
        for (WorkflowExecutionInfo info : service.blockingStub().listWorkflowExecutions(
            ListWorkflowExecutionsRequest.newBuilder().setNamespace(name).setPageSize(1000)
                .setQuery("ExecutionStatus = 'Running'").build()).getExecutionsList()) {
          try {
            service.blockingStub().terminateWorkflowExecution(TerminateWorkflowExecutionRequest.newBuilder()
                .setNamespace(name).setWorkflowExecution(WorkflowExecution.newBuilder()
                    .setWorkflowId(info.getExecution().getWorkflowId()))
                .setReason("its test class is done").build());
          } catch (StatusRuntimeException e) {
            // it ended meanwhile
          }
        }
      } finally {
        service.shutdownNow();
      }
    }
  }
}
