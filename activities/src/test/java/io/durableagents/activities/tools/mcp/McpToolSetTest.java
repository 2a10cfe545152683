package io.durableagents.activities.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecification;
import io.durableagents.activities.tools.ToolActivitiesImpl;
import io.durableagents.activities.tools.ToolRegistry;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.durableagents.workflows.tools.ToolFailureTypes;
import io.temporal.failure.ApplicationFailure;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * MCP tools against real MCP servers built with the official MCP Java SDK: over streamable HTTP in
 * this JVM, and over stdio in a child JVM. No mocks: every call crosses the MCP protocol.
 */
class McpToolSetTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static TestMcpServer http;
  private static McpToolSet tools;
  private static ToolActivitiesImpl activity;
  private static ToolRegistry registry;

  @BeforeAll
  static void start() throws Exception {
    http = TestMcpServer.http();
    tools = McpToolSet.connect(List.of(McpServerConfig.newBuilder("test").setUrl(http.url())
        .setCallTimeout(Duration.ofSeconds(2)).build()));
    registry = tools.addTo(ToolRegistry.newBuilder()).build();
    activity = new ToolActivitiesImpl(registry);
  }

  @AfterAll
  static void stop() throws Exception {
    if (tools != null) {
      tools.close();
    }
    if (http != null) {
      http.close();
    }
  }

  private static ToolExecutionResult call(ToolActivitiesImpl activity, String tool, String arguments, String key)
      throws Exception {
    return activity.execute(new ToolExecutionRequest("call_1", tool, JSON.readTree(arguments), key));
  }

  @Test
  void theServersToolsAreRegisteredUnderItsPrefixAndTheirCallsNamedAfterTheServer() {
    assertEquals(List.of("test_add", "test_whoami", "test_refuse", "test_sleep"), registry.externalToolNames());
    assertEquals(List.of("test_add", "test_whoami", "test_refuse", "test_sleep"), tools.toolNames("test"));
    assertEquals("tool: mcp test/add", registry.policies().summaryOf("test_add"));
    assertEquals("tool: calculator", registry.policies().summaryOf("calculator"));
    // The activity may run longer than the client waits: the client's timeout answers first.
    assertEquals(Duration.ofSeconds(12), registry.policies().policyOf("test_add").startToCloseTimeout());
  }

  @Test
  void aCallCrossesTheProtocolAndReturnsTheToolsText() throws Exception {
    ToolExecutionResult result = call(activity, "test_add", "{\"a\": 2, \"b\": 3.5}", "wf/1/call_1");
    assertFalse(result.error(), result.output());
    assertEquals("5.5", result.output());
    assertTrue(http.calls().stream().anyMatch(c -> c.tool().equals("add") && "wf/1/call_1".equals(c.metaKey())),
        "the idempotency key travels in _meta: " + http.calls());
  }

  @Test
  void aToolThatTakesAnIdempotencyKeyGetsItAndModelsDoNotSeeTheArgument() throws Exception {
    ToolSpecification spec = registry.specifications(List.of("test_whoami")).get(0);
    assertFalse(spec.parameters().properties().containsKey("idempotency_key"), spec.toString());
    assertTrue(spec.parameters().properties().containsKey("note"));
    assertFalse(spec.parameters().required() != null && spec.parameters().required().contains("idempotency_key"));

    ToolExecutionResult result = call(activity, "test_whoami", "{\"note\": \"hi\"}", "wf/7/call_3");
    assertEquals("key wf/7/call_3", result.output());
    assertFalse(result.error());
  }

  @Test
  void anErrorTheToolReportsIsAnObservationNotARetry() throws Exception {
    ToolExecutionResult result = call(activity, "test_refuse", "{}", "wf/1/call_2");
    assertTrue(result.error());
    assertTrue(result.output().contains("mcp test/refuse reported an error") && result.output().contains("no, never"),
        result.output());
  }

  @Test
  void argumentsThatDoNotFitTheSchemaNeverReachTheServer() throws Exception {
    int before = http.calls().size();
    ToolExecutionResult result = call(activity, "test_add", "{\"a\": \"two\"}", "wf/1/call_4");
    assertTrue(result.error());
    assertTrue(result.output().contains("do not fit its schema"), result.output());
    assertEquals(before, http.calls().size());
  }

  @Test
  void aCallTheClientGivesUpOnFailsTheAttemptSoThatTemporalRetriesIt() {
    ApplicationFailure failure = assertThrows(ApplicationFailure.class,
        () -> call(activity, "test_sleep", "{\"millis\": 4000}", "wf/1/call_5"));
    assertEquals(ToolFailureTypes.TOOL_FAILED, failure.getType());
    assertFalse(failure.isNonRetryable());
    assertTrue(failure.getOriginalMessage().contains("mcp test/sleep did not answer within PT2S"),
        failure.getOriginalMessage());
  }

  @Test
  void onlyTheConfiguredToolsAreOfferedAndAMissingOneNamesTheServer() throws Exception {
    try (McpToolSet some = McpToolSet.connect(List.of(McpServerConfig.newBuilder("calc").setUrl(http.url())
        .setTools(List.of("add")).setToolPrefix("").build()))) {
      assertEquals(List.of("add"), some.toolNames("calc"));
    }
    McpServerUnavailableException e = assertThrows(McpServerUnavailableException.class,
        () -> McpToolSet.connect(List.of(McpServerConfig.newBuilder("calc").setUrl(http.url())
            .setTools(List.of("add", "multiply")).build())));
    assertEquals("calc", e.server());
    assertTrue(e.getMessage().contains("has no tool multiply") && e.getMessage().contains("add, whoami"),
        e.getMessage());
  }

  /** A user tool whose name an unprefixed MCP tool takes. */
  public static final class Adder {
    @Tool(name = "add", value = "Adds.")
    public String add(@P("a") double a, @P("b") double b) {
      return String.valueOf(a + b);
    }
  }

  @Test
  void aNameTakenByAnotherToolFailsTheRegistrationNamingBoth() throws Exception {
    try (McpToolSet unprefixed = McpToolSet.connect(List.of(McpServerConfig.newBuilder("calc").setUrl(http.url())
        .setTools(List.of("add")).setToolPrefix("").build()))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> unprefixed.addTo(ToolRegistry.newBuilder().addExternalTools(new Adder())).build());
      assertTrue(e.getMessage().contains("two tools are named 'add'")
          && e.getMessage().contains("McpToolSetTest$Adder.add")
          && e.getMessage().contains("MCP server 'calc', tool 'add'"), e.getMessage());
    }
  }

  @Test
  void aServerThatCannotBeReachedIsNamed() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    McpServerUnavailableException e = assertThrows(McpServerUnavailableException.class,
        () -> McpToolSet.connect(List.of(McpServerConfig.newBuilder("gone")
            .setUrl("http://127.0.0.1:" + port + "/mcp").build())));
    assertEquals("gone", e.server());
    assertTrue(e.getMessage().startsWith("MCP server gone (http://127.0.0.1:" + port + "/mcp) cannot be reached"),
        e.getMessage());

    McpServerUnavailableException stdio = assertThrows(McpServerUnavailableException.class,
        () -> McpToolSet.connect(List.of(McpServerConfig.newBuilder("nothing")
            .setCommand(List.of("/no/such/mcp-server", "--stdio")).build())));
    assertEquals("nothing", stdio.server());
    assertTrue(stdio.getMessage().contains("MCP server nothing (stdio: /no/such/mcp-server --stdio) cannot be reached"),
        stdio.getMessage());
  }

  @Test
  void aStdioServerInAProcessOfItsOwnServesCallsUntilClosed() throws Exception {
    McpToolSet stdio = McpToolSet.connect(List.of(McpServerConfig.newBuilder("local")
        .setCommand(TestMcpServer.stdioCommand()).build()));
    try {
      ToolActivitiesImpl local = new ToolActivitiesImpl(stdio.addTo(ToolRegistry.newBuilder()).build());
      assertEquals("42.0", call(local, "local_add", "{\"a\": 40, \"b\": 2}", "wf/2/call_1").output());
      assertEquals("key wf/2/call_2", call(local, "local_whoami", "{}", "wf/2/call_2").output());
      assertEquals(java.util.Map.of(), stdio.problems());
    } finally {
      stdio.close();
    }
    assertEquals(java.util.Map.of("local", "closed"), stdio.problems());
  }

  @Test
  void aStdioServerWhoseProcessDiedIsStartedAgainAtTheNextCall(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path pidFile = dir.resolve("server.pid");
    try (McpToolSet stdio = McpToolSet.connect(List.of(McpServerConfig.newBuilder("local")
        .setCommand(TestMcpServer.stdioCommand()).putEnvironment(TestMcpServer.PID_FILE, pidFile.toString())
        .setCallTimeout(Duration.ofSeconds(5)).build()))) {
      ToolActivitiesImpl local = new ToolActivitiesImpl(stdio.addTo(ToolRegistry.newBuilder()).build());
      assertEquals("3.0", call(local, "local_add", "{\"a\": 1, \"b\": 2}", "wf/3/call_1").output());
      ProcessHandle server = ProcessHandle.of(Long.parseLong(java.nio.file.Files.readString(pidFile).strip()))
          .orElseThrow();
      server.destroyForcibly();
      server.onExit().get();
      assertEquals(List.of("local"), List.copyOf(stdio.problems().keySet()), "health names the dead server");

      // The next call finds the process dead and starts the server again first.
      assertEquals("3.0", call(local, "local_add", "{\"a\": 1, \"b\": 2}", "wf/3/call_2").output());
      long again = Long.parseLong(java.nio.file.Files.readString(pidFile).strip());
      assertTrue(again != server.pid(), "a new process: " + again);
      assertEquals(java.util.Map.of(), stdio.problems());
    }
  }

  @Test
  void anHttpServerThatRestartedServesTheRetryOfTheCall() throws Exception {
    TestMcpServer first = TestMcpServer.http();
    int port = Integer.parseInt(first.url().replaceAll(".*:(\\d+)/mcp", "$1"));
    try (McpToolSet set = McpToolSet.connect(List.of(McpServerConfig.newBuilder("restarting").setUrl(first.url())
        .setCallTimeout(Duration.ofSeconds(5)).build()))) {
      ToolActivitiesImpl activity = new ToolActivitiesImpl(set.addTo(ToolRegistry.newBuilder()).build());
      assertEquals("3.0", call(activity, "restarting_add", "{\"a\": 1, \"b\": 2}", "wf/4/call_1").output());
      first.close();
      try (TestMcpServer second = TestMcpServer.http(port)) {
        ToolExecutionResult result;
        try {
          result = call(activity, "restarting_add", "{\"a\": 1, \"b\": 2}", "wf/4/call_2");
        } catch (ApplicationFailure retried) {
          assertFalse(retried.isNonRetryable(), retried.getMessage());
          result = call(activity, "restarting_add", "{\"a\": 1, \"b\": 2}", "wf/4/call_2"); // Temporal's retry
        }
        assertEquals("3.0", result.output());
        assertEquals(1, second.calls().size(), second.calls().toString());
      }
    }
  }

  @Test
  void aServerThatStopsAnsweringIsNamedByItsProblems() throws Exception {
    TestMcpServer shortLived = TestMcpServer.http();
    try (McpToolSet set = McpToolSet.connect(List.of(McpServerConfig.newBuilder("brief").setUrl(shortLived.url())
        .build()))) {
      assertEquals(java.util.Map.of(), set.problems());
      shortLived.close();
      assertEquals(List.of("brief"), List.copyOf(set.problems().keySet()));
    }
  }

  @Test
  void badSettingsFailNamingTheServerAndTheSetting() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> McpServerConfig.newBuilder("fs").build())
        .getMessage().contains("MCP server 'fs': give either command"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> McpServerConfig.newBuilder("1fs").setUrl("http://x/mcp").build()).getMessage()
        .contains("MCP server name '1fs' is not allowed"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> McpServerConfig.newBuilder("fs").setUrl("ftp://x/mcp").build()).getMessage()
        .contains("url 'ftp://x/mcp' is not an http:// or https:// URL"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> McpServerConfig.newBuilder("fs").setUrl("http://x/mcp").setToolPrefix("fs/").build()).getMessage()
        .contains("tool_prefix 'fs/' is not allowed"));
  }
}
