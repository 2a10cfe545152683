package io.durableagents.activities.tools.mcp;

/**
 * An MCP server could not be reached, or did not list its tools, when the worker started: the message
 * names the server, how it is reached and why it failed.
 */
public final class McpServerUnavailableException extends RuntimeException {
  private final String server;

  public McpServerUnavailableException(String server, String message, Throwable cause) {
    super(message, cause);
    this.server = server;
  }

  /** The name of the server that could not be reached. */
  public String server() {
    return server;
  }
}
