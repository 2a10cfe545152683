package io.durableagents.activities.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads MCP server configurations from YAML or JSON: the {@code mcp_servers:} section of an agent spec,
 * and the file a worker is given in {@code DURABLE_AGENTS_MCP_SERVERS}. One shape for both, a map
 * from server name to its settings:
 *
 * <pre>{@code
 * mcp_servers:
 *   fs:
 *     command: [node, /opt/mcp/server-filesystem/dist/index.js, /data]   # a stdio server
 *     env: {LOG_LEVEL: warn}
 *     tools: [read_text_file, list_directory]                           # default: all its tools
 *   search:
 *     url: http://localhost:3001/mcp                                    # a streamable-HTTP server
 *     headers: {Authorization: "Bearer ${SEARCH_TOKEN}"}
 *     call_timeout_seconds: 120
 * }</pre>
 *
 * <p>A file may also use the {@code mcpServers} key and the {@code command} plus {@code args} form of
 * the configuration files of MCP desktop clients. Values of {@code env} and {@code headers} may name
 * the worker's environment variables as {@code ${NAME}}, so that secrets stay out of files. Every
 * error names the field and what is allowed.
 */
public final class McpServerConfigs {
  /** The fields a server's entry may have. */
  public static final List<String> FIELDS = List.of("command", "args", "env", "url", "headers", "type", "tools",
      "tool_prefix", "call_timeout_seconds", "heartbeat_timeout_seconds", "maximum_attempts", "idempotency_argument");

  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

  private McpServerConfigs() {}

