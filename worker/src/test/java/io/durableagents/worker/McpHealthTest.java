package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.durableagents.activities.tools.mcp.McpServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The worker's {@code /health} with MCP servers: it names each server it checked and its state, and a
 * server that stops answering is one log line, not a stack trace.
 */
class McpHealthTest {
  @Test
  void healthNamesEachServerItsStateAndADownServerIsOneLogLine() throws Exception {
    AdderMcpServer adder = new AdderMcpServer();
    try (AdderMcpServer other = new AdderMcpServer()) {
      DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder()
          .registerMcpServer(McpServerConfig.newBuilder("adder").setUrl(adder.url()).build())
          .registerMcpServer(McpServerConfig.newBuilder("other").setUrl(other.url()).build())
          .build();
      try (MetricsServer metrics = new MetricsServer(0, () -> true)) {
        metrics.setChecks(() -> McpHealth.checks(plugin.mcpTools()));
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metrics.port() + "/health"))
            .build();
        HttpResponse<String> ok = http.send(health, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals("ok\nmcp server adder: ok\nmcp server other: ok\n", ok.body());

        adder.close();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> captured = new ListAppender<>();
        captured.start();
        root.addAppender(captured);
        HttpResponse<String> down;
        try {
          down = http.send(health, HttpResponse.BodyHandlers.ofString());
        } finally {
          root.detachAppender(captured);
        }
        assertEquals(503, down.statusCode());
        List<String> lines = down.body().lines().toList();
        assertEquals(2, lines.size(), down.body());
        assertTrue(lines.get(0).startsWith("mcp server adder: does not answer: "), down.body());
        assertEquals("mcp server other: ok", lines.get(1));
        List<ILoggingEvent> warnings = captured.list.stream()
            .filter(e -> e.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.WARN)).toList();
        assertEquals(1, warnings.size(), "one log line: " + warnings.stream()
            .map(e -> e.getLoggerName() + " " + e.getFormattedMessage() + (e.getThrowableProxy() == null ? ""
                : " + trace " + e.getThrowableProxy().getClassName())).toList());
        assertTrue(warnings.get(0).getFormattedMessage().startsWith("MCP server 'adder' does not answer a ping"),
            warnings.get(0).getFormattedMessage());
        assertNull(warnings.get(0).getThrowableProxy(), "no stack trace");
      } finally {
        plugin.closeMcpServers();
      }
    }
  }
}
