package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.Tool;
import io.durableagents.activities.rules.RulesChatModel;
import io.durableagents.activities.tools.ToolOptions;
import io.durableagents.activities.tools.mcp.McpServerConfig;
import io.durableagents.activities.tools.mcp.McpToolSet;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a plugin's builder registers by name: each name once, and the tools built from them. */
class PluginRegistrationsTest {
  /** A tool object with one {@code @Tool} method. */
  public static class Echo {
    @Tool(name = "echo", value = "Echoes its text.")
    public String echo(String text) {
      return text;
    }
  }

  /** Another tool object whose method takes the same name. */
  public static class OtherEcho {
    @Tool(name = "echo", value = "Echoes its text twice.")
    public String echo(String text) {
      return text + text;
    }
  }

  @Test
  void aModelNameTakenTwiceFailsNamingTheFirstAndRulesIsAlwaysThere() {
    PluginRegistrations r = new PluginRegistrations();
    r.addModel("mine", new RulesChatModel());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> r.addModel("mine", new RulesChatModel()));
    assertEquals("registerModel: a model named 'mine' is registered already (" + RulesChatModel.class.getName()
        + ")", e.getMessage());
    assertEquals(Set.of(RulesChatModel.MODEL_NAME, "mine"), r.modelNames());
  }

  @Test
  void aToolTakenTwiceFailsAtItsRegistrationAndIsNotKept() {
    PluginRegistrations r = new PluginRegistrations();
    r.addTool(new Echo(), ToolOptions.defaults(), Path.of("files"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> r.addTool(new OtherEcho(), ToolOptions.defaults(), Path.of("files")));
    assertTrue(e.getMessage().startsWith("registerTool: ") && e.getMessage().contains("echo"), e.getMessage());
    List<String> external = r.toolRegistry(Path.of("files"), McpToolSet.empty()).externalToolNames();
    assertEquals(1, external.stream().filter("echo"::equals).count(), external.toString());
    assertTrue(external.containsAll(List.of("calculator", "read_file")), external.toString());
  }

  @Test
  void anMcpServerNameTakenTwiceFailsNamingBoth() {
    PluginRegistrations r = new PluginRegistrations();
    McpServerConfig first = McpServerConfig.newBuilder("fs").setCommand(List.of("a")).build();
    McpServerConfig second = McpServerConfig.newBuilder("fs").setCommand(List.of("b")).build();
    r.addMcpServer(first);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.addMcpServer(second));
    assertEquals("registerMcpServer: two MCP servers are named 'fs': " + first.describe() + " and "
        + second.describe(), e.getMessage());
    assertEquals(List.of("fs"), List.copyOf(r.mcpServers().keySet()));
  }
}
