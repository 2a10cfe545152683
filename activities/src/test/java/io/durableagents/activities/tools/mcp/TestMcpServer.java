package io.durableagents.activities.tools.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;

/**
 * A real MCP server, built with the official MCP Java SDK, for tests: over streamable HTTP in this JVM
 * (embedded Tomcat), or over stdio in a process of its own ({@link #main}). Its tools: {@code add}
 * (two numbers), {@code whoami} (which takes an {@code idempotency_key} argument and answers with the
 * key it got, in the argument and in {@code _meta}), {@code refuse} (reports an error), {@code sleep}
 * ({@code millis}). Every call is recorded ({@link #calls()}).
 */
final class TestMcpServer implements AutoCloseable {
  /** One call the server received: the tool, its arguments and the idempotency key of its {@code _meta}. */
  record Call(String tool, Map<String, Object> arguments, Object metaKey) {}

  private static final McpJsonMapper JSON = McpJsonMapper.getDefault();

  private final List<Call> calls;
  private final Tomcat tomcat;
  private final McpSyncServer server;

  private TestMcpServer(Tomcat tomcat, McpSyncServer server, List<Call> calls) {
    this.tomcat = tomcat;
    this.server = server;
    this.calls = calls;
  }

  /** Starts it over streamable HTTP on a free port ({@link #url()}). */
  static TestMcpServer http() throws Exception {
    return http(0);
  }

  /** Starts it over streamable HTTP on {@code port} (0: a free one). */
  static TestMcpServer http(int port) throws Exception {
    HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
        .jsonMapper(JSON).mcpEndpoint("/mcp").build();
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(Path.of("target", "tomcat").toAbsolutePath().toString());
    tomcat.setPort(port);
    Context context = tomcat.addContext("", null);
    Wrapper servlet = Tomcat.addServlet(context, "mcp", transport);
    servlet.setAsyncSupported(true);
    context.addServletMappingDecoded("/*", "mcp");
    List<Call> calls = new CopyOnWriteArrayList<>();
    McpSyncServer server = McpServer.sync(transport).serverInfo("durable-agents-test", "1.0")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .tools(tools(calls)).build();
    tomcat.getConnector();
    tomcat.start();
    return new TestMcpServer(tomcat, server, calls);
  }

  /** The calls it received, in order. */
  List<Call> calls() {
    return List.copyOf(calls);
  }

  /** Where it listens. */
  String url() {
    return "http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/mcp";
  }

  @Override
  public void close() throws Exception {
    server.close();
    tomcat.stop();
    tomcat.destroy();
  }

  /** The command that runs it over stdio in a JVM of its own. */
  static List<String> stdioCommand() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return List.of(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", classpath,
        TestMcpServer.class.getName());
  }

  /** A file the stdio server writes its process id to, when this variable names one. */
  static final String PID_FILE = "TEST_MCP_PID_FILE";

  /** Serves the tools over stdio until stdin closes. */
  public static void main(String[] args) throws Exception {
    String pidFile = System.getenv(PID_FILE);
    if (pidFile != null) {
      java.nio.file.Files.writeString(Path.of(pidFile), Long.toString(ProcessHandle.current().pid()));
    }
    StdioServerTransportProvider transport = new StdioServerTransportProvider(JSON);
    McpServer.sync(transport).serverInfo("durable-agents-test-stdio", "1.0")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .tools(tools(new CopyOnWriteArrayList<>())).build();
    new java.util.concurrent.CountDownLatch(1).await(); // the transport ends the process when stdin closes
  }

  static List<SyncToolSpecification> tools(List<Call> calls) {
    return List.of(
        tool("add", "Adds two numbers.",
            "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\"},\"b\":{\"type\":\"number\"}},"
                + "\"required\":[\"a\",\"b\"]}",
            calls, args -> text(String.valueOf(((Number) args.get("a")).doubleValue()
                + ((Number) args.get("b")).doubleValue()))),
        tool("whoami", "Says which call this is.",
            "{\"type\":\"object\",\"properties\":{\"idempotency_key\":{\"type\":\"string\"},"
                + "\"note\":{\"type\":\"string\"}},\"required\":[\"idempotency_key\"]}",
            calls, args -> text("key " + args.get("idempotency_key"))),
        tool("refuse", "Always refuses.", "{\"type\":\"object\",\"properties\":{}}", calls,
            args -> CallToolResult.builder().addTextContent("no, never").isError(true).build()),
        tool("sleep", "Sleeps.",
            "{\"type\":\"object\",\"properties\":{\"millis\":{\"type\":\"integer\"}},\"required\":[\"millis\"]}",
            calls, args -> {
              try {
                Thread.sleep(((Number) args.get("millis")).longValue());
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return text("slept");
            }));
  }

  private static SyncToolSpecification tool(String name, String description, String schema, List<Call> calls,
      java.util.function.Function<Map<String, Object>, CallToolResult> body) {
    return SyncToolSpecification.builder()
        .tool(McpSchema.Tool.builder().name(name).description(description).inputSchema(JSON, schema).build())
        .callHandler((exchange, request) -> {
          calls.add(new Call(name, request.arguments(),
              request.meta() == null ? null : request.meta().get(McpToolSet.IDEMPOTENCY_META_KEY)));
          return body.apply(request.arguments());
        })
        .build();
  }

  private static CallToolResult text(String text) {
    return CallToolResult.builder().addTextContent(text).isError(false).build();
  }
}
