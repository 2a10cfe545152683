package io.durableagents.starter;

import io.durableagents.starter.agent.AgentCommand;
import io.durableagents.starter.approval.ApprovalsCommand;
import io.durableagents.starter.approval.ApproveCommand;
import io.durableagents.starter.approval.DenyCommand;
import io.durableagents.starter.benchmark.BenchmarkCommand;
import io.durableagents.starter.branch.CheckpointCommand;
import io.durableagents.starter.branch.ForkCommand;
import io.durableagents.starter.branch.InterveneCommand;
import io.durableagents.starter.inspect.AgentStateCommand;
import io.durableagents.starter.inspect.CheckExecutionLogCommand;
import io.durableagents.starter.inspect.DescribeCommand;
import io.durableagents.starter.inspect.HistoryCommand;
import io.durableagents.starter.inspect.ListCommand;
import io.durableagents.starter.inspect.PlansCommand;
import io.durableagents.starter.inspect.ShowCommand;
import io.durableagents.starter.inspect.WorldCommand;
import io.durableagents.starter.local.CodecServerCommand;
import io.durableagents.starter.local.DemoCommand;
import io.durableagents.starter.local.DevServerCommand;
import io.durableagents.starter.local.WorkerCommand;
import io.durableagents.starter.run.AttachCommand;
import io.durableagents.starter.run.PauseCommand;
import io.durableagents.starter.run.ResumeCommand;
import io.durableagents.starter.run.SimulateCommand;
import io.durableagents.starter.run.StopCommand;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExecutionException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code durable-agents} command line: start and watch simulations, list and describe runs, and
 * run the embedded dev server or a worker.
 *
 * <pre>{@code
 * java -jar starter/target/durable-agents.jar demo
 * java -jar starter/target/durable-agents.jar simulate --steps 50 --seed 7
 * java -jar starter/target/durable-agents.jar list
 * java -jar starter/target/durable-agents.jar simulate --help --scenario negotiation
 * }</pre>
 *
 * <p>Every command takes {@code -h}/{@code --help} (added here, to each command, rather than declared by
 * each) and prints what {@code help COMMAND} prints; a command's synopsis is abbreviated to {@code
 * [OPTIONS]}, its options being listed below it. What libraries log reaches the terminal as {@link
 * CliLogging} says.
 */
@Command(
    name = "durable-agents",
    mixinStandardHelpOptions = true,
    version = "durable-agents 0.1.0",
    description = "Durable LLM agents and agent simulations on Temporal.",
    subcommands = {
      DemoCommand.class,
      AgentCommand.class,
      SimulateCommand.class,
      io.durableagents.starter.experiment.SweepCommand.class,
      ListCommand.class,
      DescribeCommand.class,
      HistoryCommand.class,
      ShowCommand.class,
      PlansCommand.class,
      AttachCommand.class,
      PauseCommand.class,
      ResumeCommand.class,
      StopCommand.class,
      CheckpointCommand.class,
      ForkCommand.class,
      InterveneCommand.class,
      ApprovalsCommand.class,
      ApproveCommand.class,
      DenyCommand.class,
      WorldCommand.class,
      AgentStateCommand.class,
      CodecServerCommand.class,
      io.durableagents.starter.view.ViewCommand.class,
      BenchmarkCommand.class,
      WorkerCommand.class,
      DevServerCommand.class,
      CheckExecutionLogCommand.class,
      HelpCommand.class
    })
public final class StarterMain implements Runnable {
  @Option(names = Failures.VERBOSE_OPTION, scope = ScopeType.INHERIT,
      description = "Print the stack trace of a failure (as DURABLE_AGENTS_DEBUG=1 does).")
  boolean verbose;

  @Spec
  CommandSpec spec;

  public static void main(String[] args) {
    Interrupts.superviseIfChild();
    System.exit(commandLine().execute(args));
  }

