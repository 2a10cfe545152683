package io.durableagents.worker;

import io.durableagents.activities.tools.mcp.McpToolSet;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the worker's {@code /health} says of its MCP servers: a line per server, {@code mcp server
 * <name>: ok} or {@code mcp server <name>: does not answer: <why>} (after a second ping).
 *
 * <pre>{@code
 * metrics.setChecks(() -> McpHealth.checks(plugin.mcpTools()));
 * }</pre>
 */
public final class McpHealth {
  private McpHealth() {}

  /**
   * Every server of {@code mcp} and its state, keyed {@code mcp server <name>}: {@value MetricsServer#OK},
   * or {@code does not answer: <why>}.
   */
  public static Map<String, String> checks(McpToolSet mcp) {
    Map<String, String> out = new LinkedHashMap<>();
    mcp.states().forEach((server, why) -> out.put("mcp server " + server,
        why == null ? MetricsServer.OK : "does not answer: " + why));
    return out;
  }

  /** The problems of the servers of {@code mcp} only, keyed {@code mcp server <name>}. */
  public static Map<String, String> problems(McpToolSet mcp) {
    Map<String, String> out = new LinkedHashMap<>();
    mcp.problems().forEach((server, why) -> out.put("mcp server " + server, "does not answer: " + why));
    return out;
  }
}
