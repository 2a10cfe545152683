package io.durableagents.starter.agent;

import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.starter.StartChecks;
import io.durableagents.starter.run.SimulationOptions;
import io.durableagents.starter.run.StrategyOptions;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.agent.rewoo.ReWooStep;
import io.durableagents.workflows.agent.rewoo.ReWooStepResult;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import java.io.PrintStream;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Runs one agent on one task, outside simulations, as an {@code AgentTask} workflow: every LLM call
 * and tool call is an activity. Like {@code demo} it starts a worker (and the embedded Temporal when
 * none listens on the default address), unless told that workers already run.
 */
@Command(name = "agent",
    description = "Run one agent on one task (e.g. agent --strategy react -p \"What is 17 * 23?\") and print "
        + "its answer, its turns or plan, and what it cost; or run an autonomous agent's spec (agent run "
        + "spec.yaml -p \"...\").",
    subcommands = AgentRunCommand.class)
public final class AgentCommand implements Callable<Integer> {
  // Not required by picocli: "agent run spec.yaml -p ..." gives -p to the subcommand; toInput checks it.
  @Option(names = {"-p", "--prompt"}, description = "The task.")
  String prompt;

  @Option(names = "--strategy", defaultValue = "react",
      description = "cot, react or rewoo (default: ${DEFAULT-VALUE}).")
  String strategy;

  @Option(names = "--model",
      description = "rules, openai:<model>, anthropic:<model>, ollama:<model> or a model registered by name (default: $"
          + SimulationOptions.MODEL_VARIABLE + ", else rules).")
  String model;

  @Option(names = "--tools", split = ",",
      description = "The external tools the agent has: built-in ones, tools registered by an extension on "
          + "the classpath, or MCP servers' tools (<server>_<tool>, servers in DURABLE_AGENTS_MCP_SERVERS) "
          + "(default: calculator,read_file). With --no-worker the running workers check them.")
  List<String> tools;

  @Option(names = "--tool-choice", defaultValue = "auto",
      description = "auto, required, none or default (default: ${DEFAULT-VALUE}).")
  String toolChoice;

  @Option(names = "--max-output-tokens", paramLabel = "N",
      description = "Most tokens each LLM answer may have; an answer cut there is a cut answer (0: send no "
          + "maximum). Default: the worker's DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS for the model, else the "
          + "default of the kind of call (a ReWOO plan 640, a ReAct turn 384 ...).")
  Integer maxOutputTokens;

  @Mixin
  StrategyOptions strategyOptions = new StrategyOptions();

  @Option(names = "--no-worker",
      description = "Use the workers already running instead of starting one (and the embedded Temporal).")
  boolean noWorker;

  @Option(names = "--id", description = "Workflow id (default: agent-<strategy>-<random>).")
  String id;

  @Override
  public Integer call() throws Exception {
    AgentTaskInput input;
    try {
      input = toInput();
    } catch (IllegalArgumentException e) {
      System.err.println("agent: " + e.getMessage());
      return 2;
    }
    StartChecks.workflowId("--id", id);
    String workflowId = id != null ? id
        : "agent-" + input.options().strategy().label() + "-" + UUID.randomUUID().toString().substring(0, 8);
    AgentTaskInput task = input;
    return SingleRun.run("agent", noWorker, workflowId, client -> {
      AgentTaskInput marked = ApprovalSearchAttribute.registered(client)
          ? new AgentTaskInput(task.task(), task.tools(), ApprovalSearchAttribute.on(task.options())) : task;
      AgentTaskWorkflow agent = client.newWorkflowStub(AgentTaskWorkflow.class,
          WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(workflowId)
              .setStaticSummary(task.options().strategy().label() + " with " + task.options().model())
              .build());
      SingleRun.start(workflowId, agent::run, marked, () -> System.out.println("Started " + workflowId + ": "
          + task.options().strategy().label() + " with " + task.options().model() + ", tools " + task.tools()));
      try (ApprovalWatch watch = ApprovalWatch.start(client, workflowId, System.out)) {
        return WorkflowStub.fromTyped(agent).getResult(AgentTaskResult.class);
      }
    }, result -> print(result, System.out), AgentCommand::exitCode);
  }

  /**
   * 0 for an answer; {@link Failures#FAILED} for an empty or cut one, with a line saying so (the answer
   * and the warnings are printed above it).
   */
  static int exitCode(AgentTaskResult r) {
    if (r.answered()) {
      return Failures.OK;
    }
    System.err.println("agent: " + (AgentTaskResult.EMPTY.equals(r.answerProblem())
        ? "the model gave an empty answer" : "the answer was cut at the output limit")
        + "; try again, or raise the maximum output length (--max-output-tokens, or the worker's "
        + "DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS; the warning above names the limit it reached) or "
        + "DURABLE_AGENTS_MAX_OUTPUT_BYTES");
    return Failures.FAILED;
  }

