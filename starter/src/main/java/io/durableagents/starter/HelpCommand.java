package io.durableagents.starter;

import io.durableagents.api.Scenario;
import io.durableagents.starter.run.SimulationOptions;
import io.durableagents.workflows.scenario.ParameterSpec;
import io.durableagents.workflows.scenario.ScenarioParameters;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code help [COMMAND [SUBCOMMAND]] [--scenario NAME]}: a command's usage, as {@code COMMAND --help}
 * prints it; for the commands that start a simulation ({@code simulate}, {@code demo}) also the
 * registered scenarios, and with {@code --scenario} that scenario's parameters, with their defaults and
 * meaning, in place of the list, and of the parameter options ({@code --citizens}, ...) only its own.
 * An unknown command or scenario is a usage error (exit 2) in one line.
 */
@Command(name = "help", helpCommand = true,
    description = "Show a command's usage (as COMMAND --help does); 'help simulate --scenario <name>' lists "
        + "the scenario's parameters, their defaults and meaning.")
final class HelpCommand implements CommandLine.IHelpCommandInitializable2, Runnable {
  /** The help section of {@code simulate} and {@code demo} that lists the scenarios, or the chosen one's parameters. */
  static final String SCENARIOS_SECTION = "scenarios";

  /** The scenario whose help is being printed on this thread, or null for the list of all. */
  private static final ThreadLocal<Scenario<?>> CHOSEN = new ThreadLocal<>();

  @Parameters(arity = "0..2", paramLabel = "COMMAND", description = "The command (and subcommand) to show the usage of.")
  List<String> command = new ArrayList<>();

  @Option(names = "--scenario", paramLabel = "NAME", description = "List this scenario's parameters.")
  String scenario;

  private CommandLine self;
  private PrintWriter out;
  private Ansi ansi;

  @Override
  public void init(CommandLine helpCommandLine, CommandLine.Help.ColorScheme colorScheme,
      PrintWriter out, PrintWriter err) {
    this.self = helpCommandLine;
    this.out = out;
    this.ansi = colorScheme.ansi();
  }

  @Override
  public void run() {
    CommandLine target = self.getParent();
    String typed = "";
    for (String name : command) {
      CommandLine sub = target.getSubcommands().get(name);
      typed = (typed + " " + name).strip();
      if (sub == null) {
        throw CommandFailure.usage("'" + typed + "' is not a command; "
            + (target == self.getParent() ? "" : Failures.commandName(target) + "'s ") + "commands: "
            + String.join(", ", target.getSubcommands().keySet()), null);
      }
      target = sub;
    }
    if (scenario == null) {
      target.usage(out, ansi);
    } else if (target == self.getParent()) {
      out.print(describe(scenario(scenario)));
    } else if (takesScenario(target)) {
      usage(target, scenario, out, ansi);
    } else {
      throw CommandFailure.usage("'" + typed + "' takes no --scenario; 'help simulate --scenario "
          + scenario + "' lists a scenario's parameters", null);
    }
    out.flush();
  }

  /** Whether {@code command} starts a simulation of a scenario: it has the {@link SimulationOptions}. */
  static boolean takesScenario(CommandLine command) {
    for (CommandLine.Model.CommandSpec mixin : command.getCommandSpec().mixins().values()) {
      if (mixin.userObject() instanceof SimulationOptions) {
        return true;
      }
    }
    return false;
  }

