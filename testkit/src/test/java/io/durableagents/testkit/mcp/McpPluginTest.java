package io.durableagents.testkit.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import io.durableagents.activities.tools.mcp.McpServerConfig;
import io.durableagents.activities.tools.mcp.McpServerUnavailableException;
import io.durableagents.testkit.DurableAgentsTestEnvironment;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.McpHealth;
import io.durableagents.worker.MetricsServer;
import io.durableagents.worker.WorkerSettings;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.durableagents.workflows.task.AgentTaskWorkflowImpl;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers on the plugin: an agent calls a real MCP server's tool (the MCP Java SDK's, over
 * streamable HTTP) as an activity named {@code tool: mcp <server>/<tool>}; a clash of names, an
 * unreachable server and a bad file entry fail the worker's start naming them; {@code /health} names a
 * server that stopped answering.
 */
class McpPluginTest {
  private static final String MODEL = "mcp-add-script";

  private static McpServerConfig dir(DirectoryMcpServer server) {
    return McpServerConfig.newBuilder("dir").setUrl(server.url()).build();
  }

  @Test
  void anAgentCallsAnMcpToolAsAnActivityNamedAfterTheServer() throws Exception {
    try (DirectoryMcpServer server = new DirectoryMcpServer(0)) {
      DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder()
          .registerMcpServer(dir(server))
          .registerModel(MODEL, new ScriptedToolModel(MODEL, "dir_add", List.of("{\"a\": 2, \"b\": 3}")))
          .build();
      try (TestWorkflowEnvironment env = DurableAgentsTestEnvironment.start(plugin)) {
        WorkflowClient client = env.getWorkflowClient();
        AgentTaskWorkflow agent = client.newWorkflowStub(AgentTaskWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("mcp-add").build());
        AgentTaskResult result = agent.run(new AgentTaskInput("Add 2 and 3.", List.of("dir_add"),
            AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel(MODEL).build()));
        assertEquals("5.0", result.answer());
        assertEquals(1, result.toolCalls());
        assertEquals(List.of(new DirectoryMcpServer.Event("start", "add", "mcp-add/0/call_1")), server.events(),
            "the call reached the server once, with its idempotency key in _meta");

        WorkflowExecutionHistory history = client.fetchHistory("mcp-add");
        List<String> summaries = history.getEvents().stream()
            .filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED && e.hasUserMetadata())
            .map(e -> e.getUserMetadata().getSummary().getData().toString(StandardCharsets.UTF_8)).toList();
        assertTrue(summaries.stream().anyMatch(s -> s.contains("tool: mcp dir/add")), summaries.toString());
        // A worker without the server's labels replays it: a summary is not part of the commands.
        WorkflowReplayer.replayWorkflowExecution(history, AgentTaskWorkflowImpl.class);
      } finally {
        plugin.closeMcpServers();
      }
    }
  }

  /** A user tool whose name the MCP server's {@code add} takes under the prefix {@code dir_}. */
  public static final class DirAdd {
    @Tool(name = "dir_add", value = "Adds, locally.")
    public String add(@P("a") double a, @P("b") double b) {
      return String.valueOf(a + b);
    }
  }

  @Test
  void aNameTakenByARegisteredToolFailsTheStartNamingBoth() throws Exception {
    try (DirectoryMcpServer server = new DirectoryMcpServer(0)) {
      DurableAgentsPlugin.Builder builder = DurableAgentsPlugin.newBuilder().registerTool(new DirAdd())
          .registerMcpServer(dir(server));
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
      assertTrue(e.getMessage().contains("two tools are named 'dir_add'")
          && e.getMessage().contains("McpPluginTest$DirAdd.add")
          && e.getMessage().contains("MCP server 'dir', tool 'add'"), e.getMessage());
    }
  }

  @Test
  void aServerThatCannotBeReachedFailsTheStartNamingIt() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    DurableAgentsPlugin.Builder builder = DurableAgentsPlugin.newBuilder()
        .registerMcpServer(McpServerConfig.newBuilder("search").setUrl("http://127.0.0.1:" + port + "/mcp").build());
    McpServerUnavailableException e = assertThrows(McpServerUnavailableException.class, builder::build);
    assertEquals("search", e.server());
    assertTrue(e.getMessage().startsWith("MCP server search (http://127.0.0.1:" + port + "/mcp) cannot be reached"),
        e.getMessage());
  }

  @Test
  void theEnvironmentsFileGivesTheWorkerItsServersAndABadEntryIsNamed(@TempDir Path dir) throws Exception {
    try (DirectoryMcpServer server = new DirectoryMcpServer(0)) {
      Path file = dir.resolve("mcp.yaml");
      Files.writeString(file, "mcp_servers:\n  dir:\n    url: " + server.url() + "\n    tools: [add]\n");
      DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder()
          .configureFromEnvironment(Map.of(WorkerSettings.MCP_SERVERS, file.toString())).build();
      try {
        assertEquals(List.of("dir_add"), plugin.mcpTools().toolNames("dir"));
        assertTrue(plugin.tools().externalToolNames().contains("dir_add"));
      } finally {
        plugin.closeMcpServers();
      }

      Files.writeString(file, "mcp_servers:\n  dir:\n    url: " + server.url() + "\n    tool: [add]\n");
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DurableAgentsPlugin.newBuilder()
          .configureFromEnvironment(Map.of(WorkerSettings.MCP_SERVERS, file.toString())));
      assertTrue(e.getMessage().startsWith(WorkerSettings.MCP_SERVERS + "=" + file)
          && e.getMessage().contains("mcp_servers.dir.tool: not a field here; allowed: command, args"), e.getMessage());
    }
  }

  @Test
  void healthNamesAServerThatStoppedAnswering() throws Exception {
    DirectoryMcpServer server = new DirectoryMcpServer(0);
    DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().registerMcpServer(dir(server)).build();
    try (MetricsServer metrics = new MetricsServer(0, () -> true)) {
      metrics.setChecks(() -> McpHealth.checks(plugin.mcpTools()));
      HttpClient http = HttpClient.newHttpClient();
      HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metrics.port() + "/health")).build();
      HttpResponse<String> ok = http.send(health, HttpResponse.BodyHandlers.ofString());
      assertEquals(200, ok.statusCode());
      assertEquals("ok\nmcp server dir: ok\n", ok.body());

      server.close();
      HttpResponse<String> down = http.send(health, HttpResponse.BodyHandlers.ofString());
      assertEquals(503, down.statusCode());
      assertTrue(down.body().startsWith("mcp server dir: does not answer: "), down.body());
    } finally {
      plugin.closeMcpServers();
    }
  }
}
