package io.durableagents.starter;

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
}
