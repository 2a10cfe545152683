package io.durableagents.starter;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code durable-agents} command line: start and watch simulations, list and describe runs, and
 * run the embedded dev server or a worker.
 *
 * <pre>{@code
 * java -jar starter/target/durable-agents.jar demo
 * java -jar starter/target/durable-agents.jar simulate --steps 50 --seed 7
 * java -jar starter/target/durable-agents.jar list
 * }</pre>
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
      BenchmarkCommand.class,
      WorkerCommand.class,
      DevServerCommand.class,
      CheckExecutionLogCommand.class,
      HelpCommand.class
    })
public final class StarterMain {
  @Option(names = Failures.VERBOSE_OPTION, scope = ScopeType.INHERIT,
      description = "Print the stack trace of a failure (as DURABLE_AGENTS_DEBUG=1 does).")
  boolean verbose;

  public static void main(String[] args) {
    Interrupts.superviseIfChild();
    System.exit(commandLine().execute(args));
  }

  /** The command line, for tests; failures print as {@link Failures} says. */
  public static CommandLine commandLine() {
    return Failures.install(new CommandLine(new StarterMain()).setCaseInsensitiveEnumValuesAllowed(true));
  }
}
