package io.durableagents.starter;

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
  }

  private static void assertMessage(String option, AgentCommand command) {
    String m = assertThrows(IllegalArgumentException.class, command::toInput).getMessage();
    assertTrue(m.startsWith(option), m);
  }
}
