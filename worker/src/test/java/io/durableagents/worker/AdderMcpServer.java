package io.durableagents.worker;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;

/**
 * A real MCP server with one tool, {@code add}, built with the official MCP Java SDK and served over
 * streamable HTTP by embedded Tomcat in the test's JVM.
 */
final class AdderMcpServer implements AutoCloseable {
  private static final McpJsonMapper JSON = McpJsonMapper.getDefault();

  private final Tomcat tomcat;
  private final McpSyncServer server;

  AdderMcpServer() throws Exception {
    HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
        .jsonMapper(JSON).mcpEndpoint("/mcp").build();
    tomcat = new Tomcat();
    tomcat.setBaseDir(Path.of("target", "tomcat").toAbsolutePath().toString());
    tomcat.setPort(0);
    Context context = tomcat.addContext("", null);
    Wrapper servlet = Tomcat.addServlet(context, "mcp", transport);
    servlet.setAsyncSupported(true);
    context.addServletMappingDecoded("/*", "mcp");
    server = McpServer.sync(transport).serverInfo("adder", "1.0")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .tools(SyncToolSpecification.builder()
            .tool(McpSchema.Tool.builder().name("add").description("Adds two numbers.")
                .inputSchema(JSON, "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\"},"
                    + "\"b\":{\"type\":\"number\"}},\"required\":[\"a\",\"b\"]}")
                .build())
            .callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
                .addTextContent(String.valueOf(((Number) request.arguments().get("a")).doubleValue()
                    + ((Number) request.arguments().get("b")).doubleValue()))
                .isError(false).build())
            .build())
        .build();
    tomcat.getConnector();
    tomcat.start();
  }

  String url() {
    return "http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/mcp";
  }

  @Override
  public void close() throws Exception {
    server.close();
    tomcat.stop();
    tomcat.destroy();
  }
}
