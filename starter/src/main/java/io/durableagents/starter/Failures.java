package io.durableagents.starter;

import io.durableagents.workflows.agent.StrategyFailureTypes;
import io.durableagents.workflows.agent.rewoo.ReWooReasoning;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.durableagents.workflows.llm.SpentBeforeFailure;
import io.durableagents.workflows.tools.ToolFailureTypes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowQueryException;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TerminatedFailure;
import io.temporal.failure.TimeoutFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.URISyntaxException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * Failures in words: what every command prints when it cannot do what it was asked, and the exit
 * code it returns. One function, {@link #report(Throwable)}, turns any exception a command meets
 * (a check of its own, Temporal's client exceptions, a failed run's cause chain, gRPC statuses, file
 * errors) into an exit code, a one-line message and one line on what to do; {@link #install} makes
 * it the handler of every command of a {@link CommandLine}. The stack trace is printed only with
 * {@code --verbose} or {@code DURABLE_AGENTS_DEBUG=1}.
 *
 * <pre>{@code
 * Failures.Report r = Failures.report(e);
 * System.err.println("simulate: " + r.message());
 * return r.exitCode();
 * }</pre>
 *
 * <p>Exit codes: {@value #OK} done, {@value #FAILED} the run (or the command) failed, {@value #USAGE}
 * a bad option or argument, {@value #NOT_FOUND} no such run, agent or file, {@value #UNAVAILABLE}
 * Temporal unreachable or not Temporal, {@value #LOCAL} a local resource (a file cannot be written,
 * a port is taken), {@value #INTERRUPTED} stopped by Ctrl-C.
 */
public final class Failures {
  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int USAGE = 2;
  public static final int NOT_FOUND = 3;
  public static final int UNAVAILABLE = 4;
  public static final int LOCAL = 5;
  static final int INTERRUPTED = 130;

  /** Set to 1 (or true) to print stack traces, as {@code --verbose} does. */
  static final String DEBUG_VARIABLE = "DURABLE_AGENTS_DEBUG";

  /** The option, accepted by every command, that prints stack traces. */
  static final String VERBOSE_OPTION = "--verbose";

  private static final String HISTORY_HINT = "'history <workflow id>' or the Temporal UI shows the failure in full.";

  /** What to tell the user: the exit code, a one-line message, and what to do (or null). */
  record Report(int exitCode, String message, String hint) {}

  private Failures() {}

  /** The report for {@code failure}, whose hint names no option of a particular command. */
  static Report report(Throwable failure) {
    return report(failure, null);
  }

  /** The report for {@code failure} as {@code command} (null: any) prints it. */
  static Report report(Throwable failure, CommandLine.Model.CommandSpec command) {
    Throwable t = unwrap(failure);
    if (t instanceof CommandFailure c) {
      return new Report(c.exitCode(), c.getMessage(), c.hint());
    }
    if (t instanceof WorkflowExecutionAlreadyStarted started) {
      String id = started.getExecution().getWorkflowId();
      return new Report(USAGE, "a run with id '" + id + "' is already running",
          "Follow it with 'attach " + id + "', or choose another --id.");
    }
    if (t instanceof WorkflowFailedException) {
      return new Report(FAILED, "the run failed" + spent(t) + ": " + runFailure(t), hintFor(t, command));
    }
    if (t instanceof WorkflowNotFoundException nf) {
      return new Report(NOT_FOUND, "no run '" + nf.getExecution().getWorkflowId() + "'",
          "'list' shows the runs.");
    }
    if (t instanceof WorkflowQueryException) {
      String why = shorten(stripPrefixes(firstLine(innermostMessage(t))));
      if (innermostMessage(t).contains("IllegalArgumentException")) {
        // the workflow refused the query's argument: an agent or a step it does not have
        return new Report(NOT_FOUND, why, "'world <workflow id>' lists the agents.");
      }
      return new Report(FAILED, "the query failed: " + why,
          "Is it a simulation, and is a worker running ('describe <workflow id>')?");
    }
    StatusRuntimeException status = find(t, StatusRuntimeException.class);
    if (status != null) {
      return statusReport(status.getStatus());
    }
    if (t instanceof InterruptedException) {
      return new Report(INTERRUPTED, "interrupted", null);
    }
    BindException bind = find(t, BindException.class);
    if (bind != null) {
      return new Report(LOCAL, "the port is in use (" + bind.getMessage() + ")",
          "Choose another with --port, or stop what listens there.");
    }
    URISyntaxException uri = find(t, URISyntaxException.class);
    if (uri != null) {
      return new Report(USAGE, "'" + uri.getInput() + "' is not a host:port address",
          "Set TEMPORAL_ADDRESS to host:port, e.g. 127.0.0.1:7233.");
    }
    IOException io = find(t, IOException.class);
    if (io != null) {
      return fileReport(io);
    }
    if (t instanceof IllegalArgumentException) {
      return new Report(USAGE, firstLine(t.getMessage()), null);
    }
    return new Report(FAILED, describe(t), "Run again with --verbose for the stack trace.");
  }

  /**
   * {@code failure} in words, prefixed with what the command was doing: {@code cannot read 'x' on
   * 127.0.0.1:7233: no run 'x'}.
   */
  public static CommandFailure about(String doing, Throwable failure) {
    if (failure instanceof CommandFailure c) {
      return c;
    }
    Report r = report(failure);
    return new CommandFailure(r.exitCode(), doing + ": " + r.message(), r.hint(), failure);
  }

  /**
   * A failed run's cause in words: the type and message of the innermost typed failure of its cause
   * chain ({@code WorkflowFailedException -> ChildWorkflowFailure -> ActivityFailure ->
   * ApplicationFailure}), e.g. {@code LlmProviderNotConfigured: model openai:gpt-4o-mini needs
   * OPENAI_API_KEY in the worker's environment}.
   */
  static String runFailure(Throwable failure) {
    ApplicationFailure app = innermost(failure, ApplicationFailure.class);
    if (app != null) {
      // a plan rejected twice says why on lines of their own: the reason goes on the line printed
      return app.getType() + ": " + ReWooReasoning.rejectionSummary(String.valueOf(app.getOriginalMessage()));
    }
    if (find(failure, TerminatedFailure.class) != null) {
      return "it was terminated";
    }
    if (find(failure, CanceledFailure.class) != null) {
      return "it was cancelled";
    }
    TimeoutFailure timeout = find(failure, TimeoutFailure.class);
    if (timeout != null) {
      return "it timed out (" + timeout.getTimeoutType().name().replace("TIMEOUT_TYPE_", "").toLowerCase()
          .replace('_', ' ') + ")";
    }
    return firstLine(innermostMessage(failure));
  }

  /**
   * A hint for a failed run: {@code text} names no option, so any command may print it; a command that
   * has {@code option} prints {@code withOption} instead. Variables named are those of the worker's
   * environment that {@code docs/configuration.md} lists.
   */
  record Hint(String text, String option, String withOption) {
    static Hint of(String text) {
      return new Hint(text, null, null);
    }

    /** The hint as {@code command} (null: a command not known here) prints it. */
    String forCommand(CommandLine.Model.CommandSpec command) {
      return option != null && command != null && command.findOption(option) != null ? withOption : text;
    }
  }

  /**
   * What a failed run had spent, as its failure carries it ({@link SpentBeforeFailure}): {@code  after 2
   * LLM calls (100 tokens in, 20 out)}, or nothing when it carries none.
   */
  static String spent(Throwable failure) {
    return SpentBeforeFailure.of(failure).filter(s -> s.llmCalls() > 0)
        .map(s -> " after " + s.llmCalls() + (s.llmCalls() == 1 ? " LLM call" : " LLM calls") + " ("
            + s.usage().input() + " tokens in, " + s.usage().output() + " out)")
        .orElse("");
  }

  /** What to do about a failed run, by the type of its cause. */
  static final Map<String, Hint> HINTS = Map.of(
      LlmFailureTypes.PROVIDER_NOT_CONFIGURED, Hint.of("Set it where the worker runs (demo and agent start "
          + "their worker from this shell's environment), then run again."),
      LlmFailureTypes.AUTHENTICATION, Hint.of("Check the provider's key (OPENAI_API_KEY, ANTHROPIC_API_KEY) in "
          + "the worker's environment."),
      LlmFailureTypes.MODEL_NOT_FOUND, new Hint("Check the model's name with the provider.", "--model",
          "Check the model's name with the provider (--model provider:model)."),
      LlmFailureTypes.RATE_LIMITED, new Hint("Set DURABLE_AGENTS_LLM_RATE_LIMIT (LLM calls per second) where "
          + "the worker runs, give the model a longer DURABLE_AGENTS_LLM_RETRY_BUDGET, or wait for the "
          + "provider's limit to reset.", "--max-concurrent-agents", "Lower --max-concurrent-agents, set "
          + "DURABLE_AGENTS_LLM_RATE_LIMIT (LLM calls per second) where the worker runs, give the model a "
          + "longer DURABLE_AGENTS_LLM_RETRY_BUDGET, or wait for the provider's limit to reset."),
      LlmFailureTypes.TIMED_OUT, Hint.of("The model did not answer in time; the line says which limit ended "
          + "the call. A slow model: raise DURABLE_AGENTS_LLM_TIMEOUT (per attempt) where the worker runs; a "
          + "local model server whose calls queue in it: set DURABLE_AGENTS_LLM_SLOTS to its slots."),
      LlmFailureTypes.INVALID_REQUEST, Hint.of("The provider refused the request; a smaller prompt (fewer "
          + "agents in sight, less memory) or another model may fit."),
      LlmFailureTypes.UNKNOWN_TOOLS, Hint.of("Give every worker the tool: register it in the worker "
          + "(registerTool), or name its MCP server in DURABLE_AGENTS_MCP_SERVERS where the workers run."),
      ToolFailureTypes.UNKNOWN_SELECTED_TOOL, new Hint("Name only tools the agents have in the run's "
          + "selected tools.", "--selected-tools", "Name tools the agents have in --selected-tools, or "
          + "leave it out."),
      StrategyFailureTypes.INVALID_PLAN, new Hint("The model wrote a plan that does not fit; try another "
          + "model or another strategy.", "--strategy", "The model wrote a plan that does not fit; try "
          + "another model or --strategy cot."));

  /** The hint of a ReWOO plan rejected because it was cut at its maximum output length. */
  static final Hint CUT_PLAN_HINT = new Hint("The plan was cut at its maximum output length: give the planner "
      + "more with the worker's DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS (e.g. rewoo-plan=1280), or try another model.",
      "--max-output-tokens", "The plan was cut at its maximum output length: give it more with "
      + "--max-output-tokens (or the worker's DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS, e.g. rewoo-plan=1280), or "
      + "try another model.");

  /** What {@code command} (null: any) should say to do about a failed run, by the type of its cause. */
  private static String hintFor(Throwable failure, CommandLine.Model.CommandSpec command) {
    ApplicationFailure app = innermost(failure, ApplicationFailure.class);
    if (app != null && StrategyFailureTypes.INVALID_PLAN.equals(app.getType())
        && String.valueOf(app.getOriginalMessage()).contains("the plan was cut at the output limit")) {
      return CUT_PLAN_HINT.forCommand(command);
    }
    Hint hint = HINTS.get(app == null ? "" : app.getType());
    return hint == null ? HISTORY_HINT : hint.forCommand(command);
  }

  private static Report statusReport(Status status) {
    String description = status.getDescription() == null ? status.getCode().name()
        : firstLine(status.getDescription());
    return switch (status.getCode()) {
      case UNAVAILABLE, DEADLINE_EXCEEDED, UNIMPLEMENTED -> new Report(UNAVAILABLE,
          "Temporal did not answer (" + status.getCode() + ": " + description + ")",
          "Start one ('dev-server' in another terminal, or docker compose up), or set TEMPORAL_ADDRESS.");
      case UNAUTHENTICATED, PERMISSION_DENIED -> new Report(UNAVAILABLE,
          "Temporal refused the credentials (" + status.getCode() + ": " + description + ")",
          "Check TEMPORAL_API_KEY or the TLS settings (TEMPORAL_TLS*), and TEMPORAL_NAMESPACE.");
      case NOT_FOUND -> description.matches("(?i)^namespace\\b.*not found.*")
          ? new Report(NOT_FOUND, description, "Check TEMPORAL_NAMESPACE, or create the namespace.")
          : new Report(NOT_FOUND, "no such run", "'list' shows the simulation runs.");
      case INVALID_ARGUMENT, ALREADY_EXISTS, FAILED_PRECONDITION, OUT_OF_RANGE -> new Report(USAGE,
          description, null);
      default -> new Report(FAILED, "Temporal answered " + status.getCode() + ": " + description,
          "Run again with --verbose for the stack trace.");
    };
  }

  private static Report fileReport(IOException io) {
    String file = io instanceof FileSystemException fs && fs.getFile() != null ? fs.getFile() : null;
    if (io instanceof NoSuchFileException) {
      return new Report(LOCAL, "no such file or directory: " + file, "Create the directory, or choose another path.");
    }
    if (io instanceof AccessDeniedException) {
      return new Report(LOCAL, "no permission to write " + file, "Choose a path you can write to.");
    }
    if (io instanceof FileSystemException fs) {
      return new Report(LOCAL, "cannot write " + file + (fs.getReason() == null ? "" : ": " + fs.getReason()),
          "Choose another path.");
    }
    return new Report(LOCAL, describe(io), null);
  }

  /** {@code UncheckedIOException} and picocli's wrapping hide the exception that says what happened. */
  private static Throwable unwrap(Throwable t) {
    Throwable u = t;
    while ((u instanceof UncheckedIOException || u instanceof CommandLine.ExecutionException)
        && u.getCause() != null) {
      u = u.getCause();
    }
    return u;
  }

  /** The first {@code type} in the cause chain, {@code t} included. */
  static <T extends Throwable> T find(Throwable t, Class<T> type) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (type.isInstance(c)) {
        return type.cast(c);
      }
    }
    return null;
  }

  /** The last {@code type} in the cause chain. */
  private static <T extends Throwable> T innermost(Throwable t, Class<T> type) {
    T found = null;
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (type.isInstance(c)) {
        found = type.cast(c);
      }
    }
    return found;
  }

  private static String innermostMessage(Throwable t) {
    String message = null;
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c.getMessage() != null && !c.getMessage().isBlank()) {
        message = c.getMessage();
      }
    }
    return message == null ? t.getClass().getSimpleName() : message;
  }

  private static String describe(Throwable t) {
    return t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName()
        : t.getClass().getSimpleName() + ": " + firstLine(t.getMessage());
  }

  /** Drops gRPC's and Java's prefixes: {@code INVALID_ARGUMENT: java.lang.IllegalArgumentException: no agent}. */
  static String stripPrefixes(String message) {
    return message.replaceFirst("^[A-Z_]+: ", "").replaceFirst("^([a-z]\\w*\\.)+[A-Z]\\w*(Exception|Error|Failure): ", "");
  }

  /** At most 300 characters: a list of a thousand agents is not a message. */
  static String shorten(String message) {
    return message.length() <= 300 ? message : message.substring(0, 297) + "...";
  }

  static String firstLine(String text) {
    if (text == null) {
      return "";
    }
    String s = text.strip();
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl).strip();
  }

  /** Whether stack traces are wanted: {@code DURABLE_AGENTS_DEBUG} is set to 1 or true. */
  static boolean debugFromEnvironment() {
    String v = Environment.get(DEBUG_VARIABLE);
    return v != null && (v.equals("1") || v.equalsIgnoreCase("true") || v.equalsIgnoreCase("yes"));
  }

  /** Prints {@code <command>: <message>}, the hint on the next line, and the trace when {@code verbose}. */
  static int print(java.io.PrintWriter err, String command, Throwable failure, boolean verbose) {
    return print(err, command, null, failure, verbose);
  }

  /**
   * Prints {@code <command>: <message>}, the hint for {@code spec} (the command's options, or null) on
   * the next line, and the trace when {@code verbose}.
   */
  static int print(java.io.PrintWriter err, String command, CommandLine.Model.CommandSpec spec,
      Throwable failure, boolean verbose) {
    if (Interrupts.interrupted() && !verbose) {
      // stopping after Ctrl-C: what fails now (a query to a server going away) is no news
      return INTERRUPTED;
    }
    Report r = report(failure, spec);
    err.println(command + ": " + r.message());
    if (r.hint() != null) {
      err.println("  " + r.hint());
    }
    if (verbose) {
      failure.printStackTrace(err);
    }
    err.flush();
    return r.exitCode();
  }

  /** Makes these the handlers of every command of {@code commandLine}. */
  static CommandLine install(CommandLine commandLine) {
    return commandLine.setExecutionExceptionHandler(new ExecutionHandler())
        .setParameterExceptionHandler(new UsageHandler());
  }

  /** The command's name as typed after the program's: {@code simulate}, {@code agent run}. */
  static String commandName(CommandLine commandLine) {
    String qualified = commandLine.getCommandSpec().qualifiedName(" ");
    String root = commandLine.getCommandSpec().root().name();
    return qualified.startsWith(root + " ") ? qualified.substring(root.length() + 1) : qualified;
  }

  private static boolean verbose(ParseResult parseResult) {
    for (ParseResult p = parseResult; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption(VERBOSE_OPTION)) {
        return true;
      }
    }
    return debugFromEnvironment();
  }

  private static final class ExecutionHandler implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parseResult) {
      return print(commandLine.getErr(), commandName(commandLine), commandLine.getCommandSpec(), ex,
          verbose(parseResult));
    }
  }

  /**
   * A usage error: the error, the command's usage line, and where its options are listed; not the
   * whole help.
   */
  private static final class UsageHandler implements IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException ex, String[] args) {
      CommandLine cmd = ex.getCommandLine();
      java.io.PrintWriter w = cmd.getErr();
      String name = commandName(cmd);
      String root = cmd.getCommandSpec().root().name();
      if (name.equals(root) && ex instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()
          && !u.getUnmatched().get(0).startsWith("-")) {
        w.println(name + ": '" + u.getUnmatched().get(0) + "' is not a command");
      } else {
        w.println(name + ": " + firstLine(ex.getMessage()));
      }
      if (ex instanceof UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
        w.println("  Did you mean: " + String.join(" or ", unmatched.getSuggestions()) + "?");
      }
      w.println("  Usage: " + root + " " + (name.equals(root) ? "COMMAND" : name) + " [OPTIONS]"
          + (cmd.getCommandSpec().positionalParameters().isEmpty() ? "" : " " + positionals(cmd))
          + "; '" + root + " help" + (name.equals(root) ? "" : " " + name) + "' lists "
          + (name.equals(root) ? "the commands" : "its options") + ".");
      if (debugFromEnvironment() || java.util.Arrays.asList(args).contains(VERBOSE_OPTION)) {
        ex.printStackTrace(new java.io.PrintWriter(w, true));
      }
      w.flush();
      return USAGE;
    }

    private static String positionals(CommandLine cmd) {
      StringBuilder sb = new StringBuilder();
      for (CommandLine.Model.PositionalParamSpec p : cmd.getCommandSpec().positionalParameters()) {
        if (!p.hidden()) {
          sb.append(sb.length() == 0 ? "" : " ").append(p.paramLabel());
        }
      }
      return sb.toString();
    }
  }
}
