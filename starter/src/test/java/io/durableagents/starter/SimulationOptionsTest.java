package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.simulation.SimulationInput;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SimulationOptionsTest {
  private static SimulationOptions parse(String... args) {
    SimulateCommand command = new SimulateCommand();
    new CommandLine(command).parseArgs(args);
    return command.options;
  }

  @Test
  void defaultsAreMesaLlmsReferenceExample() {
    SimulationInput in = parse("--model", "rules").toInput();
    assertEquals("epstein", in.scenario());
    assertEquals(20, in.steps());
    assertEquals(42, in.seed());
    assertEquals(20, in.epstein().citizens());
    assertEquals(5, in.epstein().cops());
    assertEquals(10, in.epstein().width());
    assertEquals(5, in.epstein().vision());
    assertEquals(Strategy.COT, in.agentOptions().strategy());
    assertEquals(ToolChoice.AUTO, in.agentOptions().toolChoice());
    assertNull(in.agentOptions().selectedTools());
  }

  @Test
  void optionsAreRead() {
    SimulationInput in = parse("--steps", "5", "--seed", "9", "--citizens", "30", "--cops", "4",
        "--model", "openai:gpt-4o-mini", "--tool-choice", "required", "--selected-tools", "move_one_step,change_state")
        .toInput();
    assertEquals(5, in.steps());
    assertEquals(30, in.epstein().citizens());
    assertEquals("openai:gpt-4o-mini", in.agentOptions().model());
    assertEquals(ToolChoice.REQUIRED, in.agentOptions().toolChoice());
    assertEquals(List.of("move_one_step", "change_state"), in.agentOptions().selectedTools());
    assertEquals(List.of(), parse("--selected-tools", "-", "--model", "rules").toInput().agentOptions().selectedTools());
  }

  @Test
  void badOptionsNameTheOptionAndTheAllowedValues() {
    assertMessage("--strategy", "cot", "--strategy", "tot", "--model", "rules");
    assertMessage("--tool-choice", "required", "--tool-choice", "maybe", "--model", "rules");
    assertMessage("--model", "openai:<model>", "--model", "gpt-4");
    assertMessage("--scenario", "epstein", "--scenario", "zombies", "--model", "rules");
    assertMessage("steps", ">= 1", "--steps", "0", "--model", "rules");
    assertMessage("must fit on the grid", "", "--citizens", "200", "--model", "rules");
  }

  private static void assertMessage(String part1, String part2, String... args) {
    String m = assertThrows(IllegalArgumentException.class, () -> parse(args).toInput()).getMessage();
    assertTrue(m.contains(part1) && m.contains(part2), m);
  }
}
