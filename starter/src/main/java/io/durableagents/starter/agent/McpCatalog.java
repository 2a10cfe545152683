package io.durableagents.starter.agent;

import io.durableagents.activities.tools.mcp.McpServerConfig;
import io.durableagents.activities.tools.mcp.McpServerConfigs;
import io.durableagents.activities.tools.mcp.McpServerUnavailableException;
import io.durableagents.activities.tools.mcp.McpToolSet;
import io.durableagents.worker.WorkerSettings;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What this command line knows of the MCP servers of the workers it starts: those of the files in
 * {@code DURABLE_AGENTS_MCP_SERVERS}, read as the worker reads them. Their tool names are known only by
 * asking the servers, so a command connects to them only when it needs those names.
 */
final class McpCatalog {
  private McpCatalog() {}

  /**
   * The servers of the files in {@code DURABLE_AGENTS_MCP_SERVERS}.
   *
   * @throws IllegalArgumentException naming the variable, the file and the field at fault
   */
  static List<McpServerConfig> workerServers(Map<String, String> env) {
    List<McpServerConfig> servers = new ArrayList<>();
    String files = env.get(WorkerSettings.MCP_SERVERS);
    if (files == null || files.isBlank()) {
      return servers;
    }
    for (String file : files.strip().split(File.pathSeparator)) {
      if (!file.isBlank()) {
        try {
          servers.addAll(McpServerConfigs.load(Path.of(file.strip()), env));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(WorkerSettings.MCP_SERVERS + "=" + file.strip() + ": " + e.getMessage(), e);
        }
      }
    }
    return servers;
  }

  /**
   * Connects to {@code servers} to read their tools.
   *
   * @throws IllegalArgumentException naming a server that cannot be reached
   */
  static McpToolSet connect(List<McpServerConfig> servers) {
    try {
      return McpToolSet.connect(servers);
    } catch (McpServerUnavailableException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** The names of the tools of the workers' MCP servers ({@code <server>_<tool>}); empty without any. */
  static List<String> workerToolNames(Map<String, String> env) {
    List<McpServerConfig> servers = workerServers(env);
    if (servers.isEmpty()) {
      return List.of();
    }
    try (McpToolSet mcp = connect(servers)) {
      List<String> names = new ArrayList<>();
      mcp.serverNames().forEach(s -> names.addAll(mcp.toolNames(s)));
      return names;
    }
  }
}
