package io.durableagents.starter.experiment;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import io.durableagents.starter.Interrupts;
import io.durableagents.starter.Links;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.starter.StartChecks;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.starter.branch.Branch;
import io.durableagents.starter.run.SimulationOptions;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.SearchAttributeRegistry;
import io.durableagents.worker.SimulationReplay;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.experiment.ExperimentBudget;
import io.durableagents.workflows.experiment.ExperimentInput;
import io.durableagents.workflows.experiment.ExperimentRun;
import io.durableagents.workflows.experiment.ExperimentWorkflow;
import io.durableagents.workflows.experiment.RunFailurePolicy;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Runs one scenario over a grid of parameters, seeds, strategies or models, as Mesa's {@code batch_run}
 * does, as one durable experiment ({@link ExperimentWorkflow}): each run a child simulation {@code
 * <experiment>/run-NNN}, at most {@code --max-concurrent-runs} at once, within a budget; then the summary
 * and the CSV files. With {@code --from} and {@code --at-step}, every run is a what-if of a recorded run.
 */
@Command(name = "sweep", modelTransformer = SweepHelp.class,
    description = {"Run a scenario over a grid of parameters and seeds (and strategies or models), as Mesa's "
        + "batch_run does, as one durable experiment: each run a simulation <experiment>/run-NNN, a line per run "
        + "as it ends, then a summary by grid point (mean and spread over seeds); --csv writes one row per run "
        + "and step. A worker must be running. docs/experiments.md says more.",
        "With --from and --at-step every run forks a recorded run after step N (read by replay, no LLM call "
            + "before N) with its grid values from step N+1."})
public final class SweepCommand implements Callable<Integer> {
  /** More runs than this need {@code --yes}: a typo in a range should not start thousands of runs. */
  public static final int RUNS_WITHOUT_YES = 100;

  @Mixin
  SimulationOptions options;

  @Option(names = "--seeds", paramLabel = "N|S1,S2,...|A:B",
      description = "Seeds of every grid point: N seeds from --seed (--seed, --seed+1, ...), a list 1,5,9, or a "
          + "range 1:10 (default: --seed alone; for what-ifs, the recorded run's random state).")
  String seeds;

  @Option(names = "--strategies", paramLabel = "STRATEGY",
      description = "A value of the strategy dimension, in --strategy's syntax (repeatable: each occurrence one "
          + "value), e.g. --strategies cot --strategies citizen=rewoo,cop=react.")
  List<String> strategies = new ArrayList<>();

  @Option(names = "--models", paramLabel = "MODEL",
      description = "A value of the model dimension, in --model's syntax (repeatable: each occurrence one value), "
          + "e.g. --models rules --models openai:gpt-4o-mini.")
  List<String> models = new ArrayList<>();

  @Option(names = "--max-concurrent-runs", paramLabel = "N",
      description = "Runs going at once (default: " + ExperimentInput.DEFAULT_MAX_CONCURRENT_RUNS + ").")
  Integer maxConcurrentRuns;

  @Option(names = "--budget-calls", paramLabel = "N",
      description = "The most LLM calls of all runs together: no run starts that could pass it (default: none).")
  Long budgetCalls;

  @Option(names = "--budget-tokens", paramLabel = "N",
      description = "The most tokens (prompt and generated) of all runs together (default: none).")
  Long budgetTokens;

  @Option(names = "--on-run-failure", defaultValue = "skip", paramLabel = "skip|retry|stop",
      description = "A run whose simulation fails: skip reports it and goes on, retry starts it again "
          + "(--run-retries times), stop starts no new run (default: ${DEFAULT-VALUE}).")
  String onRunFailure;

  @Option(names = "--run-retries", paramLabel = "N",
      description = "With --on-run-failure retry: how many times a failed run starts again (default: 1).")
  Integer runRetries;

  @Option(names = "--name", description = "What the experiment is about, for people.")
  String name;

  @Option(names = "--no-wait", description = "Start the experiment, print its id and return ('attach <id>' follows it).")
  boolean noWait;

  @Option(names = "--yes", description = "Start even when the grid makes more than " + RUNS_WITHOUT_YES + " runs.")
  boolean yes;

