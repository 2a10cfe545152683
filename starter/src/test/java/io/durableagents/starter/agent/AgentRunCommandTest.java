package io.durableagents.starter.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.autonomous.AutonomousAgentInput;
import io.durableagents.workflows.autonomous.ReasoningPattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class AgentRunCommandTest {
  private static AgentRunCommand parse(String... args) {
    CommandLine agent = new CommandLine(new AgentCommand());
    CommandLine.ParseResult parsed = agent.parseArgs(args);
    return (AgentRunCommand) parsed.subcommand().commandSpec().userObject();
  }

  @Test
  void runIsASubcommandOfAgentThatLoadsTheSpec() {
    AutonomousAgentInput in = parse("run", "../examples/todo-calculator.yaml", "-p", "What is 2 + 2?").toInput();
    assertEquals("What is 2 + 2?", in.prompt());
    assertEquals(ReasoningPattern.TODO_DRIVEN, in.spec().reasoning().pattern());
    assertEquals(0, in.depth());
    assertEquals("openai:gpt-4o-mini", parse("run", "../examples/todo-calculator.yaml", "-p", "x",
        "--model", "openai:gpt-4o-mini").toInput().spec().model());
  }

  @Test
  void theSpecsApprovalsSurviveAModelOverride() {
    AutonomousAgentInput in = parse("run", "../examples/approved-calculator.yaml", "-p", "What is 17 * 23?",
        "--model", "openai:gpt-4o-mini").toInput();
    assertEquals("openai:gpt-4o-mini", in.spec().model());
    assertEquals(java.util.List.of("calculator"), in.spec().approval().tools());
    assertEquals(3600L, in.spec().approval().timeoutSeconds());
  }

  @Test
  void badInputNamesTheOptionOrField() {
    String m = assertThrows(IllegalArgumentException.class,
        () -> parse("run", "../examples/todo-calculator.yaml", "-p", "x", "--model", "gpt").toInput()).getMessage();
    assertTrue(m.startsWith("--model"), m);
    m = assertThrows(IllegalArgumentException.class,
        () -> parse("run", "../examples/todo-calculator.yaml", "-p", " ").toInput()).getMessage();
    assertTrue(m.startsWith("-p"), m);
    m = assertThrows(IllegalArgumentException.class,
        () -> parse("run", "no-such.yaml", "-p", "x").toInput()).getMessage();
    assertTrue(m.contains("cannot read the spec"), m);
  }

  @Test
  void aSpecsMcpServerThatCannotBeReachedIsNamedBeforeAnythingRuns(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    java.nio.file.Path spec = dir.resolve("agent.yaml");
    java.nio.file.Files.writeString(spec, "metadata:\n  name: t\nspec:\n  mcp_servers:\n    gone:\n"
        + "      url: http://127.0.0.1:" + port + "/mcp\n");
    String m = assertThrows(IllegalArgumentException.class, () -> parse("run", spec.toString(), "-p", "x").toInput())
        .getMessage();
    assertTrue(m.startsWith("MCP server gone (http://127.0.0.1:" + port + "/mcp) cannot be reached"), m);

    java.nio.file.Files.writeString(spec, "metadata:\n  name: t\nspec:\n  mcp_servers:\n    theirs: {}\n");
    m = assertThrows(IllegalArgumentException.class, () -> parse("run", spec.toString(), "-p", "x").toInput())
        .getMessage();
    assertTrue(m.startsWith("spec.mcp_servers.theirs: the worker has no MCP server 'theirs' (it has none)"), m);
  }

  @Test
  void theMcpExampleGetsTheFilesystemServersTools() {
    java.nio.file.Path server = java.nio.file.Path.of("..", ".ci", "node", "node_modules", "@modelcontextprotocol",
        "server-filesystem", "dist", "index.js");
    if (!java.nio.file.Files.isRegularFile(server)) {
      String why = "AgentRunCommandTest SKIPPED theMcpExampleGetsTheFilesystemServersTools: " + server
          + " is not installed (.ci/run installs it where npm exists)";
      System.err.println(why);
      org.junit.jupiter.api.Assumptions.abort(why);
    }
    // The example's paths are relative to the repository's root, where agent run is started.
    java.nio.file.Path spec = java.nio.file.Path.of("..", "examples", "mcp-files.yaml").toAbsolutePath().normalize();
    String yaml;
    try {
      yaml = java.nio.file.Files.readString(spec).replace("[node, .ci/", "[node, " + spec.getParent().getParent() + "/.ci/")
          .replace("index.js, examples]", "index.js, " + spec.getParent() + "]");
      java.nio.file.Path copy = java.nio.file.Files.createTempFile("mcp-files", ".yaml");
      java.nio.file.Files.writeString(copy, yaml);
      AutonomousAgentInput in = parse("run", copy.toString(), "-p", "x").toInput();
      assertEquals(java.util.List.of("fs_list_directory", "fs_read_text_file"), in.spec().tools());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aSpecThatIsNotYamlIsOneLineWithItsFileLineAndColumn(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path spec = dir.resolve("agent.yaml");
    java.util.Map<String, String> cases = java.util.Map.of(
        "apiVersion: v1\nkind: Agent\n  spec: x\n", ":3:7: not valid YAML: mapping values are not allowed here",
        "spec:\n  role: [a, b\n", ":3:1: not valid YAML: expected ',' or ']', but got <stream end> "
            + "(while parsing a flow sequence at line 2, column 9)",
        "spec:\n\trole: x\n", ":2:1: not valid YAML: found character '\\t(TAB)' that cannot start any token");
    for (java.util.Map.Entry<String, String> c : cases.entrySet()) {
      java.nio.file.Files.writeString(spec, c.getKey());
      io.durableagents.starter.CliFailuresTest.Run r =
          io.durableagents.starter.CliFailuresTest.run("agent", "run", spec.toString(), "-p", "x");
      assertEquals(2, r.exitCode(), r.err());
      assertEquals(1, r.errLines().size(), "one line:\n" + r.err());
      assertTrue(r.errLines().get(0).startsWith("agent run: " + spec + c.getValue()), r.err());
      io.durableagents.starter.CliFailuresTest.assertNoTrace(r);
    }
  }
}
