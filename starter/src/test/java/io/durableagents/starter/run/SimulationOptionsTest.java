package io.durableagents.starter.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.scenarios.negotiation.NegotiationParameters;
import io.durableagents.starter.StarterMain;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.memory.MemoryKind;
import io.durableagents.workflows.scenario.ScenarioParameters;
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

  private static int param(SimulationInput in, String name) {
    return in.parameters().get(name).asInt();
  }

  @Test
  void defaultsAreMesaLlmsReferenceExample() {
    SimulationInput in = parse("--model", "rules").toInput();
    assertEquals("epstein", in.scenario());
    assertEquals(20, in.steps());
    assertEquals(42, in.seed());
    assertEquals(20, param(in, "citizens"));
    assertEquals(5, param(in, "cops"));
    assertEquals(10, param(in, "width"));
    assertEquals(5, param(in, "vision"));
    assertEquals(0.5, in.parameters().get("legitimacy").asDouble(), "every parameter is written into the input");
    assertEquals(30, param(in, "max_jail_term"));
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
    assertEquals(30, param(in, "citizens"));
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
    assertMessage("--scenario: scenario 'zombies' is not registered", "epstein, negotiation",
        "--scenario", "zombies", "--model", "rules");
    assertMessage("steps", ">= 1", "--steps", "0", "--model", "rules");
    assertMessage("citizens = 200", "width x height = 100", "--citizens", "200", "--model", "rules");
  }

  @Test
  void theNegotiationScenarioHasItsOwnDefaultsAndOptions() {
    SimulationInput in = parse("--scenario", "negotiation", "--model", "rules").toInput();
    assertEquals(ScenarioParameters.toJson(NegotiationParameters.DEFAULTS), in.parameters());

    SimulationInput more = parse("--scenario", "negotiation", "--sellers", "3", "--buyers", "8",
        "--width", "6", "--height", "7", "--vision", "2", "--strategy", "seller=react,buyer=rewoo",
        "--model", "rules").toInput();
    assertEquals(ScenarioParameters.toJson(new NegotiationParameters(6, 7, 3, 8, 2, 50, 100)), more.parameters());
    assertEquals(Strategy.REACT, more.optionsFor("seller").strategy());
    assertEquals(Strategy.REWOO, more.optionsFor("buyer").strategy());

  }

  @Test
  void optionsOfAnotherScenarioOrTooManyAgentsAreRejected() {
    assertMessage("--citizens is not a parameter of scenario negotiation", "sellers, buyers",
        "--scenario", "negotiation", "--citizens", "3", "--model", "rules");
    assertMessage("--buyers is not a parameter of scenario epstein", "citizens, cops",
        "--buyers", "3", "--model", "rules");
    assertMessage("buyers = 30", "width x height = 25", "--scenario", "negotiation", "--buyers", "30",
        "--model", "rules");
    assertMessage("--strategy", "seller, buyer", "--scenario", "negotiation", "--strategy", "cop=react",
        "--model", "rules");
  }

  @Test
  void anyParameterIsSetWithParamAndCheckedWithItsRange() {
    SimulationInput in = parse("--param", "legitimacy=0.6", "--param", "max_jail_term=20",
        "--param", "maxJailTerm=21", "--model", "rules").toInput();
    assertEquals(0.6, in.parameters().get("legitimacy").asDouble());
    assertEquals(21, param(in, "max_jail_term"), "names match in any spelling; the last one wins");
    assertEquals(20, param(in, "citizens"), "unset parameters take the defaults");
    // --legitimacy is --param legitimacy
    assertEquals(param(parse("--param", "citizens=7", "--model", "rules").toInput(), "citizens"),
        param(parse("--citizens", "7", "--model", "rules").toInput(), "citizens"));

    assertMessage("legitimacy = 1.5", "a number from 0 to 1", "--param", "legitimacy=1.5", "--model", "rules");
    assertMessage("max_jail_term = 'soon'", "an integer from 0", "--param", "max_jail_term=soon", "--model", "rules");
    assertMessage("there is no parameter 'legitimacyy'", "legitimacy, active_threshold",
        "--param", "legitimacyy=0.5", "--model", "rules");
    assertMessage("cops = '2.5'", "an integer", "--param", "cops=2.5", "--model", "rules");
  }

  @Test
  void modelsAreChosenForEveryAgentOrPerRole() {
    SimulationInput perRole = parse("--model", "citizen=openai:gpt-4o-mini,cop=rules").toInput();
    assertEquals("openai:gpt-4o-mini", perRole.optionsFor("citizen").model());
    assertEquals("rules", perRole.optionsFor("cop").model());

    SimulationInput both = parse("--model", "cop=anthropic:claude-sonnet-4-5",
        "--strategy", "citizen=rewoo").toInput();
    assertEquals(Strategy.REWOO, both.optionsFor("citizen").strategy());
    assertEquals(Strategy.COT, both.optionsFor("cop").strategy());
    assertEquals("anthropic:claude-sonnet-4-5", both.optionsFor("cop").model());

    assertMessage("--model", "citizen, cop", "--model", "king=rules");
    assertMessage("--model 'gpt-4'", "openai:<model>", "--model", "citizen=gpt-4");
  }

  @Test
  void theMaximumOutputLengthIsSetForEveryAgentOrPerRole() {
    SimulationInput unset = parse("--model", "rules").toInput();
    assertEquals(null, unset.optionsFor("citizen").maxOutputTokens(), "unset: the worker decides");

    SimulationInput all = parse("--model", "rules", "--max-output-tokens", "300").toInput();
    assertEquals(300, all.optionsFor("citizen").maxOutputTokens());
    assertEquals(300, all.optionsFor("cop").maxOutputTokens());

    SimulationInput perRole = parse("--model", "rules", "--strategy", "citizen=rewoo",
        "--max-output-tokens", "cop=120").toInput();
    assertEquals(null, perRole.optionsFor("citizen").maxOutputTokens());
    assertEquals(Strategy.REWOO, perRole.optionsFor("citizen").strategy());
    assertEquals(120, perRole.optionsFor("cop").maxOutputTokens());
    assertEquals(Strategy.COT, perRole.optionsFor("cop").strategy());

    // describe names it only when one is set
    assertEquals(null, io.durableagents.starter.inspect.DescribeCommand.maxOutputTokens(unset));
    assertEquals("300 tokens", io.durableagents.starter.inspect.DescribeCommand.maxOutputTokens(all));
    assertEquals("citizen=the worker's, cop=120 tokens",
        io.durableagents.starter.inspect.DescribeCommand.maxOutputTokens(perRole));
    assertEquals("none sent", io.durableagents.starter.inspect.DescribeCommand.maxOutputTokens(
        parse("--model", "rules", "--max-output-tokens", "0").toInput()));

    assertMessage("--max-output-tokens", "citizen, cop", "--max-output-tokens", "king=3", "--model", "rules");
    assertMessage("--max-output-tokens", "whole number", "--max-output-tokens", "lots", "--model", "rules");
    assertMessage("--max-output-tokens", ">= 0", "--max-output-tokens", "cop=-1", "--model", "rules");
  }

  @Test
  void helpListsAScenariosParametersWithDefaultsAndMeaning() {
    java.io.StringWriter out = new java.io.StringWriter();
    CommandLine cli = StarterMain.commandLine().setOut(new java.io.PrintWriter(out));
    assertEquals(0, cli.execute("help", "simulate", "--scenario", "epstein"));
    String help = out.toString();
    assertTrue(help.contains("Roles: citizen, cop"), help);
    assertTrue(help.matches("(?s).*max_jail_term\\s+30\\s+an arrest jails.*an integer from 0 to 1000000.*"), help);
    assertTrue(help.matches("(?s).*legitimacy\\s+0.5\\s+the regime's perceived legitimacy.*a number from 0 to 1; can change during a run \\(intervene\\)\\n.*"), help);
    assertTrue(help.matches("(?s).*citizens\\s+\\d+\\s+how many citizens; an integer from 0 to 1000000\\n.*"),
        "a parameter fixed when the world is made is not marked:\n" + help);

    java.io.StringWriter list = new java.io.StringWriter();
    StarterMain.commandLine().setOut(new java.io.PrintWriter(list)).execute("help", "simulate");
    assertTrue(list.toString().contains("negotiation") && list.toString().contains("epstein"), list.toString());
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

  @Test
  void onAgentFailureIsSkipByDefaultAndCanStop() {
    assertEquals(io.durableagents.workflows.agent.AgentFailureMode.SKIP,
        parse("--model", "rules").toInput().agentOptions().agentFailureMode());
    assertEquals(io.durableagents.workflows.agent.AgentFailureMode.STOP,
        parse("--model", "rules", "--on-agent-failure", "stop").toInput().agentOptions().agentFailureMode());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> parse("--model", "rules", "--on-agent-failure", "ignore").toInput());
    assertTrue(e.getMessage().startsWith("--on-agent-failure: 'ignore' is not one of: skip, stop"), e.getMessage());
  }
}
