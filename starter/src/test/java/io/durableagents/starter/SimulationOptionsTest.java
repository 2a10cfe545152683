package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.memory.MemoryKind;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.negotiation.NegotiationParameters;
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

  @Test
  void theNegotiationScenarioHasItsOwnDefaultsAndOptions() {
    SimulationInput in = parse("--scenario", "negotiation", "--model", "rules").toInput();
    assertEquals(NegotiationParameters.DEFAULTS, in.negotiation());
    assertNull(in.epstein());

    SimulationInput more = parse("--scenario", "negotiation", "--sellers", "3", "--buyers", "8",
        "--width", "6", "--height", "7", "--vision", "2", "--strategy", "seller=react,buyer=rewoo",
        "--model", "rules").toInput();
    assertEquals(new NegotiationParameters(6, 7, 3, 8, 2, 50, 100), more.negotiation());
    assertEquals(Strategy.REACT, more.optionsFor("seller").strategy());
    assertEquals(Strategy.REWOO, more.optionsFor("buyer").strategy());

    assertNull(parse("--model", "rules").toInput().negotiation(), "epstein runs carry no negotiation");
  }

  @Test
  void optionsOfAnotherScenarioOrTooManyAgentsAreRejected() {
    assertMessage("--citizens", "epstein", "--scenario", "negotiation", "--citizens", "3", "--model", "rules");
    assertMessage("--buyers", "negotiation", "--buyers", "3", "--model", "rules");
    assertMessage("must fit on the grid", "", "--scenario", "negotiation", "--buyers", "30", "--model", "rules");
    assertMessage("--strategy", "seller, buyer", "--scenario", "negotiation", "--strategy", "cop=react",
        "--model", "rules");
  }

  @Test
  void strategiesAreChosenForEveryAgentOrPerRoleWithTheirBounds() {
    SimulationInput all = parse("--strategy", "rewoo", "--ttl", "3", "--max-plan-steps", "4",
        "--replan-on-failure", "0", "--model", "rules").toInput();
    assertEquals(Strategy.REWOO, all.optionsFor("citizen").strategy());
    assertEquals(Strategy.REWOO, all.optionsFor("cop").strategy());
    assertEquals(3, all.agentOptions().ttl());
    assertEquals(4, all.agentOptions().maxPlanSteps());
    assertEquals(0, all.agentOptions().replanOnFailure());

    SimulationInput perRole = parse("--strategy", "citizen=rewoo,cop=react", "--ttl", "2",
        "--max-iterations", "4", "--action-format", "text", "--token-budget", "5000", "--model", "rules").toInput();
    assertEquals(Strategy.REWOO, perRole.optionsFor("citizen").strategy());
    assertEquals(Strategy.REACT, perRole.optionsFor("cop").strategy());
    assertEquals(2, perRole.optionsFor("citizen").ttl());
    assertEquals(4, perRole.optionsFor("cop").maxIterations());
    assertEquals(io.durableagents.workflows.agent.ActionFormat.TEXT, perRole.optionsFor("cop").actionFormat());
    assertEquals(5000L, perRole.optionsFor("cop").tokenBudget());

    SimulationInput onlyCops = parse("--strategy", "cop=react", "--model", "rules").toInput();
    assertEquals(Strategy.COT, onlyCops.optionsFor("citizen").strategy());
    assertEquals(Strategy.REACT, onlyCops.optionsFor("cop").strategy());
  }

  @Test
  void badStrategyOptionsNameTheOption() {
    assertMessage("--strategy", "citizen, cop", "--strategy", "king=react", "--model", "rules");
    assertMessage("--strategy", "cot, react, rewoo", "--strategy", "cop=tot", "--model", "rules");
    assertMessage("--ttl", ">= 1", "--ttl", "0", "--model", "rules");
    assertMessage("--max-iterations", ">= 1", "--max-iterations", "0", "--model", "rules");
    assertMessage("--action-format", "function-calling, text", "--action-format", "xml", "--model", "rules");
    assertMessage("--token-budget", ">= 1", "--token-budget", "0", "--model", "rules");
  }

  @Test
  void continueAsNewAndMemoryAreOptions() {
    SimulationInput defaults = parse("--model", "rules").toInput();
    assertEquals(SimulationInput.DEFAULT_CONTINUE_AS_NEW_EVERY, defaults.continueAsNewEvery());
    assertEquals(MemoryKind.NONE, defaults.memory().kind());
    SimulationInput in = parse("--model", "rules", "--continue-as-new-every", "7", "--memory", "long-term",
        "--memory-capacity", "3").toInput();
    assertEquals(7, in.continueAsNewEvery());
    assertEquals(MemoryKind.LONG_TERM, in.memory().kind());
    assertEquals(3, in.memory().capacity());
    assertEquals(MemoryKind.EPISODIC, parse("--model", "rules", "--memory", "EPISODIC").toInput().memory().kind());
    assertMessage("--memory", "short-term, long-term, episodic", "--memory", "forever", "--model", "rules");
    assertMessage("--memory-capacity", ">= 1", "--memory-capacity", "0", "--model", "rules");
    assertMessage("--continue-as-new-every", ">= 1", "--continue-as-new-every", "0", "--model", "rules");
  }

  @Test
  void outputOptionsAreRead() {
    SimulateCommand command = new SimulateCommand();
    new CommandLine(command).parseArgs("--csv", "out/a.csv", "--chart", "out/a.png", "--progress", "lines");
    assertEquals(java.nio.file.Path.of("out/a.csv"), command.output.csv);
    assertEquals(java.nio.file.Path.of("out/a.png"), command.output.chart);
    assertTrue(!command.output.useBar());
    SimulateCommand bar = new SimulateCommand();
    new CommandLine(bar).parseArgs("--progress", "bar");
    assertTrue(bar.output.useBar());
  }

  private static void assertMessage(String part1, String part2, String... args) {
    String m = assertThrows(IllegalArgumentException.class, () -> parse(args).toInput()).getMessage();
    assertTrue(m.contains(part1) && m.contains(part2), m);
  }
}
