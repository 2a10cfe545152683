package io.durableagents.activities.tools.mcp;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import io.durableagents.activities.tools.ToolRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tools of a worker's MCP servers: connected when the worker starts, their tool lists read once,
 * each tool registered as an external tool whose calls are activities ({@code tool: mcp
 * <server>/<tool>} in the Temporal UI). The clients live as long as the worker and are shared by every
 * call; {@link #close()} stops them (and the processes of stdio servers).
 *
 * <pre>{@code
 * try (McpToolSet mcp = McpToolSet.connect(List.of(McpServerConfig.newBuilder("fs")
 *     .setCommand(List.of("node", "server-filesystem/dist/index.js", "/data")).build()))) {
 *   ToolRegistry tools = mcp.addTo(ToolRegistry.newBuilder()).build();
 *   worker.registerActivitiesImplementations(new ToolActivitiesImpl(tools));
 *   ...
 * }
 * }</pre>
 *
 * <p>A server that cannot be started or reached, or does not list its tools, fails {@link #connect}
 * with a {@link McpServerUnavailableException} naming it; one that stops answering later is named by
 * {@link #problems()} (the worker's {@code /health}), and the calls of its tools fail and are retried.
 */
public final class McpToolSet implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(McpToolSet.class);

  /** The {@code _meta} key of every call's idempotency key ({@code <workflow id>/<step>/<call id>}). */
  public static final String IDEMPOTENCY_META_KEY = "io.durableagents/idempotency-key";

  private static final McpToolSet EMPTY = new McpToolSet(List.of(), Map.of());

  /** A registered tool: its schema as models see it, and what runs it. */
  private record Registered(ToolSpecification specification, McpTool tool) {}

  private final List<McpServerConnection> servers;
  private final Map<String, List<Registered>> toolsByServer;

  private McpToolSet(List<McpServerConnection> servers, Map<String, List<Registered>> toolsByServer) {
    this.servers = List.copyOf(servers);
    this.toolsByServer = Collections.unmodifiableMap(new LinkedHashMap<>(toolsByServer));
  }

  /** No servers. */
  public static McpToolSet empty() {
    return EMPTY;
  }

  /**
   * Connects to every server and reads its tools; on a failure closes those already connected.
   *
   * @throws McpServerUnavailableException naming the server that cannot be reached or lists no tool
   *     the configuration asks for
   * @throws IllegalArgumentException when two servers have one name
   */
  public static McpToolSet connect(List<McpServerConfig> configs) {
    if (configs == null || configs.isEmpty()) {
      return EMPTY;
    }
    Set<String> names = new LinkedHashSet<>();
    for (McpServerConfig c : configs) {
      if (!names.add(c.name())) {
        throw new IllegalArgumentException("two MCP servers are named '" + c.name() + "'");
      }
    }
    List<McpServerConnection> connected = new ArrayList<>();
    Map<String, List<Registered>> tools = new LinkedHashMap<>();
    try {
      for (McpServerConfig config : configs) {
        long start = System.nanoTime();
        McpServerConnection server = McpServerConnection.open(config);
        connected.add(server);
        List<Registered> registered = tools(server);
        tools.put(config.name(), registered);
        log.info("MCP server {}: {} tools in {} ms ({})", config.describe(), registered.size(),
            (System.nanoTime() - start) / 1_000_000,
            String.join(", ", registered.stream().map(r -> r.specification().name()).toList()));
      }
    } catch (RuntimeException e) {
      connected.forEach(McpServerConnection::close);
      throw e;
    }
    return new McpToolSet(connected, tools);
  }

  /** The server's tools as they will be registered: filtered, renamed, the idempotency argument hidden. */
  private static List<Registered> tools(McpServerConnection server) {
    McpServerConfig config = server.config();
    List<ToolSpecification> listed = server.listTools();
    Map<String, ToolSpecification> byName = new LinkedHashMap<>();
    for (ToolSpecification spec : listed) {
      byName.put(spec.name(), spec);
    }
    List<String> wanted = config.tools().isEmpty() ? List.copyOf(byName.keySet()) : config.tools();
    List<String> missing = wanted.stream().filter(t -> !byName.containsKey(t)).toList();
    if (!missing.isEmpty()) {
      throw new McpServerUnavailableException(config.name(), "MCP server " + config.describe()
          + " has no tool " + String.join(", ", missing) + " (tools of its configuration); it has: "
          + String.join(", ", byName.keySet()), null);
    }
    List<Registered> out = new ArrayList<>();
    for (String name : wanted) {
      ToolSpecification spec = byName.get(name);
      String visible = config.toolName(name);
      if (visible.length() > McpServerConfig.MAX_TOOL_NAME_LENGTH) {
        throw new IllegalArgumentException("MCP server '" + config.name() + "': the name of its tool '" + name
            + "' would be '" + visible + "', longer than the " + McpServerConfig.MAX_TOOL_NAME_LENGTH
            + " characters models accept; give the server a shorter tool_prefix or name");
      }
      JsonObjectSchema parameters = spec.parameters();
      boolean takesKey = parameters != null && parameters.properties() != null
          && parameters.properties().containsKey(config.idempotencyArgument());
      ToolSpecification.Builder visibleSpec = ToolSpecification.builder()
          .name(visible)
          .description(spec.description() == null || spec.description().isBlank()
              ? name + " (MCP server " + config.name() + ")" : spec.description())
          .parameters(takesKey ? withoutProperty(parameters, config.idempotencyArgument()) : parameters);
      out.add(new Registered(visibleSpec.build(), new McpTool(server, name, takesKey)));
    }
    return out;
  }

  /** The schema without {@code property}: the worker fills it in, the model never sees it. */
  private static JsonObjectSchema withoutProperty(JsonObjectSchema schema, String property) {
    Map<String, JsonSchemaElement> properties = new LinkedHashMap<>(schema.properties());
    properties.remove(property);
    List<String> required = schema.required() == null ? List.of()
        : schema.required().stream().filter(r -> !r.equals(property)).toList();
    JsonObjectSchema.Builder b = JsonObjectSchema.builder()
        .description(schema.description())
        .addProperties(properties)
        .required(required)
        .additionalProperties(schema.additionalProperties());
    if (schema.definitions() != null) {
      b.definitions(schema.definitions());
    }
    return b.build();
  }

  /**
   * Registers every tool of every server on {@code tools} as an external tool.
   *
   * @throws IllegalArgumentException naming both tools when a name is taken
   */
  public ToolRegistry.Builder addTo(ToolRegistry.Builder tools) {
    for (Map.Entry<String, List<Registered>> server : toolsByServer.entrySet()) {
      McpServerConfig config = config(server.getKey());
      for (Registered r : server.getValue()) {
        tools.addExternalTool(r.specification(), r.tool(), config.options());
      }
    }
    return tools;
  }

  /** The names of the servers, in configuration order. */
  public List<String> serverNames() {
    return List.copyOf(toolsByServer.keySet());
  }

  /** The names under which the tools of {@code server} are registered (as models see them). */
  public List<String> toolNames(String server) {
    List<Registered> tools = toolsByServer.get(server);
    return tools == null ? List.of() : tools.stream().map(r -> r.specification().name()).toList();
  }

  /** The server's tools the worker offers: its own name of each, to the name it is registered under. */
  public Map<String, String> tools(String server) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Registered r : toolsByServer.getOrDefault(server, List.of())) {
      out.put(r.tool().tool(), r.specification().name());
    }
    return out;
  }

  /** The registered name of the server's tool {@code tool} (its own name for it), if offered. */
  public java.util.Optional<String> toolName(String server, String tool) {
    List<Registered> tools = toolsByServer.get(server);
    return tools == null ? java.util.Optional.empty() : tools.stream().filter(r -> r.tool().tool().equals(tool))
        .map(r -> r.specification().name()).findFirst();
  }

  /**
   * The servers that do not answer a ping now, each with why; empty when every one does. What the
   * worker's {@code /health} reports.
   */
  public Map<String, String> problems() {
    Map<String, String> problems = new LinkedHashMap<>();
    for (McpServerConnection server : servers) {
      String problem = server.problem();
      if (problem != null) {
        problems.put(server.config().name(), problem);
      }
    }
    return problems;
  }

  /**
   * Every server, in configuration order, with its state now: null when it answers a ping, otherwise
   * why it does not (asked twice). What the worker's {@code /health} lists.
   */
  public Map<String, String> states() {
    Map<String, String> states = new LinkedHashMap<>();
    for (McpServerConnection server : servers) {
      states.put(server.config().name(), server.problem());
    }
    return states;
  }

  /** Whether there are no servers. */
  public boolean isEmpty() {
    return servers.isEmpty();
  }

  private McpServerConfig config(String name) {
    return servers.stream().map(McpServerConnection::config).filter(c -> c.name().equals(name)).findFirst()
        .orElseThrow();
  }

  /** Stops every client, and the process of every stdio server. */
  @Override
  public void close() {
    servers.forEach(McpServerConnection::close);
  }
}