  /** {@code durable-agents} alone: the commands, as {@code help} lists them. */
  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The command line, for tests; failures print as {@link Failures} says. */
  public static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new StarterMain()).setCaseInsensitiveEnumValuesAllowed(true);
    TemporalOptions.install(commandLine);
    addHelpOptions(commandLine, Collections.newSetFromMap(new IdentityHashMap<>()));
    commandLine.setHelpFactory(WordWrappedHelp::new);
    commandLine.setExecutionStrategy(StarterMain::execute);
    Failures.install(commandLine);
    CommandLine.IParameterExceptionHandler usage = commandLine.getParameterExceptionHandler();
    return commandLine.setParameterExceptionHandler((ex, args) -> usage.handleParseException(reworded(ex), args));
  }

  private static final Pattern KEY_VALUE = Pattern.compile(
      "Value for option option '([^']+)' \\(([^)]*)\\) should be in KEY=VALUE format but was (.*)", Pattern.DOTALL);

  /**
   * {@code ex} in plainer words where picocli's are off: its message for a map option's value without
   * {@code =} ({@code Value for option option '--param' (NAME=VALUE) should be in KEY=VALUE format but
   * was foo}) says "option" twice, and reads as {@code Invalid value for option '--param': 'foo' is not
   * NAME=VALUE}, as its other messages on values do.
   */
  static CommandLine.ParameterException reworded(CommandLine.ParameterException ex) {
    String message = ex.getMessage();
    if (message == null || !message.contains("option option ")) {
      return ex;
    }
    Matcher m = KEY_VALUE.matcher(message);
    String plain = m.matches()
        ? "Invalid value for option '" + m.group(1) + "': '" + m.group(3) + "' is not "
            + (m.group(2).contains("=") ? m.group(2) : "KEY=VALUE")
        : message.replace("option option ", "option ");
    return new CommandLine.ParameterException(ex.getCommandLine(), plain, ex, ex.getArgSpec(), ex.getValue());
  }

  /**
   * Gives every subcommand (at any depth) {@code -h}/{@code --help} as picocli's standard help options do,
   * less a name the command already uses, and an abbreviated synopsis; and a command that starts a
   * simulation its scenario sections ({@link HelpCommand#installScenarioSections}).
   */
  private static void addHelpOptions(CommandLine command, Set<CommandLine> done) {
    for (CommandLine sub : command.getSubcommands().values()) {
      if (!done.add(sub)) {
        continue; // an alias of a command seen already
      }
      CommandSpec spec = sub.getCommandSpec();
      spec.usageMessage().abbreviateSynopsis(true);
      if (!spec.optionsMap().containsKey("--help")) {
        List<String> names = spec.optionsMap().containsKey("-h") ? List.of("--help") : List.of("-h", "--help");
        spec.addOption(OptionSpec.builder(names.toArray(new String[0])).usageHelp(true).type(boolean.class)
            .arity("0").description("Show this help message and exit.").build());
      }
      if (HelpCommand.takesScenario(sub)) {
        HelpCommand.installScenarioSections(sub);
      }
      addHelpOptions(sub, done);
    }
  }

  /**
   * Runs the command parsed, as picocli's {@code RunLast} does, after setting up logging for it and with
   * the Temporal its {@link TemporalOptions} name; {@code
   * --help} with {@code --scenario} prints that scenario's help, as {@code help COMMAND --scenario NAME}
   * does.
   */
  private static int execute(ParseResult parsed) {
    ParseResult last = parsed;
    boolean verbose = false;
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      last = p;
      verbose |= p.hasMatchedOption(Failures.VERBOSE_OPTION);
    }
    CommandLine command = last.commandSpec().commandLine();
    CliLogging.configure(Failures.commandName(command), verbose);
    if (last.isUsageHelpRequested() && HelpCommand.takesScenario(command) && last.hasMatchedOption("--scenario")) {
      try {
        HelpCommand.usage(command, last.matchedOptionValue("--scenario", (String) null), command.getOut(),
            command.getColorScheme().ansi());
      } catch (CommandFailure e) {
        throw new ExecutionException(command, e.getMessage(), e);
      }
      return command.getCommandSpec().exitCodeOnUsageHelp();
    }
    try {
      return TemporalOptions.around(parsed, () -> new CommandLine.RunLast().execute(parsed));
    } catch (CommandFailure e) {
      throw new ExecutionException(command, e.getMessage(), e);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new ExecutionException(command, e.getMessage(), e);
    }
  }
}
