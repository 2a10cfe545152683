package io.durableagents.activities.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.durableagents.activities.tools.mcp.McpServerConfig;
import io.durableagents.activities.tools.mcp.McpServerConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A spec's {@code spec.mcp_servers}: the servers it defines itself (for {@code agent run} to hand to the
 * worker it starts) and the tool names it gives its agent of the servers the worker has.
 */
final class McpServerSpecs {
  private static final YAMLMapper YAML = new YAMLMapper();

  private McpServerSpecs() {}

  /**
   * The MCP servers a spec defines itself ({@code spec.mcp_servers} entries with a {@code command} or
   * a {@code url}), checked: what {@code agent run} connects and hands to the worker it starts. Entries
   * that only name a server (and maybe pick its {@code tools}) are the worker's and are not returned.
   *
   * @throws AgentSpecException naming the field at fault and what is allowed
   */
  static List<McpServerConfig> mcpServerDefinitions(Path file, Map<String, String> env) {
    JsonNode servers = mcpServersNode(file);
    List<McpServerConfig> out = new ArrayList<>();
    servers.fields().forEachRemaining(e -> {
      if (isDefinition(e.getValue())) {
        try {
          out.add(McpServerConfigs.parse(e.getValue().isObject() ? singleton(e.getKey(), e.getValue()) : null,
              "spec.mcp_servers", env).get(0));
        } catch (IllegalArgumentException bad) {
          throw specError("spec.mcp_servers." + e.getKey(), bad);
        }
      }
    });
    return out;
  }

  /**
   * The {@code mcp_servers} section of the spec in {@code file} as written (variables such as {@code
   * ${TOKEN}} not yet replaced), its definitions only, as a document {@code mcp_servers: {...}}: what
   * {@code agent run} gives the worker it starts, which reads it from {@code DURABLE_AGENTS_MCP_SERVERS}.
   * Null when the spec defines no server.
   */
  static String mcpServerDefinitionsDocument(Path file) {
    JsonNode servers = mcpServersNode(file);
    var doc = YAML.createObjectNode();
    var defs = doc.putObject("mcp_servers");
    servers.fields().forEachRemaining(e -> {
      if (isDefinition(e.getValue())) {
        defs.set(e.getKey(), e.getValue());
      }
    });
    if (defs.isEmpty()) {
      return null;
    }
    try {
      return YAML.writeValueAsString(doc);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Whether the spec in {@code file} has a {@code spec.mcp_servers} section with a server in it. */
  static boolean hasMcpServers(Path file) {
    return !mcpServersNode(file).isEmpty();
  }

  private static JsonNode mcpServersNode(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new AgentSpecException(file.toString(), "cannot read the spec: " + e.getMessage());
    }
    JsonNode root = SpecYaml.read(text, file.toString());
    JsonNode servers = root == null ? null : root.path("spec").path("mcp_servers");
    if (servers == null || servers.isMissingNode() || servers.isNull()) {
      return YAML.createObjectNode();
    }
    if (!servers.isObject()) {
      throw new AgentSpecException("spec.mcp_servers", MCP_SERVERS_SHAPE);
    }
    return servers;
  }

  private static final String MCP_SERVERS_SHAPE = "a map from server name to {command | url, tools, ...} "
      + "(a server of its own) or {tools} (one the worker has)";

  /** Whether an entry defines its server (how to reach it), rather than naming one the worker has. */
  private static boolean isDefinition(JsonNode entry) {
    return entry != null && entry.isObject() && (entry.has("command") || entry.has("url"));
  }

  /** {@code spec.mcp_servers.fs.url: ...} from the server parser, as the loader's errors name fields. */
  private static AgentSpecException specError(String at, IllegalArgumentException bad) {
    String m = bad.getMessage();
    int colon = m.indexOf(": ");
    if (m.startsWith("spec.mcp_servers.") && colon > 0) {
      return new AgentSpecException(m.substring(0, colon), m.substring(colon + 2));
    }
    return new AgentSpecException(at, m);
  }

  private static JsonNode singleton(String name, JsonNode entry) {
    var map = YAML.createObjectNode();
    map.set(name, entry);
    return map;
  }

  /**
   * The registered names of the tools a spec's {@code mcp_servers} gives its agent: every tool the
   * worker offers of each server, or those its {@code tools} picks.
   */
  static List<String> mcpTools(JsonNode servers, RegisteredNames registered) {
    List<String> out = new ArrayList<>();
    if (servers.isMissingNode() || servers.isNull()) {
      return out;
    }
    if (!servers.isObject()) {
      throw new AgentSpecException("spec.mcp_servers", MCP_SERVERS_SHAPE);
    }
    Iterator<Map.Entry<String, JsonNode>> entries = servers.fields();
    while (entries.hasNext()) {
      Map.Entry<String, JsonNode> e = entries.next();
      String at = "spec.mcp_servers." + e.getKey();
      JsonNode entry = e.getValue();
      if (entry == null || entry.isNull()) {
        entry = YAML.createObjectNode();
      }
      if (!entry.isObject()) {
        throw new AgentSpecException(at, MCP_SERVERS_SHAPE);
      }
      if (isDefinition(entry)) {
        try {
          McpServerConfigs.parse(singleton(e.getKey(), entry), "spec.mcp_servers", Map.of()).get(0);
        } catch (IllegalArgumentException bad) {
          // A variable is the worker's to fill in; any other mistake is the spec's.
          if (!bad.getMessage().contains("which is not set")) {
            throw specError(at, bad);
          }
        }
      } else {
        SpecFields.allowOnly(entry, at, "tools");
      }
      Map<String, String> offered = registered.mcpServers().get(e.getKey());
      if (offered == null) {
        throw new AgentSpecException(at, "the worker has no MCP server '" + e.getKey() + "'"
            + (registered.mcpServers().isEmpty() ? " (it has none)"
                : "; it has: " + String.join(", ", registered.mcpServers().keySet()))
            + (isDefinition(entry) ? "" : "; define it here with command or url, or give it to the worker "
                + "(DURABLE_AGENTS_MCP_SERVERS)"));
      }
      JsonNode tools = entry.path("tools");
      if (tools.isMissingNode() || tools.isNull()) {
        out.addAll(offered.values());
        continue;
      }
      if (!tools.isArray() || tools.isEmpty()) {
        throw new AgentSpecException(at + ".tools", "a list of the server's tools; it has: "
            + String.join(", ", offered.keySet()));
      }
      for (JsonNode t : tools) {
        String name = offered.get(t.asText());
        if (name == null) {
          throw new AgentSpecException(at + ".tools", "'" + t.asText() + "' is not one of: "
              + String.join(", ", offered.keySet()));
        }
        out.add(name);
      }
    }
    return out;
  }
}
