package io.durableagents.activities.spec;

import io.durableagents.activities.tools.ToolRegistry;
import io.durableagents.activities.tools.mcp.McpToolSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What a worker has registered beyond the built-ins, by name, that an agent spec may name: external
 * tools (in {@code spec.tools}, as {@code - type: <name>}) and models (in {@code spec.model}). The
 * loader checks a spec against them, so that a misspelt name fails before anything runs, naming the
 * field and every allowed value.
 *
 * <pre>{@code
 * DurableAgentsPlugin.Builder builder = DurableAgentsPlugin.newBuilder()
 *     .registerTool(new WeatherTool())
 *     .registerModel("my-model", myChatModel);
 * DurableAgentsPlugin plugin = builder.build();
 * AgentSpec spec = AgentSpecLoader.load(Path.of("weather-agent.yaml"),
 *     RegisteredNames.of(plugin.tools(), builder.modelNames()));
 * }</pre>
 *
 * @param tools the names of the registered external tools
 * @param models the names of the registered models
 * @param mcpServers the worker's MCP servers (what a spec's {@code mcp_servers} may name): for each
 *     server, its own names of the tools the worker offers, each to the name it is registered under
 */
public record RegisteredNames(Set<String> tools, Set<String> models, Map<String, Map<String, String>> mcpServers) {
  /** Nothing registered: a spec may name the built-in tools and model providers only. */
  public static final RegisteredNames NONE = new RegisteredNames(Set.of(), Set.of());

  public RegisteredNames {
    // in registration order, for messages that list them
    tools = tools == null ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(tools));
    models = models == null ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(models));
    Map<String, Map<String, String>> servers = new LinkedHashMap<>();
    if (mcpServers != null) {
      mcpServers.forEach((server, byTool) -> servers.put(server,
          Collections.unmodifiableMap(new LinkedHashMap<>(byTool))));
    }
    mcpServers = Collections.unmodifiableMap(servers);
  }

  /** Tools and models, no MCP server. */
  public RegisteredNames(Set<String> tools, Set<String> models) {
    this(tools, models, Map.of());
  }

  /** These names, and the servers and tools of {@code mcp} (whose tools count as registered tools). */
  public RegisteredNames withMcpTools(McpToolSet mcp) {
    Set<String> allTools = new LinkedHashSet<>(tools);
    Map<String, Map<String, String>> servers = new LinkedHashMap<>(mcpServers);
    for (String server : mcp.serverNames()) {
      servers.put(server, mcp.tools(server));
      allTools.addAll(mcp.tools(server).values());
    }
    return new RegisteredNames(allTools, models, servers);
  }

  /** The external tools of {@code tools} (a worker's registry) and the models named {@code models}. */
  public static RegisteredNames of(ToolRegistry tools, Set<String> models) {
    return new RegisteredNames(new LinkedHashSet<>(tools.externalToolNames()), models);
  }
}
