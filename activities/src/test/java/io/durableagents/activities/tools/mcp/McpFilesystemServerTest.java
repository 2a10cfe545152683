package io.durableagents.activities.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.durableagents.activities.tools.ToolActivitiesImpl;
import io.durableagents.activities.tools.ToolRegistry;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP tools against {@code @modelcontextprotocol/server-filesystem} from npm, run with node over stdio:
 * the server most MCP users start with. {@code .ci/run} installs it under {@code .ci/node} where npm
 * exists ({@value #SERVER_VARIABLE} points elsewhere); without node or the package the test is skipped
 * and says so.
 */
class McpFilesystemServerTest {
  /** Overrides where the server's {@code dist/index.js} is. */
  static final String SERVER_VARIABLE = "MCP_FILESYSTEM_SERVER";

  private static final Path INSTALLED =
      Path.of("..", ".ci", "node", "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The server's entry point, or a skip that says why there is none. */
  private static Path server() {
    String given = System.getenv(SERVER_VARIABLE);
    Path script = given != null && !given.isBlank() ? Path.of(given) : INSTALLED;
    if (!Files.isRegularFile(script)) {
      skip("@modelcontextprotocol/server-filesystem is not installed at " + script.toAbsolutePath().normalize()
          + " (.ci/run installs it where npm exists: npm install --prefix .ci/node "
          + "@modelcontextprotocol/server-filesystem; or set " + SERVER_VARIABLE + ")");
    }
    if (!onPath("node")) {
      skip("no node on the PATH to run @modelcontextprotocol/server-filesystem");
    }
    return script.toAbsolutePath().normalize();
  }

  /** Skips the test, and says so on the build's output, not only in its report. */
  private static void skip(String why) {
    String message = "McpFilesystemServerTest SKIPPED: " + why;
    System.err.println(message);
    Assumptions.abort(message);
  }

  private static boolean onPath(String command) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }

  private static ToolExecutionResult call(ToolActivitiesImpl activity, String tool, String arguments, String key)
      throws Exception {
    return activity.execute(new ToolExecutionRequest("call_1", tool, JSON.readTree(arguments), key));
  }

  @Test
  void theFilesystemServersToolsReadWriteAndListFilesAsActivities(@TempDir Path data) throws Exception {
    Path script = server();
    Path root = data.toRealPath();
    Files.writeString(root.resolve("notes.txt"), "durable agents keep their word\n");
    try (McpToolSet fs = McpToolSet.connect(List.of(McpServerConfig.newBuilder("fs")
        .setCommand(List.of("node", script.toString(), root.toString())).build()))) {
      ToolRegistry registry = fs.addTo(ToolRegistry.newBuilder()).build();
      assertTrue(registry.externalToolNames().containsAll(
          List.of("fs_read_text_file", "fs_write_file", "fs_list_directory")), registry.externalToolNames().toString());
      assertEquals("tool: mcp fs/read_text_file", registry.policies().summaryOf("fs_read_text_file"));
      ToolActivitiesImpl activity = new ToolActivitiesImpl(registry);

      ToolExecutionResult read = call(activity, "fs_read_text_file",
          "{\"path\": " + JSON.writeValueAsString(root.resolve("notes.txt").toString()) + "}", "wf/1/call_1");
      assertFalse(read.error(), read.output());
      assertTrue(read.output().contains("durable agents keep their word"), read.output());

      ToolExecutionResult write = call(activity, "fs_write_file", "{\"path\": "
          + JSON.writeValueAsString(root.resolve("out.txt").toString()) + ", \"content\": \"step 73\"}", "wf/1/call_2");
      assertFalse(write.error(), write.output());
      assertEquals("step 73", Files.readString(root.resolve("out.txt")));

      ToolExecutionResult list = call(activity, "fs_list_directory",
          "{\"path\": " + JSON.writeValueAsString(root.toString()) + "}", "wf/1/call_3");
      assertTrue(list.output().contains("notes.txt") && list.output().contains("out.txt"), list.output());

      // Outside the allowed directory: the server refuses, and the agent reads why.
      ToolExecutionResult outside = call(activity, "fs_read_text_file", "{\"path\": \"/etc/hostname\"}", "wf/1/call_4");
      assertTrue(outside.error(), outside.output());
      assertTrue(outside.output().contains("mcp fs/read_text_file reported an error"), outside.output());
    }
  }
}
