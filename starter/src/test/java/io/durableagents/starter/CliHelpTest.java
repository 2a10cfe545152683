package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.CliFailuresTest.Run;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Help as a new user asks for it, through the real {@link StarterMain} in this JVM: {@code -h} and
 * {@code --help} after every command (and {@code help COMMAND}, which prints the same), the scenario help
 * of {@code simulate} and {@code demo} (an unknown scenario is a one-line usage error; a known one shows
 * its own parameter options only), and picocli's messages on bad values in plain words.
 */
class CliHelpTest {
  /** Every command's path of names under the program ({@code [demo]}, {@code [agent, run]}, ...). */
  private static List<List<String>> commands() {
    List<List<String>> paths = new ArrayList<>();
    collect(StarterMain.commandLine(), List.of(), paths, new IdentityHashMap<>());
    return paths;
  }

  private static void collect(CommandLine command, List<String> path, List<List<String>> paths,
      Map<CommandLine, Boolean> seen) {
    for (Map.Entry<String, CommandLine> e : command.getSubcommands().entrySet()) {
      if (seen.put(e.getValue(), true) == null) {
        List<String> sub = new ArrayList<>(path);
        sub.add(e.getKey());
        paths.add(sub);
        collect(e.getValue(), sub, paths, seen);
      }
    }
  }

  private static Run run(List<String> path, String... more) {
    List<String> args = new ArrayList<>(path);
    args.addAll(List.of(more));
    return CliFailuresTest.run(args.toArray(String[]::new));
  }

  @Test
  void everyCommandTakesDashHAndDashDashHelpAndPrintsWhatHelpPrints() {
    List<List<String>> commands = commands();
    assertTrue(commands.size() > 20 && commands.contains(List.of("agent", "run")), commands.toString());
    for (List<String> path : commands) {
      String name = String.join(" ", path);
      Run help = run(path, "--help");
      assertEquals(0, help.exitCode(), name + " --help: " + help.err());
      assertTrue(help.out().startsWith("Usage: durable-agents " + name), name + " --help:\n" + help.out());
      assertTrue(help.out().contains("-h, --help"), name + " lists its help option:\n" + help.out());
      assertEquals("", help.err(), name + " --help");
      assertEquals(help.out(), run(path, "-h").out(), name + " -h");
      Run viaHelp = run(List.of("help"), path.toArray(String[]::new));
      assertEquals(0, viaHelp.exitCode(), "help " + name + ": " + viaHelp.err());
      assertEquals(help.out(), viaHelp.out(), "help " + name + " prints what " + name + " --help prints");
    }
    // the synopsis is short: the options are listed below it
    assertTrue(run(List.of("simulate"), "--help").out().startsWith("Usage: durable-agents simulate [OPTIONS]\n"));
    assertTrue(run(List.of("attach"), "-h").out().startsWith("Usage: durable-agents attach [OPTIONS] WORKFLOW_ID\n"));
  }

  @Test
  void noCommandHasAnotherOptionNamedDashH() {
    for (List<String> path : commands()) {
      CommandLine command = StarterMain.commandLine();
      for (String name : path) {
        command = command.getSubcommands().get(name);
      }
      OptionSpec h = command.getCommandSpec().findOption("-h");
      assertTrue(h != null && h.usageHelp(), String.join(" ", path) + ": -h is " + h);
    }
  }

  @Test
  void theProgramAloneListsTheCommands() {
    Run bare = CliFailuresTest.run();
    assertEquals(0, bare.exitCode(), bare.err());
    assertTrue(bare.out().startsWith("Usage: durable-agents") && bare.out().contains("Commands:")
        && bare.out().contains("  demo "), bare.out());
  }

  @Test
  void theHelpOfAnUnknownScenarioOrCommandIsOneLineAndExitTwo() {
    String registered = "scenario 'nosuch' is not registered; registered: epstein, negotiation";
    for (List<String> args : List.of(List.of("help", "simulate", "--scenario", "nosuch"),
        List.of("help", "demo", "--scenario", "nosuch"), List.of("help", "--scenario", "nosuch"))) {
      Run r = CliFailuresTest.run(args.toArray(String[]::new));
      assertEquals(Failures.USAGE, r.exitCode(), args + ": " + r.out() + r.err());
      assertEquals(List.of("help: --scenario: " + registered), r.errLines(), args.toString());
      assertEquals("", r.out(), args + " prints no usage");
    }
    Run asOption = CliFailuresTest.run("simulate", "--scenario", "nosuch", "--help");
    assertEquals(Failures.USAGE, asOption.exitCode());
    assertEquals(List.of("simulate: --scenario: " + registered), asOption.errLines());

    Run command = CliFailuresTest.run("help", "nosuch");
    assertEquals(Failures.USAGE, command.exitCode());
    assertEquals(1, command.errLines().size(), command.err());
    assertTrue(command.errLines().get(0).startsWith("help: 'nosuch' is not a command; commands: demo, agent,"),
        command.err());
    Run noScenario = CliFailuresTest.run("help", "list", "--scenario", "epstein");
    assertEquals(Failures.USAGE, noScenario.exitCode());
    assertEquals(List.of("help: 'list' takes no --scenario; 'help simulate --scenario epstein' lists a scenario's "
        + "parameters"), noScenario.errLines());
  }

