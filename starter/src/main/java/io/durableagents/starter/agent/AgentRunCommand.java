package io.durableagents.starter.agent;

import io.durableagents.activities.spec.AgentSpecLoader;
import io.durableagents.activities.spec.RegisteredNames;
import io.durableagents.activities.tools.mcp.McpServerConfig;
import io.durableagents.activities.tools.mcp.McpToolSet;
import io.durableagents.starter.Environment;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.starter.StartChecks;
import io.durableagents.worker.WorkerSettings;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.autonomous.AgentSpec;
import io.durableagents.workflows.autonomous.AutonomousAgentInput;
import io.durableagents.workflows.autonomous.AutonomousAgentResult;
import io.durableagents.workflows.autonomous.AutonomousAgentWorkflow;
import io.durableagents.workflows.autonomous.JudgeVerdict;
import io.durableagents.workflows.autonomous.SubAgentReport;
import io.durableagents.workflows.autonomous.TodoItem;
import io.durableagents.workflows.autonomous.TodoList;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code agent run spec.yaml -p "..."}: loads and validates an autonomous agent's YAML spec, runs it
 * as an {@code AutonomousAgent} workflow and prints the final answer, the todo list, the judge's
 * verdicts and the tokens (per sub-agent and rolled up). Like {@code agent} it starts a worker (and
 * the embedded Temporal when none listens) unless told that workers already run.
 *
 * <pre>{@code
 * java -jar starter/target/durable-agents.jar agent run examples/todo-calculator.yaml \
 *     -p "What is 17 * 23 and 120 / 4?"
 * }</pre>
 */
@Command(name = "run",
    description = "Run an autonomous agent from its YAML spec and print its answer, todo list, judge "
        + "verdicts and tokens.")
final class AgentRunCommand implements Callable<Integer> {
  @Parameters(index = "0", description = "The agent's spec (YAML).")
  Path specFile;

  @Option(names = {"-p", "--prompt"}, required = true, description = "What the agent should do.")
  String prompt;

  @Option(names = "--model", description = "Use this model instead of the spec's (rules, openai:<model>, ...).")
  String model;

  @Option(names = "--max-output-tokens", paramLabel = "N",
      description = "Most tokens each of the agent's LLM answers may have, instead of the spec's "
          + "model.max_output_tokens (0: send no maximum). Default: the worker's "
          + "DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS for the model, else the default of the kind of call.")
  Integer maxOutputTokens;

  @Option(names = "--no-worker",
      description = "Use the workers already running instead of starting one (and the embedded Temporal).")
  boolean noWorker;

  @Option(names = "--id", description = "Workflow id (default: auto-<name>-<random>).")
  String id;

  @Override
  public Integer call() throws Exception {
    AutonomousAgentInput input;
    try {
      input = toInput();
    } catch (IllegalArgumentException e) {
      System.err.println("agent run: " + e.getMessage());
      return 2;
    }
    AgentSpec spec = input.spec();
    StartChecks.workflowId("--id", id);
    String workflowId = id != null ? id
        : "auto-" + spec.name() + "-" + UUID.randomUUID().toString().substring(0, 8);
    AutonomousAgentInput run = input;
    Map<String, String> workerEnv = Map.of();
    String definitions = AgentSpecLoader.mcpServerDefinitionsDocument(specFile);
    if (definitions != null && noWorker) {
      System.out.println("agent run: --no-worker: the running workers must have the MCP servers this spec defines ("
          + WorkerSettings.MCP_SERVERS + ")");
    } else if (definitions != null) {
      // The worker this command starts gets the spec's servers, as written: it fills in their ${...}
      // from its own environment, so no secret is written to a file here.
      Path file = Path.of("runs", "agent", "mcp-servers-" + workflowId + ".yaml");
      Files.createDirectories(file.getParent());
      Files.writeString(file, definitions);
      String existing = Environment.get(WorkerSettings.MCP_SERVERS);
      workerEnv = Map.of(WorkerSettings.MCP_SERVERS, (existing == null || existing.isBlank() ? ""
          : existing.strip() + File.pathSeparator) + file.toAbsolutePath());
    }
    return SingleRun.run("agent run", noWorker, workflowId, workerEnv, client -> {
      AutonomousAgentWorkflow agent = client.newWorkflowStub(AutonomousAgentWorkflow.class,
          WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(workflowId)
              .setStaticSummary(spec.name() + ": " + spec.reasoning().pattern().label() + " with " + spec.model())
              .build());
      AutonomousAgentInput marked = ApprovalSearchAttribute.registered(client)
          ? new AutonomousAgentInput(ApprovalSearchAttribute.on(run.spec()), run.prompt(), run.depth(),
              run.maxDepth(), run.tokenBudget(), run.timeoutSeconds()) : run;
      SingleRun.start(workflowId, agent::run, marked, () -> System.out.println("Started " + workflowId + ": "
          + spec.name() + ", " + spec.reasoning().pattern().label() + " with " + spec.model()));
      try (ApprovalWatch watch = ApprovalWatch.start(client, workflowId, System.out)) {
        return WorkflowStub.fromTyped(agent).getResult(AutonomousAgentResult.class);
      }
    }, result -> print(result, System.out), r -> 0);
  }

