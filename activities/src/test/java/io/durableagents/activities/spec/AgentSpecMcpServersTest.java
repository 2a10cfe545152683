package io.durableagents.activities.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.activities.tools.mcp.McpServerConfig;
import io.durableagents.workflows.autonomous.AgentSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A spec's {@code mcp_servers}: the worker's servers by name, or servers of its own, and their tools. */
class AgentSpecMcpServersTest {
  private static final Path HERE = Path.of(".");

  /** A worker with the server {@code fs} (two tools) and {@code search} (one). */
  private static RegisteredNames worker() {
    Map<String, Map<String, String>> servers = new LinkedHashMap<>();
    Map<String, String> fs = new LinkedHashMap<>();
    fs.put("read_text_file", "fs_read_text_file");
    fs.put("list_directory", "fs_list_directory");
    servers.put("fs", fs);
    servers.put("search", Map.of("web_search", "search_web_search"));
    return new RegisteredNames(Set.of("fs_read_text_file", "fs_list_directory", "search_web_search"), Set.of(),
        servers);
  }

  private static AgentSpec parse(String mcpServers) {
    return AgentSpecLoader.parse("metadata:\n  name: t\nspec:\n  tools:\n    - type: calculator\n  mcp_servers:\n"
        + mcpServers, HERE, worker());
  }

  @Test
  void aServerByNameGivesTheAgentItsToolsOrThoseItPicks() {
    assertEquals(List.of("calculator", "fs_read_text_file", "fs_list_directory", "search_web_search"),
        parse("    fs: {}\n    search:\n").tools());
    assertEquals(List.of("calculator", "fs_list_directory"), parse("    fs:\n      tools: [list_directory]\n").tools());
  }

  @Test
  void anUnknownServerOrToolIsNamedWithWhatIsAllowed() {
    AgentSpecException server = assertThrows(AgentSpecException.class, () -> parse("    github: {}\n"));
    assertEquals("spec.mcp_servers.github", server.field());
    assertTrue(server.getMessage().contains("the worker has no MCP server 'github'; it has: fs, search"),
        server.getMessage());
    AgentSpecException tool = assertThrows(AgentSpecException.class, () -> parse("    fs:\n      tools: [delete]\n"));
    assertEquals("spec.mcp_servers.fs.tools", tool.field());
    assertTrue(tool.getMessage().contains("'delete' is not one of: read_text_file, list_directory"), tool.getMessage());
    AgentSpecException field = assertThrows(AgentSpecException.class, () -> parse("    fs:\n      prefix: x\n"));
    assertEquals("spec.mcp_servers.fs.prefix", field.field());
    AgentSpecException bad = assertThrows(AgentSpecException.class,
        () -> parse("    fs:\n      url: http://localhost:1/mcp\n      tool: [x]\n"));
    assertEquals("spec.mcp_servers.fs.tool", bad.field());
    assertTrue(bad.getMessage().contains("not a field here; allowed: command, args"), bad.getMessage());
  }

  @Test
  void aSpecsOwnServersAreReadWithTheirVariablesForTheWorkerToFillIn(@TempDir Path dir) throws Exception {
    Path spec = dir.resolve("agent.yaml");
    Files.writeString(spec, "metadata:\n  name: t\nspec:\n  mcp_servers:\n"
        + "    fs:\n      command: [node, server.js, /data]\n      tools: [read_text_file]\n"
        + "    search:\n      url: http://localhost:3001/mcp\n      headers: {Authorization: \"Bearer ${TOKEN}\"}\n"
        + "    theirs: {}\n");
    assertTrue(AgentSpecLoader.hasMcpServers(spec));
    List<McpServerConfig> defined = AgentSpecLoader.mcpServerDefinitions(spec, Map.of("TOKEN", "s3cret"));
    assertEquals(List.of("fs", "search"), defined.stream().map(McpServerConfig::name).toList());
    assertEquals(List.of("node", "server.js", "/data"), defined.get(0).command());
    assertEquals(List.of("read_text_file"), defined.get(0).tools());
    assertEquals("Bearer s3cret", defined.get(1).headers().get("Authorization"));

    String document = AgentSpecLoader.mcpServerDefinitionsDocument(spec);
    assertTrue(document.contains("Bearer ${TOKEN}") && !document.contains("s3cret") && !document.contains("theirs"),
        document);

    AgentSpecException unset = assertThrows(AgentSpecException.class,
        () -> AgentSpecLoader.mcpServerDefinitions(spec, Map.of()));
    assertEquals("spec.mcp_servers.search.headers.Authorization", unset.field());
    assertTrue(unset.getMessage().endsWith("names ${TOKEN}, which is not set"), unset.getMessage());

    Path plain = dir.resolve("plain.yaml");
    Files.writeString(plain, "metadata:\n  name: t\nspec:\n  tools:\n    - type: calculator\n");
    assertTrue(!AgentSpecLoader.hasMcpServers(plain));
    assertNull(AgentSpecLoader.mcpServerDefinitionsDocument(plain));
  }
}
