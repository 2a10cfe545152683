package io.durableagents.starter.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.task.AgentTaskInput;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class AgentCommandTest {
  private static AgentCommand parse(String... args) {
    AgentCommand command = new AgentCommand();
    new CommandLine(command).parseArgs(args);
    return command;
  }

  @Test
  void readsTheTaskTheStrategyAndItsBounds() {
    AgentTaskInput in = parse("-p", "What is 2+2?", "--strategy", "rewoo", "--model", "rules",
        "--max-plan-steps", "3", "--tools", "calculator").toInput();
    assertEquals("What is 2+2?", in.task());
    assertEquals(Strategy.REWOO, in.options().strategy());
    assertEquals(3, in.options().maxPlanSteps());
    assertEquals(List.of("calculator"), in.tools());
    assertEquals(AgentTaskInput.DEFAULT_TOOLS, parse("-p", "x", "--model", "rules").toInput().tools());
    assertEquals(Strategy.REACT, parse("-p", "x", "--model", "rules").toInput().options().strategy());
  }

  @Test
  void badOptionsNameTheOption() {
    assertMessage("--strategy", parse("-p", "x", "--strategy", "tot", "--model", "rules"));
    assertMessage("--tools", parse("-p", "x", "--tools", "shell", "--model", "rules"));
    assertMessage("--max-iterations", parse("-p", "x", "--max-iterations", "0", "--model", "rules"));
    assertMessage("-p", parse("-p", " ", "--model", "rules"));
    assertMessage("--model", parse("-p", "x", "--model", "gpt"));
    assertMessage("--max-output-tokens", parse("-p", "x", "--model", "rules", "--max-output-tokens", "-1"));
  }

  @Test
  void theMaximumOutputLengthIsAnOption() {
    assertEquals(200, parse("-p", "x", "--model", "rules", "--strategy", "rewoo", "--max-output-tokens", "200")
        .toInput().options().maxOutputTokens());
    assertEquals(null, parse("-p", "x", "--model", "rules").toInput().options().maxOutputTokens(),
        "unset: the worker's setting, else the default of the kind of call");
  }

  @Test
  void toolsUnknownHereAreLeftToTheWorkersWithNoWorkerAndTheHintNamesTheMcpSetting() {
    // The MCP servers may be configured on the workers only: they know their tools, and refuse others.
    assertEquals(List.of("fs_list_directory"),
        parse("-p", "x", "--model", "rules", "--no-worker", "--tools", "fs_list_directory").toInput().tools());
    String m = assertThrows(IllegalArgumentException.class,
        parse("-p", "x", "--model", "rules", "--tools", "fs_list_directory")::toInput).getMessage();
    assertTrue(m.startsWith("--tools: 'fs_list_directory' is not one of: calculator, read_file")
        && m.contains("DURABLE_AGENTS_MCP_SERVERS") && m.contains("--no-worker"), m);
  }

  private static void assertMessage(String option, AgentCommand command) {
    String m = assertThrows(IllegalArgumentException.class, command::toInput).getMessage();
    assertTrue(m.startsWith(option), m);
  }

  @Test
  void approvalOptionsAreReadAndCheckedAgainstTheAgentsTools() {
    AgentTaskInput in = parse("-p", "x", "--model", "rules", "--tools", "calculator", "--requires-approval",
        "calculator", "--approval-timeout", "2h", "--approval-default", "approve").toInput();
    assertEquals(List.of("calculator"), in.options().approval().tools());
    assertEquals(7200L, in.options().approval().timeoutSeconds());
    assertEquals(io.durableagents.workflows.approval.TimeoutDecision.APPROVE, in.options().approval().timeoutDecision());
    assertEquals(null, parse("-p", "x", "--model", "rules").toInput().options().approval());
    assertMessage("--requires-approval: 'read_file' is not one of the agent's tools (--tools): calculator",
        parse("-p", "x", "--model", "rules", "--tools", "calculator", "--requires-approval", "read_file"));
    assertMessage("--approval-timeout: 'soon' is not a duration",
        parse("-p", "x", "--model", "rules", "--requires-approval", "calculator", "--approval-timeout", "soon"));
    assertMessage("--approval-default applies after an --approval-timeout",
        parse("-p", "x", "--model", "rules", "--requires-approval", "calculator", "--approval-default", "deny"));
    assertMessage("--approval-default: 'maybe' is not a decision",
        parse("-p", "x", "--model", "rules", "--requires-approval", "calculator", "--approval-timeout", "1h",
            "--approval-default", "maybe"));
  }

  @Test
  void aLongReActAnswerIsPrintedOnceAndAnEmptyOrCutAnswerSaysSo() {
    String answer = "x".repeat(100_000);
    io.durableagents.workflows.agent.AgentTaskResult r = new io.durableagents.workflows.agent.AgentTaskResult(
        answer, "react", null, List.of(new io.durableagents.workflows.agent.AgentTaskResult.AgentTurn(1, answer, List.of())),
        null, List.of(), 0, null, 1, 0);
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    AgentCommand.print(r, new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
    String out = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(out.indexOf(answer), out.lastIndexOf(answer), "the answer is printed once");

    bytes.reset();
    AgentCommand.print(r.withOutcome(List.of("cut answer: the answer was cut at the model's output limit"),
        io.durableagents.workflows.agent.AgentTaskResult.CUT),
        new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
    out = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(out.contains("Answer (cut at the output limit: incomplete):"), out.substring(0, 300));
    assertTrue(out.contains("Warning: cut answer"), out.substring(0, 300));

    // an answer is exit code 0; an empty or cut one is not a plain success
    assertEquals(0, AgentCommand.exitCode(r));
    assertEquals(1, AgentCommand.exitCode(r.withOutcome(List.of(),
        io.durableagents.workflows.agent.AgentTaskResult.CUT)));
    assertEquals(1, AgentCommand.exitCode(r.withOutcome(List.of(),
        io.durableagents.workflows.agent.AgentTaskResult.EMPTY)));
  }
}