  /**
   * The workflow input: the spec loaded and validated, the prompt checked.
   *
   * @throws IllegalArgumentException naming the field or option at fault
   */
  AutonomousAgentInput toInput() {
    if (prompt == null || prompt.isBlank()) {
      throw new IllegalArgumentException("-p: the prompt is empty");
    }
    RegisteredNames registered = new RegisteredNames(
        java.util.Set.copyOf(LocalCatalog.get().tools()), LocalCatalog.get().models());
    AgentSpec spec = loadWithMcpServers(registered);
    if (model != null && !model.isBlank()) {
      AgentSpecLoader.checkModel("--model", model.strip(), registered.models());
      spec = spec.withModel(model.strip());
    }
    if (maxOutputTokens != null) {
      spec = spec.withMaxOutputTokens(
          io.durableagents.starter.run.SimulationOptions.checkedMaxOutputTokens(maxOutputTokens.toString()));
    }
    return AutonomousAgentInput.root(spec, prompt.strip());
  }

  /**
   * Loads the spec; when it has {@code mcp_servers}, first connects to its servers and the worker's
   * ({@code DURABLE_AGENTS_MCP_SERVERS}) to read their tool lists, which its agent's tools come from.
   */
  private AgentSpec loadWithMcpServers(RegisteredNames registered) {
    List<McpServerConfig> servers = new ArrayList<>();
    Map<String, String> env = Environment.variables();
    List<McpServerConfig> defined = AgentSpecLoader.mcpServerDefinitions(specFile, env);
    if (!AgentSpecLoader.hasMcpServers(specFile)) {
      return AgentSpecLoader.load(specFile, registered);
    }
    servers.addAll(McpCatalog.workerServers(env));
    servers.addAll(defined);
    try (McpToolSet mcp = McpCatalog.connect(servers)) {
      return AgentSpecLoader.load(specFile, registered.withMcpTools(mcp));
    }
  }

  /** Prints a result for a person: answer, todo list, verdicts, sub-agents and tokens. */
  static void print(AutonomousAgentResult r, PrintStream out) {
    out.println();
    out.println("Answer (" + r.status() + (r.endedBy() == null ? "" : ", ended by " + r.endedBy().label()
        + ": " + r.endedReason()) + "):");
    out.println(r.answer());
    if (!r.todos().isEmpty()) {
      out.println();
      out.println("Todo list:");
      for (TodoItem i : r.todos()) {
        out.println("  " + TodoList.line(i));
      }
    }
    if (!r.thoughts().isEmpty()) {
      out.println();
      out.println("Thoughts: " + r.thoughts().size());
    }
    if (!r.verdicts().isEmpty()) {
      out.println();
      out.println("Judge verdicts:");
      for (JudgeVerdict v : r.verdicts()) {
        out.println("  round " + v.round() + ": " + (v.allPassed() ? "passed" : "failed"));
        for (JudgeVerdict.CriterionResult c : v.criteriaResults()) {
          out.println("    " + (c.passed() ? "[x] " : "[!] ") + c.criterion() + ": " + c.reason());
        }
      }
    }
    if (!r.subAgents().isEmpty()) {
      out.println();
      out.println("Sub-agents:");
      printSubAgents(r.subAgents(), out, "  ");
    }
    out.println();
    out.printf("Pattern %s: %d iterations, %d reflection rounds, %d LLM calls, %d tool calls%s%n", r.pattern(),
        r.iterations(), r.reflectionRounds(), r.llmCalls(), r.toolCalls(), AgentCommand.denied(r.deniedToolCalls()));
    out.printf("Tokens: own %d in / %d out; with sub-agents %d in / %d out%n", r.usage().input(),
        r.usage().output(), r.totalUsage().input(), r.totalUsage().output());
  }

  private static void printSubAgents(java.util.List<SubAgentReport> reports, PrintStream out, String indent) {
    for (SubAgentReport s : reports) {
      out.printf("%s%s %s %s: tokens own %d in / %d out, rolled up %d in / %d out -> %s%n", indent, s.taskId(),
          s.agent(), s.status(), s.usage().input(), s.usage().output(), s.totalUsage().input(),
          s.totalUsage().output(), s.answer() == null ? "" : s.answer().replace("\n", " "));
      printSubAgents(s.subAgents(), out, indent + "  ");
    }
  }
}
