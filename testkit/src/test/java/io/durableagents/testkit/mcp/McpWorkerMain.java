package io.durableagents.testkit.mcp;

import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.TemporalConnection;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.util.List;
import java.util.Map;

/**
 * A worker process for {@link McpToolKillTest}: the plugin configured from the environment, its MCP
 * servers from the file in {@code DURABLE_AGENTS_MCP_SERVERS} (as the command line's worker reads
 * them), and a scripted model that looks up a, b and c with the MCP server's {@code dir_lookup}. It
 * runs until it is killed.
 */
public final class McpWorkerMain {
  static final String MODEL = "mcp-lookup-script";
  static final List<String> KEYS = List.of("a", "b", "c");

  private McpWorkerMain() {}

  public static void main(String[] args) throws InterruptedException {
    Map<String, String> env = System.getenv();
    DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().configureFromEnvironment(env)
        .registerModel(MODEL, new ScriptedToolModel(MODEL, "dir_lookup",
            KEYS.stream().map(k -> "{\"key\":\"" + k + "\"}").toList()))
        .setStickyExecution(false)
        .build();
    TemporalConnection connection = TemporalConnection.fromEnvironment(env);
    WorkflowServiceStubs service = connection.connect(null);
    WorkflowClient client = connection.client(service, plugin);
    WorkerFactory.newInstance(client).start();
    System.out.println("MCP worker " + ProcessHandle.current().pid() + " started with tools "
        + plugin.mcpTools().toolNames("dir"));
    new java.util.concurrent.CountDownLatch(1).await(); // until killed
  }
}