  @Test
  void theHelpOfAKnownScenarioShowsItsParametersOnly() {
    Run market = CliFailuresTest.run("help", "simulate", "--scenario", "negotiation");
    assertEquals(0, market.exitCode(), market.err());
    String help = market.out();
    for (String other : List.of("--citizens", "--cops", "--legitimacy", "--max-jail-term")) {
      assertFalse(help.contains(other), other + " is not a parameter of negotiation:\n" + help);
    }
    for (String own : List.of("--sellers", "--buyers", "--width", "--height", "--vision", "--steps", "--param")) {
      assertTrue(help.contains(own), own + ":\n" + help);
    }
    assertTrue(help.contains("Scenario negotiation: ") && help.contains("low_budget"), help);
    assertFalse(help.contains("Scenarios ("), "the list of all scenarios gives way to the chosen one:\n" + help);
    assertEquals(help, CliFailuresTest.run("simulate", "--scenario", "negotiation", "--help").out(),
        "simulate --scenario negotiation --help prints the same");

    String epstein = CliFailuresTest.run("help", "demo", "--scenario", "epstein").out();
    assertTrue(epstein.contains("--citizens") && epstein.contains("max_jail_term"), epstein);
    assertFalse(epstein.contains("--sellers") || epstein.contains("--buyers"), epstein);

    // without a scenario: every parameter option, and the scenarios to choose from
    String all = CliFailuresTest.run("simulate", "--help").out();
    assertTrue(all.contains("--citizens") && all.contains("--sellers"), all);
    assertTrue(all.contains("Scenarios ('help simulate --scenario <name>' lists a scenario's parameters):")
        && all.contains("  negotiation "), all);
  }

  @Test
  void aMapOptionsBadValueIsSaidInPlainWordsByEveryCommand() {
    Run param = CliFailuresTest.run("simulate", "--param", "foo");
    assertEquals(Failures.USAGE, param.exitCode());
    assertEquals("simulate: Invalid value for option '--param': 'foo' is not NAME=VALUE", param.errLines().get(0));
    int maps = 0;
    for (List<String> path : commands()) {
      CommandLine command = StarterMain.commandLine();
      for (String name : path) {
        command = command.getSubcommands().get(name);
      }
      for (OptionSpec o : command.getCommandSpec().options()) {
        if (o.isMultiValue() && Map.class.isAssignableFrom(o.type())) {
          maps++;
          Run r = run(path, o.longestName(), "foo");
          assertEquals(Failures.USAGE, r.exitCode(), path + " " + o.longestName());
          assertFalse(r.err().contains("option option"), r.err());
          assertTrue(r.errLines().get(0).endsWith("Invalid value for option '" + o.longestName() + "': 'foo' is not "
              + (o.paramLabel().contains("=") ? o.paramLabel() : "KEY=VALUE")), r.err());
        }
      }
    }
    assertTrue(maps >= 3, "simulate, demo and fork take --param at least: " + maps);
  }

  @Test
  void theCommandListShowsEachCommandsWholeSummary() {
    for (List<String> path : commands()) {
      CommandLine command = StarterMain.commandLine();
      for (String name : path) {
        command = command.getSubcommands().get(name);
      }
      // the command list shows a command's first description line only: it must be a whole summary
      String summary = command.getCommandSpec().usageMessage().description()[0];
      assertTrue(summary.endsWith("."), String.join(" ", path) + "'s summary is cut: " + summary);
    }
    String top = CliFailuresTest.run("--help").out();
    assertTrue(top.replaceAll("\\s+", " ").contains("or, with --in-memory or without a Temporal CLI, the in-memory "
        + "Java test server."), top);
  }

  @Test
  void helpBreaksLinesAtSpacesOnlyKeepingPathsAndAddressesWhole() {
    List<List<String>> all = new ArrayList<>(commands());
    all.add(List.of());
    for (List<String> path : all) {
      String wrapped = help(path, 0);
      String wide = help(path, 1000);
      java.util.Set<String> words = new java.util.HashSet<>(List.of(wide.split("\\s+")));
      for (String word : wrapped.split("\\s+")) {
        assertTrue(words.contains(word), "'" + word + "' is a piece of a word cut at the end of a line in the help of '"
            + String.join(" ", path) + "':\n" + wrapped);
      }
      for (String line : wrapped.split("\\R")) {
        assertTrue(line.length() <= 80 || !line.contains(" ") || line.startsWith("  epstein")
            || line.startsWith("  negotiation"), "wider than 80: " + line);
      }
    }
    String devServer = help(List.of("dev-server"), 0);
    assertTrue(devServer.contains("~/.local/share/durable-agents") && devServer.contains("TEMPORAL_ADDRESS=127.0.0.1:PORT"),
        devServer);
  }

  /** The help of the command at {@code path} ({@code width} 0: the default, 80 columns). */
  private static String help(List<String> path, int width) {
    CommandLine command = StarterMain.commandLine();
    for (String name : path) {
      command = command.getSubcommands().get(name);
    }
    if (width > 0) {
      command.setUsageHelpWidth(width);
    }
    java.io.StringWriter out = new java.io.StringWriter();
    command.usage(new java.io.PrintWriter(out), CommandLine.Help.Ansi.OFF);
    return out.toString();
  }
}
