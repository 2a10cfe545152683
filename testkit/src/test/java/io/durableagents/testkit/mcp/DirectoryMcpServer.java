package io.durableagents.testkit.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;

/**
 * A real MCP server (the official MCP Java SDK over streamable HTTP, in embedded Tomcat) in the test's
 * JVM: a slow directory whose {@code lookup} takes an idempotency key and keeps one effect per key, as
 * a payment API does, and an {@code add}. Every event is recorded ({@link #events()}), so a test can
 * tell how often each call reached the server and how often it took effect.
 */
final class DirectoryMcpServer implements AutoCloseable {
  /**
   * What happened on the server: {@code start} (a call arrived), {@code effect} (a lookup took effect),
   * {@code repeat} (a call with a key already seen got the first one's answer).
   */
  record Event(String kind, String tool, String key) {}

  private static final McpJsonMapper JSON = McpJsonMapper.getDefault();

  private final List<Event> events = new CopyOnWriteArrayList<>();
  private final Map<String, CompletableFuture<String>> byKey = new ConcurrentHashMap<>();
  private final long lookupMillis;
  private final Tomcat tomcat;
  private final McpSyncServer server;

  /** Starts it on a free port; a lookup takes {@code lookupMillis}. */
  DirectoryMcpServer(long lookupMillis) throws Exception {
    this.lookupMillis = lookupMillis;
    HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
        .jsonMapper(JSON).mcpEndpoint("/mcp").build();
    tomcat = new Tomcat();
    // a directory of this JVM's: the module's test JVMs run side by side
    tomcat.setBaseDir(Path.of("target", "tomcat-" + ProcessHandle.current().pid()).toAbsolutePath().toString());
    tomcat.setPort(0);
    Context context = tomcat.addContext("", null);
    Wrapper servlet = Tomcat.addServlet(context, "mcp", transport);
    servlet.setAsyncSupported(true);
    context.addServletMappingDecoded("/*", "mcp");
    server = McpServer.sync(transport).serverInfo("directory", "1.0")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .tools(lookup(), add()).build();
    tomcat.getConnector();
    tomcat.start();
  }

  String url() {
    return "http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/mcp";
  }

  List<Event> events() {
    return List.copyOf(events);
  }

  long count(String kind, String key) {
    return events.stream().filter(e -> e.kind().equals(kind) && key.equals(e.key())).count();
  }

  @Override
  public void close() throws Exception {
    server.close();
    tomcat.stop();
    tomcat.destroy();
  }

  private SyncToolSpecification lookup() {
    return SyncToolSpecification.builder()
        .tool(McpSchema.Tool.builder().name("lookup").description("Looks a key up in the slow directory.")
            .inputSchema(JSON, "{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},"
                + "\"idempotency_key\":{\"type\":\"string\"}},\"required\":[\"key\",\"idempotency_key\"]}")
            .build())
        .callHandler((exchange, request) -> {
          String key = String.valueOf(request.arguments().get("idempotency_key"));
          events.add(new Event("start", "lookup", key));
          CompletableFuture<String> mine = new CompletableFuture<>();
          CompletableFuture<String> first = byKey.putIfAbsent(key, mine);
          if (first != null) {
            // Seen before: the first call's answer, without a second effect.
            events.add(new Event("repeat", "lookup", key));
            return text(first.join());
          }
          try {
            Thread.sleep(lookupMillis);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          String answer = "value of " + request.arguments().get("key");
          events.add(new Event("effect", "lookup", key));
          mine.complete(answer);
          return text(answer);
        })
        .build();
  }

  private SyncToolSpecification add() {
    return SyncToolSpecification.builder()
        .tool(McpSchema.Tool.builder().name("add").description("Adds two numbers.")
            .inputSchema(JSON, "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\"},"
                + "\"b\":{\"type\":\"number\"}},\"required\":[\"a\",\"b\"]}")
            .build())
        .callHandler((exchange, request) -> {
          Object key = request.meta() == null ? null : request.meta().get("io.durableagents/idempotency-key");
          events.add(new Event("start", "add", key == null ? null : key.toString()));
          double sum = ((Number) request.arguments().get("a")).doubleValue()
              + ((Number) request.arguments().get("b")).doubleValue();
          return text(String.valueOf(sum));
        })
        .build();
  }

  private static CallToolResult text(String text) {
    return CallToolResult.builder().addTextContent(text).isError(false).build();
  }
}