  @Option(names = "--dry-run",
      description = "Print the runs and the estimate of LLM calls and tokens, and start nothing.")
  boolean dryRun;

  @Option(names = "--csv", paramLabel = "FILE",
      description = "Write one row per run and step (Mesa's batch_run layout): run_id, run, the grid's columns, "
          + "seed, step, every count, llm_calls, tokens.")
  Path csv;

  @Option(names = "--runs-csv", paramLabel = "FILE",
      description = "Write one row per run at its end: status, attempts, reason, final counts, llm_calls, tokens, "
          + "agent_steps, failed_agent_steps.")
  Path runsCsv;

  @Option(names = "--from", paramLabel = "SIMULATION_ID",
      description = "What-ifs: every run forks this recorded simulation after --at-step (as 'fork' does).")
  String from;

  @Option(names = "--at-step", paramLabel = "N", description = "With --from: the step after which every what-if goes on.")
  Integer atStep;

  @Spec
  CommandSpec spec;

  /** The sweep's own options: a what-if may take them besides those a fork may change. */
  static final Set<String> OWN = Set.of("--seeds", "--strategies", "--models", "--max-concurrent-runs",
      "--budget-calls", "--budget-tokens", "--on-run-failure", "--run-retries", "--name", "--no-wait", "--yes",
      "--dry-run", "--csv", "--runs-csv", "--from", "--at-step", "--verbose");