  /**
   * Reads the servers of a file: its {@code mcp_servers} (or {@code mcpServers}) map.
   *
   * @throws IllegalArgumentException naming the file, the field and what is allowed
   */
  public static List<McpServerConfig> load(Path file, Map<String, String> env) {
    JsonNode root;
    try {
      root = YAML.readTree(Files.readString(file));
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read the MCP servers: " + e.getMessage());
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(file + ": a mapping with mcp_servers: {<name>: {command | url, ...}}");
    }
    JsonNode servers = root.has("mcp_servers") ? root.get("mcp_servers") : root.get("mcpServers");
    if (servers == null) {
      throw new IllegalArgumentException(file + ": no mcp_servers (or mcpServers) section");
    }
    try {
      return parse(servers, root.has("mcp_servers") ? "mcp_servers" : "mcpServers", env);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads a map from server name to settings; {@code at} names it in messages ({@code spec.mcp_servers}).
   *
   * @throws IllegalArgumentException naming the field and what is allowed
   */
  public static List<McpServerConfig> parse(JsonNode servers, String at, Map<String, String> env) {
    if (servers == null || servers.isNull() || servers.isMissingNode()) {
      return List.of();
    }
    if (!servers.isObject()) {
      throw new IllegalArgumentException(at + ": a map from server name to {command | url, ...}");
    }
    List<McpServerConfig> configs = new ArrayList<>();
    Iterator<Map.Entry<String, JsonNode>> entries = servers.fields();
    while (entries.hasNext()) {
      Map.Entry<String, JsonNode> e = entries.next();
      configs.add(parse(e.getKey(), e.getValue(), at + "." + e.getKey(), env));
    }
    return configs;
  }

  /** One server's entry. */
  static McpServerConfig parse(String name, JsonNode s, String at, Map<String, String> env) {
    if (s == null || !s.isObject()) {
      throw new IllegalArgumentException(at + ": a map with command (a stdio server) or url (streamable HTTP)");
    }
    Iterator<String> names = s.fieldNames();
    while (names.hasNext()) {
      String f = names.next();
      if (!FIELDS.contains(f)) {
        throw new IllegalArgumentException(at + "." + f + ": not a field here; allowed: " + String.join(", ", FIELDS));
      }
    }
    McpServerConfig.Builder b = McpServerConfig.newBuilder(name);
    List<String> command = new ArrayList<>();
    JsonNode c = s.get("command");
    if (c != null && c.isTextual()) {
      command.add(c.asText());
    } else if (c != null) {
      command.addAll(strings(c, at + ".command"));
    }
    if (s.has("args")) {
      if (command.isEmpty()) {
        throw new IllegalArgumentException(at + ".args: needs a command");
      }
      command.addAll(strings(s.get("args"), at + ".args"));
    }
    b.setCommand(command);
    if (s.hasNonNull("url")) {
      b.setUrl(s.get("url").asText());
    }
    if (s.hasNonNull("type")) {
      String type = s.get("type").asText();
      boolean stdio = type.equals("stdio");
      if (!stdio && !type.equals("http") && !type.equals("streamable-http") && !type.equals("streamableHttp")) {
        throw new IllegalArgumentException(at + ".type: '" + type + "' is not one of: stdio, http, streamable-http");
      }
      if (stdio != !command.isEmpty()) {
        throw new IllegalArgumentException(at + ".type: " + type + (stdio ? " needs a command" : " needs a url"));
      }
    }
    map(s.get("env"), at + ".env", env).forEach(b::putEnvironment);
    map(s.get("headers"), at + ".headers", env).forEach(b::putHeader);
    if (s.has("tools")) {
      b.setTools(strings(s.get("tools"), at + ".tools"));
    }
    if (s.has("tool_prefix")) {
      b.setToolPrefix(s.get("tool_prefix").isNull() ? "" : s.get("tool_prefix").asText());
    }
    if (s.has("call_timeout_seconds")) {
      JsonNode t = s.get("call_timeout_seconds");
      if (!t.isIntegralNumber() || t.asLong() < 1 || t.asLong() > 24 * 3600) {
        throw new IllegalArgumentException(at + ".call_timeout_seconds: '" + t.asText()
            + "' is not an integer from 1 to 86400");
      }
      b.setCallTimeout(Duration.ofSeconds(t.asLong()));
    }
    if (s.has("heartbeat_timeout_seconds") || s.has("maximum_attempts")) {
      // The activity's options: an attempt runs the call timeout and 10 s, as by default.
      Duration call = s.has("call_timeout_seconds") ? Duration.ofSeconds(s.get("call_timeout_seconds").asLong())
          : McpServerConfig.DEFAULT_CALL_TIMEOUT;
      io.durableagents.activities.tools.ToolOptions.Builder options = io.durableagents.activities.tools.ToolOptions
          .newBuilder().setStartToCloseTimeout(call.plus(McpServerConfig.ACTIVITY_MARGIN));
      if (s.has("heartbeat_timeout_seconds")) {
        options.setHeartbeatTimeout(Duration.ofSeconds(integer(s, "heartbeat_timeout_seconds", at, 0, 3600)));
      }
      if (s.has("maximum_attempts")) {
        options.setMaximumAttempts(integer(s, "maximum_attempts", at, 1, 100));
      }
      try {
        b.setOptions(options.build());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(at + ": " + e.getMessage(), e);
      }
    }
    if (s.hasNonNull("idempotency_argument")) {
      b.setIdempotencyArgument(s.get("idempotency_argument").asText());
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(at + ": " + e.getMessage(), e);
    }
  }

  private static int integer(JsonNode s, String field, String at, int min, int max) {
    JsonNode v = s.get(field);
    if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
      throw new IllegalArgumentException(at + "." + field + ": '" + v.asText() + "' is not an integer from " + min
          + " to " + max);
    }
    return v.asInt();
  }

  private static List<String> strings(JsonNode node, String at) {
    if (!node.isArray()) {
      throw new IllegalArgumentException(at + ": a list of strings");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode n : node) {
      if (!n.isValueNode() || n.isNull()) {
        throw new IllegalArgumentException(at + ": a list of strings, not " + n);
      }
      out.add(n.asText());
    }
    return out;
  }

  private static Map<String, String> map(JsonNode node, String at, Map<String, String> env) {
    if (node == null || node.isNull()) {
      return Map.of();
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException(at + ": a map of names to strings");
    }
    Map<String, String> out = new java.util.LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> f = fields.next();
      out.put(f.getKey(), expand(f.getValue().asText(), at + "." + f.getKey(), env));
    }
    return out;
  }

  /** {@code ${NAME}} replaced by the variable's value. */
  static String expand(String value, String at, Map<String, String> env) {
    Matcher m = VARIABLE.matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String v = env == null ? null : env.get(m.group(1));
      if (v == null) {
        throw new IllegalArgumentException(at + ": names ${" + m.group(1) + "}, which is not set");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(v));
    }
    m.appendTail(out);
    return out.toString();
  }
}
