package io.durableagents.activities.tools.mcp;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.mcp.client.McpClient;
import dev.langchain4j.mcp.client.transport.McpTransport;
import dev.langchain4j.mcp.client.transport.http.StreamableHttpMcpTransport;
import dev.langchain4j.mcp.client.transport.stdio.StdioMcpTransport;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's one long-lived client of one MCP server, shared by every call of its tools (starting a
 * stdio server's process takes far longer than a call). A stdio server whose process died is
 * started again at the next call; LangChain4j's client reconnects an HTTP server itself.
 */
final class McpServerConnection implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(McpServerConnection.class);

  /** How long the worker waits for a server to start and answer {@code initialize}. */
  static final Duration INITIALIZATION_TIMEOUT = Duration.ofSeconds(30);

  /** How long a health check waits for a ping's answer. */
  static final Duration PING_TIMEOUT = Duration.ofSeconds(5);

  /** A client and its transport (whose health, for a stdio server, is whether its process lives). */
  private record Connected(McpClient client, McpTransport transport) {}

  private final McpServerConfig config;
  private McpClient client;
  private McpTransport transport;
  private boolean closed;
  /** Whether the last health check found the server down (and said so in the log). */
  private volatile boolean reportedDown;

  private McpServerConnection(McpServerConfig config, Connected connected) {
    this.config = config;
    this.client = connected.client();
    this.transport = connected.transport();
  }

  /**
   * Connects to the server.
   *
   * @throws McpServerUnavailableException naming the server, when it cannot be started or reached
   */
  static McpServerConnection open(McpServerConfig config) {
    return new McpServerConnection(config, connect(config));
  }

  McpServerConfig config() {
    return config;
  }

  /** The server's tools, as it lists them. */
  List<ToolSpecification> listTools() {
    try {
      return current().listTools();
    } catch (RuntimeException e) {
      throw new McpServerUnavailableException(config.name(), "MCP server " + config.describe()
          + " did not list its tools: " + rootMessage(e), e);
    }
  }

  /** The client, started again first when it is a stdio server whose process died. */
  synchronized McpClient current() {
    if (closed) {
      throw new IllegalStateException("the worker is stopping: MCP server '" + config.name() + "' is closed");
    }
    if (config.isStdio()) {
      try {
        transport.checkHealth(); // the process is alive: no round trip
      } catch (RuntimeException gone) {
        restart(gone);
      }
    }
    return client;
  }

  private void restart(RuntimeException why) {
    log.warn("MCP server '{}' is gone ({}); starting it again", config.name(), rootMessage(why));
    closeQuietly(client);
    Connected fresh = connect(config);
    client = fresh.client();
    transport = fresh.transport();
  }

  /**
   * After a failed call: when the server is gone (a stdio server's process died), starts it again so
   * that the retry of the call finds it. Returns whether it did.
   */
  synchronized boolean reconnectIfGone(McpClient failed) {
    if (closed || failed != client || !config.isStdio()) {
      return false;
    }
    try {
      failed.checkHealth();
      return false;
    } catch (RuntimeException gone) {
      restart(gone);
      return true;
    }
  }

  /**
   * Null when the server answers a ping; otherwise why it does not. A ping that fails is sent once more
   * before the server is reported: one slow answer (a server busy with a call, a loaded machine) or one
   * dropped connection is not a server that cannot be reached, and a worker's /health should not turn 503
   * for it. A server found down is one warning in the log (and one line when it answers again), never a
   * stack trace, however often /health asks.
   */
  String problem() {
    McpClient c;
    synchronized (this) {
      if (closed) {
        return "closed";
      }
      c = client;
    }
    RuntimeException last = null;
    for (int attempt = 1; attempt <= 2; attempt++) {
      try {
        c.checkHealth();
        if (reportedDown) {
          reportedDown = false;
          log.info("MCP server '{}' answers a ping again", config.name());
        }
        return null;
      } catch (RuntimeException e) {
        last = e;
      }
    }
    String why = rootMessage(last);
    if (!reportedDown) {
      reportedDown = true;
      log.warn("MCP server '{}' does not answer a ping (asked twice): {}", config.name(), why);
    }
    return why;
  }

  @Override
  public synchronized void close() {
    closed = true;
    closeQuietly(client);
  }

  private static Connected connect(McpServerConfig config) {
    McpTransport transport;
    if (config.isStdio()) {
      transport = StdioMcpTransport.builder()
          .command(config.command())
          .environment(new HashMap<>(config.environment()))
          .logEvents(false)
          .build();
    } else {
      Map<String, String> headers = Map.copyOf(config.headers());
      transport = StreamableHttpMcpTransport.builder()
          .url(config.url())
          .customHeaders(headers)
          .timeout(config.callTimeout().plus(Duration.ofSeconds(5)))
          .build();
    }
    try {
      return new Connected(DefaultMcpClient.builder()
          .key(config.name())
          .clientName("durable-agents")
          .transport(transport)
          .initializationTimeout(INITIALIZATION_TIMEOUT)
          .toolExecutionTimeout(config.callTimeout())
          .toolExecutionTimeoutErrorMessage(McpTool.TIMEOUT_MESSAGE)
          .pingTimeout(PING_TIMEOUT)
          .metaSupplier(McpTool::meta)
          .build(), transport);
    } catch (RuntimeException e) {
      try {
        transport.close();
      } catch (Exception ignored) {
        // the server never answered; nothing of it is left to keep
      }
      throw new McpServerUnavailableException(config.name(), "MCP server " + config.describe()
          + " cannot be reached: " + rootMessage(e), e);
    }
  }

  private static void closeQuietly(McpClient client) {
    try {
      client.close();
    } catch (Exception e) {
      log.debug("closing an MCP client failed", e);
    }
  }

  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage();
    return message == null || message.isBlank() ? root.getClass().getSimpleName()
        : root.getClass().getSimpleName() + ": " + message;
  }
}
