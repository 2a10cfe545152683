package io.durableagents.starter;

import io.durableagents.workflows.scenario.ParameterSpec;
import io.durableagents.workflows.scenario.Scenario;
import io.durableagents.workflows.scenario.ScenarioParameters;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code help [COMMAND] [--scenario NAME]}: a command's usage, as picocli's help command prints it;
 * for {@code simulate} and {@code demo} also the registered scenarios, and with {@code --scenario}
 * each of that scenario's parameters with its default and meaning.
 */
@Command(name = "help", helpCommand = true,
    description = "Show a command's usage; 'help simulate --scenario <name>' lists the scenario's "
        + "parameters, their defaults and meaning.")
final class HelpCommand implements CommandLine.IHelpCommandInitializable2, Runnable {
  @Parameters(arity = "0..1", paramLabel = "COMMAND", description = "The command to show the usage of.")
  String command;

  @Option(names = "--scenario", paramLabel = "NAME", description = "List this scenario's parameters.")
  String scenario;

  private CommandLine self;
  private PrintWriter out;
  private PrintWriter err;
  private Ansi ansi;

  @Override
  public void init(CommandLine helpCommandLine, CommandLine.Help.ColorScheme colorScheme,
      PrintWriter out, PrintWriter err) {
    this.self = helpCommandLine;
    this.out = out;
    this.err = err;
    this.ansi = colorScheme.ansi();
  }

  @Override
  public void run() {
    CommandLine parent = self.getParent();
    if (command == null) {
      if (scenario == null) {
        parent.usage(out, ansi);
        return;
      }
    } else {
      CommandLine sub = parent.getSubcommands().get(command);
      if (sub == null) {
        err.println("Unknown command '" + command + "'; commands: "
            + String.join(", ", parent.getSubcommands().keySet()));
        return;
      }
      sub.usage(out, ansi);
    }
    if (scenario != null) {
      Scenario<?> s;
      try {
        s = LocalCatalog.get().scenarios().get(scenario);
      } catch (IllegalArgumentException e) {
        err.println("--scenario: " + e.getMessage());
        return;
      }
      out.println();
      out.print(describe(s));
      out.flush();
    } else if ("simulate".equals(command) || "demo".equals(command)) {
      out.println();
      out.println("Scenarios ('help " + command + " --scenario <name>' lists a scenario's parameters):");
      for (Scenario<?> s : LocalCatalog.get().scenarios().all()) {
        out.println("  " + pad(s.name(), 16) + s.description());
      }
    }
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
