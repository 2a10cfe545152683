package io.durableagents.activities.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file of a worker's MCP servers: our shape, the desktop clients' shape, variables and mistakes. */
class McpServerConfigsTest {
  @Test
  void readsOurShapeAndTheDesktopClientsShape(@TempDir Path dir) throws Exception {
    Path ours = dir.resolve("mcp.yaml");
    Files.writeString(ours, "mcp_servers:\n  fs:\n    command: [node, index.js, /data]\n    env: {HOME_DIR: \"${HOME_DIR}\"}\n"
        + "    tools: [read_text_file]\n    call_timeout_seconds: 5\n    heartbeat_timeout_seconds: 2\n"
        + "    maximum_attempts: 4\n  search:\n    url: https://search.example/mcp\n    tool_prefix: web_\n");
    List<McpServerConfig> servers = McpServerConfigs.load(ours, Map.of("HOME_DIR", "/home/agent"));
    McpServerConfig fs = servers.get(0);
    assertEquals(List.of("node", "index.js", "/data"), fs.command());
    assertEquals(Map.of("HOME_DIR", "/home/agent"), fs.environment());
    assertEquals(Duration.ofSeconds(5), fs.callTimeout());
    assertEquals(Duration.ofSeconds(15), fs.options().policy().startToCloseTimeout());
    assertEquals(Duration.ofSeconds(2), fs.options().policy().heartbeatTimeout());
    assertEquals(4, fs.options().policy().maximumAttempts());
    assertEquals("web_search", servers.get(1).toolName("search"));

    Path desktop = dir.resolve("claude_desktop_config.json");
    Files.writeString(desktop, "{\"mcpServers\": {\"fs\": {\"command\": \"npx\", "
        + "\"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"/data\"]}}}");
    assertEquals(List.of("npx", "-y", "@modelcontextprotocol/server-filesystem", "/data"),
        McpServerConfigs.load(desktop, Map.of()).get(0).command());
  }

  @Test
  void aMistakeIsNamedByFileAndField(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("mcp.yaml");
    Files.writeString(file, "mcp_servers:\n  fs:\n    command: node\n    type: http\n");
    IllegalArgumentException type = assertThrows(IllegalArgumentException.class, () -> McpServerConfigs.load(file, Map.of()));
    assertEquals(file + ": mcp_servers.fs.type: http needs a url", type.getMessage());

    Files.writeString(file, "mcp_servers:\n  fs:\n    url: http://x/mcp\n    headers: {Authorization: \"${NOPE}\"}\n");
    IllegalArgumentException unset = assertThrows(IllegalArgumentException.class,
        () -> McpServerConfigs.load(file, Map.of()));
    assertTrue(unset.getMessage().endsWith("mcp_servers.fs.headers.Authorization: names ${NOPE}, which is not set"),
        unset.getMessage());

    Files.writeString(file, "mcp_servers:\n  fs:\n    url: http://x/mcp\n    call_timeout_seconds: 0\n");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> McpServerConfigs.load(file, Map.of()))
        .getMessage().endsWith("mcp_servers.fs.call_timeout_seconds: '0' is not an integer from 1 to 86400"));

    Files.writeString(file, "servers: {}\n");
    assertEquals(file + ": no mcp_servers (or mcpServers) section",
        assertThrows(IllegalArgumentException.class, () -> McpServerConfigs.load(file, Map.of())).getMessage());
  }
}