  @Override
  public Integer call() throws InterruptedException {
    RunFailurePolicy policy = checkOwnOptions();
    StartChecks.workflowId("--id", options.id);
    StartChecks.outputFile("--csv", csv);
    StartChecks.outputFile("--runs-csv", runsCsv);
    SweepPlan.Grid grid = new SweepPlan.Grid(options.takeParameters(), seeds, strategies, models);
    LocalCatalog catalog = LocalCatalog.get();
    if (from == null) {
      SweepPlan plan = SweepPlan.of(options, grid, catalog);
      return go(plan, policy, null, null);
    }
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      WorkflowClient client = connection.client(service);
      Checkpoint state = stateAfter(client, connection);
      SimulationInput base = Branch.input("a what-if", state, spec, options, OWN);
      StartChecks.simulation(base, catalog);
      SweepPlan plan = SweepPlan.whatIfs(state, base, grid, catalog);
      return go(plan, policy, connection, client);
    } finally {
      service.shutdown();
    }
  }

  /** The state after --at-step of --from, read by replaying its history here. */
  private Checkpoint stateAfter(WorkflowClient client, TemporalConnection connection) {
    SimulationReplay replay = new SimulationReplay(client, DurableAgentsPlugin.newBuilder().configureFromClasspath().build());
    try {
      return replay.stateAfter(client, from, atStep);
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage("--from " + from + ": " + e.getMessage(), "'describe " + from + "' shows how far it went.");
    } catch (CommandFailure e) {
      throw e;
    } catch (RuntimeException e) {
      throw Failures.about("cannot read '" + from + "' on " + connection.address(), e);
    } finally {
      replay.close();
    }
  }

  /** Checks the sweep's own options; returns --on-run-failure. */
  private RunFailurePolicy checkOwnOptions() {
    if (maxConcurrentRuns != null && maxConcurrentRuns < 1) {
      throw CommandFailure.usage("--max-concurrent-runs must be >= 1, was " + maxConcurrentRuns, null);
    }
    if (budgetCalls != null && budgetCalls < 1) {
      throw CommandFailure.usage("--budget-calls must be >= 1, was " + budgetCalls, "Leave it out for no bound.");
    }
    if (budgetTokens != null && budgetTokens < 1) {
      throw CommandFailure.usage("--budget-tokens must be >= 1, was " + budgetTokens, "Leave it out for no bound.");
    }
    if (runRetries != null && runRetries < 0) {
      throw CommandFailure.usage("--run-retries must be >= 0, was " + runRetries, null);
    }
    RunFailurePolicy policy;
    try {
      policy = RunFailurePolicy.valueOf(onRunFailure.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw CommandFailure.usage("--on-run-failure: '" + onRunFailure + "' is not one of skip, retry, stop", null);
    }
    if (runRetries != null && policy != RunFailurePolicy.RETRY) {
      throw CommandFailure.usage("--run-retries needs --on-run-failure retry", null);
    }
    if ((from == null) != (atStep == null)) {
      throw CommandFailure.usage(from == null ? "--at-step needs --from (the run to fork)"
          : "--from needs --at-step (the step after which every what-if goes on)", null);
    }
    if (atStep != null && atStep < 0) {
      throw CommandFailure.usage("--at-step must be >= 0, was " + atStep, "Give a completed step of the run.");
    }
    var parsed = spec.commandLine().getParseResult();
    if (!strategies.isEmpty() && parsed.hasMatchedOption("--strategy")) {
      throw CommandFailure.usage("--strategy and --strategies: give one", "--strategies crosses strategies in; "
          + "--strategy sets every run's.");
    }
    if (!models.isEmpty() && parsed.hasMatchedOption("--model")) {
      throw CommandFailure.usage("--model and --models: give one", "--models crosses models in; --model sets every run's.");
    }
    if (from == null && options.replaceFinished) {
      throw CommandFailure.usage("--replace-finished is not for experiments", "Choose another --id.");
    }
    return policy;
  }

  /** Checks the size and the budget; prints the plan (--dry-run) or starts and follows the experiment. */
  private int go(SweepPlan plan, RunFailurePolicy policy, TemporalConnection connection, WorkflowClient client)
      throws InterruptedException {
    int runs = plan.runs().size();
    if (runs > RUNS_WITHOUT_YES && !yes && !dryRun) {
      throw CommandFailure.usage("the grid makes " + runs + " runs, more than " + RUNS_WITHOUT_YES
          + " (~" + plan.calls() + " LLM calls)", "Give --yes to start them, or --dry-run to see them first.");
    }
    ExperimentBudget budget = budgetCalls == null && budgetTokens == null ? null
        : new ExperimentBudget(budgetCalls, budgetTokens);
    if (budget != null && ((budget.calls() != null && plan.callsPerRun() > budget.calls())
        || (budget.tokens() != null && plan.tokensPerRun() > budget.tokens()))) {
      throw CommandFailure.usage("the budget of " + budget.describe() + " is less than one run is expected to "
          + "spend (~" + plan.callsPerRun() + " calls, ~" + plan.tokensPerRun() + " tokens): no run would start",
          "Raise the budget, or make the runs smaller (--steps, fewer agents); --dry-run shows the estimate.");
    }
    ExperimentInput input = plan.input(name, maxConcurrentRuns, budget, policy, runRetries, from, atStep);
    if (dryRun) {
      printPlan(plan, System.out);
      return 0;
    }
    String id = options.id != null ? options.id
        : "exp-" + plan.base().scenario() + "-" + UUID.randomUUID().toString().substring(0, 8);
    if (connection == null) {
      connection = TemporalConnection.fromEnvironment(Environment.variables());
      WorkflowServiceStubs service = TemporalCheck.connect(connection);
      try {
        return start(connection, connection.client(service), input, id);
      } finally {
        service.shutdown();
      }
    }
    return start(connection, client, input, id);
  }

  private int start(TemporalConnection connection, WorkflowClient client, ExperimentInput input, String id) {
    OperatorServiceStubs operator = SearchAttributeRegistry.connect(connection.address());
    try {
      // set search attributes only where the namespace has them: an unregistered one fails the workflow task
      boolean registered = SearchAttributeRegistry.registered(operator, connection.namespace());
      input = new ExperimentInput(input.name(), input.base().withSearchAttributes(registered), input.runs(),
          input.maxConcurrentRuns(), input.budget(), input.onRunFailure(), input.runRetries(),
          input.estimatedCallsPerRun(), input.estimatedTokensPerRun(), input.whatIfOf(), input.whatIfStep(),
          input.agentsPerRun());
    } finally {
      operator.shutdownNow();
    }
    ExperimentWorkflow experiment = client.newWorkflowStub(ExperimentWorkflow.class, WorkflowOptions.newBuilder()
        .setTaskQueue(TaskQueues.AGENTS)
        .setWorkflowId(id)
        .setWorkflowIdReusePolicy(
            io.temporal.api.enums.v1.WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
        .setStaticSummary((input.name() == null ? "" : input.name() + ": ") + input.runs().size() + " runs of "
            + input.base().scenario() + (from == null ? "" : ", what-ifs of " + from + " after step " + atStep))
        .build());
    if (!noWait) {
      // before the start, as simulate: a Ctrl-C between the start and the following says the run goes on
      Interrupts.detachOnInterrupt(System.err, "sweep", "attach");
    }
    try {
      WorkflowClient.start(experiment::run, input);
    } catch (io.temporal.client.WorkflowExecutionAlreadyStarted e) {
      throw CommandFailure.usage("--id: a workflow with the id '" + id + "' exists already",
          "Choose another --id, or leave it out for a generated one ('describe " + id + "' shows the other).");
    }
    Interrupts.runStarted(id);
    System.out.println("Started experiment " + id + " on " + connection.address() + " (namespace "
        + connection.namespace() + "): " + input.runs().size() + (input.runs().size() == 1 ? " run of " : " runs of ") + input.base().scenario() + ", "
        + input.maxConcurrentRuns() + " at once" + (input.budget() == null ? "" : ", budget "
        + input.budget().describe()) + (from == null ? "" : "; what-ifs of " + from + " after step " + atStep));
    System.out.println(Links.where(connection, client.getWorkflowServiceStubs(), id));
    if (noWait) {
      System.out.println("'attach " + id + "' follows it; 'describe " + id + "' shows where it is.");
      return 0;
    }
    ExperimentCommands.followAndReport(client, id, input.base(), csv, runsCsv, System.out);
    System.out.println(Links.where(connection, client.getWorkflowServiceStubs(), id));
    return 0;
  }

  /** The --dry-run table: run, the grid's values, seed, estimated calls; then the totals and how. */
  static void printPlan(SweepPlan plan, PrintStream out) {
    List<String> header = new ArrayList<>(List.of("run"));
    header.addAll(plan.dimensions());
    header.addAll(List.of("seed", "est. calls", "est. tokens"));
    List<List<String>> rows = new ArrayList<>();
    for (int i = 0; i < plan.runs().size(); i++) {
      ExperimentRun r = plan.runs().get(i);
      List<String> row = new ArrayList<>(List.of(String.format(Locale.ROOT, "%03d", r.index())));
      for (String d : plan.dimensions()) {
        row.add(r.values().getOrDefault(d, ""));
      }
      row.add(r.seed() == null ? "(recorded)" : r.seed().toString());
      row.add(Long.toString(plan.estimates().get(i).calls()));
      row.add(Long.toString(plan.estimates().get(i).tokens()));
      rows.add(row);
    }
    int[] widths = new int[header.size()];
    for (int c = 0; c < header.size(); c++) {
      widths[c] = header.get(c).length();
      for (List<String> row : rows) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    out.println(line(header, widths));
    rows.forEach(row -> out.println(line(row, widths)));
    out.println(String.format(Locale.ROOT, "%d %s of %s, %d steps each%s. Estimate: up to ~%d LLM calls and "
            + "~%d tokens a run, ~%d calls and ~%d tokens in all (agents x steps x what an agent step of its "
            + "strategy spent in BENCHMARKS.md section 6: CoT 2 calls, ReAct 1, ReWOO 1 with a TTL of 1, 0.6 "
            + "with more; the experiment uses the mean of its completed runs once one has ended).",
        plan.runs().size(), plan.runs().size() == 1 ? "run" : "runs", plan.base().scenario(), plan.stepsRun(),
        plan.base().state() == null ? "" : " (after the fork point)", plan.callsPerRun(), plan.tokensPerRun(),
        plan.calls(), plan.tokens()));
    out.println("Dry run: nothing was started.");
  }

  private static String line(List<String> cells, int[] widths) {
    StringBuilder sb = new StringBuilder();
    for (int c = 0; c < cells.size(); c++) {
      sb.append(c == 0 ? "" : "  ").append(String.format("%-" + widths[c] + "s", cells.get(c)));
    }
    return sb.toString().stripTrailing();
  }
}
