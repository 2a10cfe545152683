package io.durableagents.activities.tools.mcp;

import io.durableagents.activities.tools.ToolOptions;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One MCP server whose tools a worker offers to its agents: how to reach it (a command it starts and
 * talks to over stdio, or the URL of a streamable-HTTP server), which of its tools to offer, the name
 * prefix of those tools, and how their calls run as activities. Immutable and built; {@link Builder#build()}
 * checks every setting and fails naming it.
 *
 * <pre>{@code
 * McpServerConfig files = McpServerConfig.newBuilder("fs")
 *     .setCommand(List.of("npx", "-y", "@modelcontextprotocol/server-filesystem", "/data"))
 *     .setTools(List.of("read_text_file", "list_directory"))
 *     .build();
 * McpServerConfig search = McpServerConfig.newBuilder("search")
 *     .setUrl("http://localhost:3001/mcp")
 *     .putHeader("Authorization", "Bearer " + System.getenv("SEARCH_TOKEN"))
 *     .build();
 * DurableAgentsPlugin.newBuilder().registerMcpServer(files).registerMcpServer(search);
 * }</pre>
 *
 * <p>Models see a server's tool {@code read_text_file} as {@code fs_read_text_file} (the prefix is the
 * server's name and {@code _} unless {@link Builder#setToolPrefix set}), so that two servers' tools,
 * and a server's and the worker's own, do not clash; a clash left fails the worker's start, naming
 * both tools.
 */
public final class McpServerConfig {
  /** What a server's name may be: it starts the names of its tools, which models must accept. */
  public static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,31}");

  /** The longest a tool's name may be for every provider (OpenAI's limit). */
  public static final int MAX_TOOL_NAME_LENGTH = 64;

  /** The longest one call may take, by default, before the client gives it up. */
  public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(60);

  /** How much longer than the call timeout an activity attempt may run (the client answers first). */
  static final Duration ACTIVITY_MARGIN = Duration.ofSeconds(10);

  /** The argument a tool takes the idempotency key in, when its schema has one (hidden from models). */
  public static final String DEFAULT_IDEMPOTENCY_ARGUMENT = "idempotency_key";

  private final String name;
  private final List<String> command;
  private final Map<String, String> environment;
  private final String url;
  private final Map<String, String> headers;
  private final List<String> tools;
  private final String toolPrefix;
  private final Duration callTimeout;
  private final ToolOptions options;
  private final String idempotencyArgument;

  private McpServerConfig(Builder b) {
    this.name = b.name;
    this.command = List.copyOf(b.command);
    this.environment = Map.copyOf(b.environment);
    this.url = b.url;
    this.headers = Map.copyOf(b.headers);
    this.tools = List.copyOf(b.tools);
    this.toolPrefix = b.toolPrefix == null ? b.name + "_" : b.toolPrefix;
    this.callTimeout = b.callTimeout;
    this.options = b.options != null ? b.options
        : ToolOptions.newBuilder().setStartToCloseTimeout(b.callTimeout.plus(ACTIVITY_MARGIN)).build();
    this.idempotencyArgument = b.idempotencyArgument;
  }

  /** A builder for the server called {@code name} (letters, digits, {@code _} and {@code -}). */
  public static Builder newBuilder(String name) {
    return new Builder(name);
  }

  /** The server's name, as configurations, specs, messages and {@code /health} name it. */
  public String name() {
    return name;
  }

  /** The command that starts a stdio server and its arguments; empty for an HTTP server. */
  public List<String> command() {
    return command;
  }

  /** Variables set for a stdio server's process, on top of the worker's own. */
  public Map<String, String> environment() {
    return environment;
  }

  /** The URL of a streamable-HTTP server; null for a stdio server. */
  public String url() {
    return url;
  }

  /** Headers sent with every request to an HTTP server (e.g. {@code Authorization}). */
  public Map<String, String> headers() {
    return headers;
  }

  /** The server's tools to offer, by the server's names for them; empty: all of them. */
  public List<String> tools() {
    return tools;
  }

  /** What the name of each of its tools starts with, as models see it ({@code <name>_} by default). */
  public String toolPrefix() {
    return toolPrefix;
  }

  /** The longest one call may take before the client gives it up and the attempt is retried. */
  public Duration callTimeout() {
    return callTimeout;
  }

  /** The options of its tools' activities: an attempt may run the call timeout and 10 s by default. */
  public ToolOptions options() {
    return options;
  }

  /**
   * The argument in which a tool takes the call's idempotency key, when its input schema has one; the
   * key is also sent in every call's {@code _meta} as {@value McpToolSet#IDEMPOTENCY_META_KEY}.
   */
  public String idempotencyArgument() {
    return idempotencyArgument;
  }

  /** Whether the worker starts it and talks to it over stdio (else: streamable HTTP). */
  public boolean isStdio() {
    return url == null;
  }

  /** The name models see for the server's tool {@code tool}. */
  public String toolName(String tool) {
    return toolPrefix + tool.replaceAll("[^A-Za-z0-9_-]", "_");
  }

  /** {@code fs (stdio: npx -y ...)} or {@code search (http://...)}: for messages, without headers. */
  public String describe() {
    return name + (isStdio() ? " (stdio: " + String.join(" ", command) + ")" : " (" + url + ")");
  }

  @Override
  public String toString() {
    return "McpServerConfig[" + describe() + "]";
  }

  /** Builds a {@link McpServerConfig}. */
  public static final class Builder {
    private final String name;
    private List<String> command = List.of();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private String url;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private List<String> tools = List.of();
    private String toolPrefix;
    private Duration callTimeout = DEFAULT_CALL_TIMEOUT;
    private ToolOptions options;
    private String idempotencyArgument = DEFAULT_IDEMPOTENCY_ARGUMENT;

    private Builder(String name) {
      this.name = name;
    }

    /** The command that starts a stdio server, and its arguments. */
    public Builder setCommand(List<String> command) {
      this.command = command == null ? List.of() : new ArrayList<>(command);
      return this;
    }

    /** A variable set for a stdio server's process. */
    public Builder putEnvironment(String variable, String value) {
      environment.put(variable, value);
      return this;
    }

    /** The URL of a streamable-HTTP server ({@code http://host:port/mcp}). */
    public Builder setUrl(String url) {
      this.url = url;
      return this;
    }

    /** A header sent with every request to an HTTP server. */
    public Builder putHeader(String header, String value) {
      headers.put(header, value);
      return this;
    }

    /** Only these of the server's tools, by its names for them (default: all). */
    public Builder setTools(List<String> tools) {
      this.tools = tools == null ? List.of() : new ArrayList<>(tools);
      return this;
    }

    /** What its tools' names start with, as models see them (default {@code <name>_}; "" for none). */
    public Builder setToolPrefix(String toolPrefix) {
      this.toolPrefix = toolPrefix;
      return this;
    }

    /** The longest one call may take (default 60 s). */
    public Builder setCallTimeout(Duration callTimeout) {
      this.callTimeout = callTimeout;
      return this;
    }

    /**
     * The options of its tools' activities (retries, heartbeats); the start-to-close timeout must be
     * longer than the call timeout. Default: the call timeout and 10 s, and the default retries.
     */
    public Builder setOptions(ToolOptions options) {
      this.options = options;
      return this;
    }

    /** The argument in which its tools take the idempotency key (default {@code idempotency_key}). */
    public Builder setIdempotencyArgument(String idempotencyArgument) {
      this.idempotencyArgument = idempotencyArgument;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the server and the setting whose value is not allowed
     */
    public McpServerConfig build() {
      if (name == null || !NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("MCP server name '" + name + "' is not allowed: a letter, then up "
            + "to 31 letters, digits, '_' or '-' (it starts the names of its tools)");
      }
      String at = "MCP server '" + name + "': ";
      boolean hasCommand = !command.isEmpty();
      if (hasCommand == (url != null)) {
        throw new IllegalArgumentException(at + "give either command (a stdio server) or url (a streamable-HTTP "
            + "server), " + (hasCommand ? "not both" : "one of them"));
      }
      if (hasCommand && command.stream().anyMatch(c -> c == null || c.isBlank())) {
        throw new IllegalArgumentException(at + "command " + command + " has an empty part");
      }
      if (url != null) {
        URI uri;
        try {
          uri = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(at + "url '" + url + "' is not a URL: " + e.getMessage());
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
          throw new IllegalArgumentException(at + "url '" + url + "' is not an http:// or https:// URL");
        }
        url = url.strip();
      }
      if (!environment.isEmpty() && !hasCommand) {
        throw new IllegalArgumentException(at + "env applies to a stdio server (command), not to url");
      }
      if (!headers.isEmpty() && hasCommand) {
        throw new IllegalArgumentException(at + "headers apply to an HTTP server (url), not to command");
      }
      if (toolPrefix != null && !toolPrefix.matches("[A-Za-z0-9_-]*")) {
        throw new IllegalArgumentException(at + "tool_prefix '" + toolPrefix + "' is not allowed: letters, "
            + "digits, '_' or '-' (models accept no other characters in tool names)");
      }
      if (callTimeout == null || callTimeout.isNegative() || callTimeout.isZero()) {
        throw new IllegalArgumentException(at + "call timeout " + callTimeout + " is not allowed: a positive "
            + "duration");
      }
      if (options != null && options.policy().startToCloseTimeout().compareTo(callTimeout) <= 0) {
        throw new IllegalArgumentException(at + "the start-to-close timeout of its calls ("
            + options.policy().startToCloseTimeout() + ") must be longer than its call timeout (" + callTimeout
            + "): the client gives a call up first, and says so");
      }
      if (idempotencyArgument == null || idempotencyArgument.isBlank()) {
        throw new IllegalArgumentException(at + "idempotency_argument is empty");
      }
      if (tools.stream().anyMatch(t -> t == null || t.isBlank())) {
        throw new IllegalArgumentException(at + "tools " + tools + " has an empty name");
      }
      return new McpServerConfig(this);
    }
  }
}