  /**
   * The workflow input, checked.
   *
   * @throws IllegalArgumentException naming the bad option
   */
  AgentTaskInput toInput() {
    if (prompt == null || prompt.isBlank()) {
      throw new IllegalArgumentException("-p: the task is empty");
    }
    Strategy s;
    try {
      s = Strategy.parse(strategy);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--strategy: " + e.getMessage());
    }
    ToolChoice choice = SimulationOptions.checkedToolChoice(toolChoice);
    String m = SimulationOptions.checkedModel(model);
    // With --no-worker the workers that run the task know their own tools (their extensions, their MCP
    // servers, which this command's environment may not name): they refuse a name they do not know.
    if (tools != null && !noWorker) {
      List<String> known = new java.util.ArrayList<>(LocalCatalog.get().tools());
      if (!known.containsAll(tools)) {
        // Perhaps an MCP server's tool: only the servers know those names.
        known.addAll(McpCatalog.workerToolNames(Environment.variables()));
      }
      for (String t : tools) {
        if (!known.contains(t)) {
          throw new IllegalArgumentException("--tools: '" + t + "' is not one of: " + String.join(", ", known)
              + "; an MCP server's tools (<server>_<tool>) need the server in "
              + io.durableagents.worker.WorkerSettings.MCP_SERVERS
              + ", or --no-worker to run on workers that have them");
        }
      }
    }
    AgentOptions options = StrategyOptions.build(strategyOptions.applyTo(AgentOptions.newBuilder()
        .setStrategy(s).setModel(m).setToolChoice(choice).setMaxOutputTokens(maxOutputTokens)));
    List<String> given = tools != null ? tools : AgentTaskInput.DEFAULT_TOOLS;
    if (options.approval() != null) {
      for (String t : options.approval().tools()) {
        if (!given.contains(t)) {
          throw new IllegalArgumentException("--requires-approval: '" + t + "' is not one of the agent's tools"
              + " (--tools): " + String.join(", ", given));
        }
      }
    }
    return new AgentTaskInput(prompt, tools, options);
  }

  /** Prints a result for a person: the answer, then how it was reached and what it cost. */
  public static void print(AgentTaskResult r, PrintStream out) {
    out.println();
    List<AgentTaskResult.AgentTurn> turns = r.turns();
    for (int i = 0; i < turns.size(); i++) {
      AgentTaskResult.AgentTurn turn = turns.get(i);
      boolean isTheAnswer = i == turns.size() - 1 && turn.outcomes().isEmpty() && turn.thought() != null
          && r.answer() != null && turn.thought().strip().equals(r.answer().strip());
      if (isTheAnswer) {
        // The last turn's text is the answer, printed once below.
        out.println("Turn " + turn.iteration() + ": answered");
      } else if (turn.thought() != null && !turn.thought().isBlank()) {
        out.println("Turn " + turn.iteration() + ": " + indent(turn.thought().strip()));
      } else {
        out.println("Turn " + turn.iteration() + ":");
      }
      for (ToolOutcome o : turn.outcomes()) {
        out.println("  " + o.tool() + (o.error() ? " (error)" : "") + " -> " + indent(o.output()));
      }
    }
    if (r.plan() != null) {
      out.println("Plan:");
      for (ReWooStep step : r.plan().steps()) {
        out.println("  " + step.id() + " = " + step.tool() + "(" + step.args() + ")");
      }
    }
    for (ReWooStepResult s : r.stepResults()) {
      out.println("  " + s.stepId() + " " + s.tool() + " -> "
          + (s.succeeded() ? indent(s.output()) : (s.skipped() ? "skipped: " : "failed: ") + s.error()));
    }
    if (r.replans() > 0) {
      out.println("Re-plans: " + r.replans());
    }
    out.println();
    for (String warning : r.warnings()) {
      out.println("Warning: " + warning);
    }
    String problem = AgentTaskResult.EMPTY.equals(r.answerProblem()) ? " (empty: the model gave no answer)"
        : AgentTaskResult.CUT.equals(r.answerProblem()) ? " (cut at the output limit: incomplete)" : "";
    out.println("Answer" + (r.forced() ? " (forced: " + r.forcedFinish() + ")" : "") + problem + ":");
    out.println(r.answer());
    out.println();
    out.printf("Strategy %s: %d LLM calls, %d tool calls%s, tokens %d in / %d out%n", r.strategy(),
        r.llmCalls(), r.toolCalls(), denied(r.deniedToolCalls()), r.usage().input(), r.usage().output());
  }

  /** The summary's note of the tool calls denied on approval (they did not run): {@code  (1 denied)}. */
  static String denied(int deniedToolCalls) {
    return deniedToolCalls == 0 ? "" : " (" + deniedToolCalls + " denied, not run)";
  }

  private static String indent(String text) {
    return text == null ? "" : text.replace("\n", "\n    ");
  }
}