  /**
   * Makes the usage of a command that {@linkplain #takesScenario takes a scenario} end with the
   * registered scenarios, or with the chosen one's parameters ({@link #usage}), whose options it then
   * lists without the other scenarios' parameter options.
   */
  static void installScenarioSections(CommandLine command) {
    Map<String, CommandLine.IHelpSectionRenderer> sections = new LinkedHashMap<>(command.getHelpSectionMap());
    sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST, HelpCommand::optionList);
    sections.put(SCENARIOS_SECTION, help -> scenarios(help.commandSpec().name()));
    command.setHelpSectionMap(sections);
    List<String> keys = new ArrayList<>(command.getHelpSectionKeys());
    keys.add(keys.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST) + 1, SCENARIOS_SECTION);
    command.setHelpSectionKeys(keys);
  }

  /**
   * Prints the usage of {@code command} for {@code scenarioName} (null: every scenario).
   *
   * @throws CommandFailure when no scenario of that name is registered
   */
  static void usage(CommandLine command, String scenarioName, PrintWriter out, Ansi ansi) {
    Scenario<?> chosen = scenarioName == null ? null : scenario(scenarioName);
    CHOSEN.set(chosen);
    try {
      command.usage(out, ansi);
    } finally {
      CHOSEN.remove();
    }
    out.flush();
  }

  private static Scenario<?> scenario(String name) {
    try {
      return LocalCatalog.get().scenarios().get(name);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage("--scenario: " + e.getMessage(), null);
    }
  }

  /** The options, less the parameter options ({@code --citizens}, ...) of parameters the chosen scenario lacks. */
  private static String optionList(CommandLine.Help help) {
    Scenario<?> chosen = CHOSEN.get();
    Set<String> hidden = new HashSet<>();
    if (chosen != null) {
      Set<String> own = new HashSet<>();
      for (ParameterSpec p : ScenarioParameters.specs(chosen)) {
        own.add(p.name());
      }
      for (String parameter : new SimulationOptions().aliases().keySet()) {
        if (!own.contains(parameter)) {
          hidden.add("--" + parameter.replace('_', '-'));
        }
      }
    }
    List<CommandLine.Model.OptionSpec> shown = new ArrayList<>();
    for (CommandLine.Model.OptionSpec o : help.commandSpec().options()) {
      if (!o.hidden() && o.group() == null && !hidden.contains(o.longestName())) {
        shown.add(o);
      }
    }
    return help.optionListExcludingGroups(shown) + help.optionListGroupSections();
  }

  /** The registered scenarios, or the chosen one's roles and parameters. */
  private static String scenarios(String commandName) {
    Scenario<?> chosen = CHOSEN.get();
    if (chosen != null) {
      return System.lineSeparator() + describe(chosen);
    }
    StringBuilder sb = new StringBuilder(System.lineSeparator()).append("Scenarios ('help ").append(commandName)
        .append(" --scenario <name>' lists a scenario's parameters):").append(System.lineSeparator());
    for (Scenario<?> s : LocalCatalog.get().scenarios().all()) {
      sb.append("  ").append(pad(s.name(), 16)).append(s.description()).append(System.lineSeparator());
    }
    return sb.toString();
  }

  /** A scenario's description, roles and parameter table. */
  static String describe(Scenario<?> s) {
    StringBuilder sb = new StringBuilder();
    sb.append("Scenario ").append(s.name());
    if (!s.description().isBlank()) {
      sb.append(": ").append(s.description());
    }
    sb.append('\n').append("Roles: ").append(String.join(", ", s.roles())).append('\n');
    List<ParameterSpec> specs = ScenarioParameters.specs(s);
    sb.append("Parameters (--param NAME=VALUE; unset ones take the default):\n");
    int width = 4;
    for (ParameterSpec p : specs) {
      width = Math.max(width, p.name().length());
    }
    sb.append("  ").append(pad("NAME", width + 2)).append(pad("DEFAULT", 10)).append("MEANING\n");
    for (ParameterSpec p : specs) {
      String def = p.defaultValue() == null ? "" : p.defaultValue().isTextual()
          ? p.defaultValue().asText() : p.defaultValue().toString();
      sb.append("  ").append(pad(p.name(), width + 2)).append(pad(def, 10))
          .append(p.description().isBlank() ? "" : p.description() + "; ").append(p.allowed())
          .append(p.adjustable() ? "; can change during a run (intervene)" : "").append('\n');
    }
    return sb.toString();
  }

  private static String pad(String s, int width) {
    StringBuilder sb = new StringBuilder(s);
    while (sb.length() < width) {
      sb.append(' ');
    }
    if (sb.length() == s.length()) {
      sb.append(' ');
    }
    return sb.toString();
  }
}
