package io.durableagents.worker;

import io.durableagents.activities.tools.mcp.McpToolSet;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the worker's {@code /health} says of its MCP servers: one line per server that does not answer
 * a ping now, {@code mcp server <name>: <why>}; nothing when every one answers.
 *
 * <pre>{@code
 * metrics.setProblems(() -> McpHealth.problems(plugin.mcpTools()));
 * }</pre>
 */
public final class McpHealth {
  private McpHealth() {}

  /** The problems of the servers of {@code mcp}, keyed {@code mcp server <name>}. */
  public static Map<String, String> problems(McpToolSet mcp) {
    Map<String, String> out = new LinkedHashMap<>();
    mcp.problems().forEach((server, why) -> out.put("mcp server " + server, "does not answer: " + why));
    return out;
  }
}
