package io.durableagents.starter.run;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Failures;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.starter.OutputOptions;
import io.durableagents.starter.SimulationControl;
import io.durableagents.starter.StartChecks;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationProgress;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationTaskTimeout;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.StepCounts;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** Starts a simulation and follows it: a line per completed step, then the result. */
public final class SimulationRunner {
  private final WorkflowClient client;
  private final PrintStream out;
  /** The order of the run's variables in every view; read from the run when it was not started here. */
  private CountColumns columns;

  public SimulationRunner(WorkflowClient client, PrintStream out) {
    this.client = client;
    this.out = out;
  }

  /** A workflow id for a new run: {@code sim-<scenario>-<seed>-<random>}. */
  static String newId(SimulationInput input) {
    return "sim-" + input.scenario() + "-" + input.seed() + "-"
        + UUID.randomUUID().toString().substring(0, 8);
  }

  /** Starts the run and returns its workflow id; the id of a finished run is refused. */
  String start(SimulationInput input, String workflowId) {
    return start(input, workflowId, null, false);
  }

  /**
   * Starts a run that goes on from a recorded state ({@code origin}, null for none). The id of a finished
   * run is refused (a {@link CommandFailure} naming it) unless {@code replaceFinished}: Temporal would
   * start the new run in its place, and every command reads an id's latest run.
   */
  public String start(SimulationInput input, String workflowId, Origin origin, boolean replaceFinished) {
    WorkflowOptions.Builder options = WorkflowOptions.newBuilder()
        .setTaskQueue(TaskQueues.SIMULATIONS)
        .setWorkflowId(workflowId)
        .setWorkflowIdReusePolicy(replaceFinished
            ? io.temporal.api.enums.v1.WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE
            : io.temporal.api.enums.v1.WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
        // short enough that a task a killed worker was running moves on within seconds, long enough
        // for the simulation's largest task (SimulationTaskTimeout)
        .setWorkflowTaskTimeout(SimulationTaskTimeout.forAgents(agentCount(input)))
        .setStaticSummary(input.scenario() + ", " + input.steps() + " steps, seed " + input.seed()
            + ", " + strategies(input) + " with "
            + input.agentOptions().model()
            + (origin == null ? "" : ", " + origin.kind() + " of " + origin.simulationId() + " after step "
                + origin.step()));
    if (origin != null) {
      options.setMemo(java.util.Map.of(Origin.MEMO_KEY, origin.memo()));
      if (input.searchAttributes()) {
        options.setTypedSearchAttributes(io.temporal.common.SearchAttributes.newBuilder()
            .set(io.durableagents.workflows.SearchAttributes.FORKED_FROM, origin.simulationId()).build());
      }
    }
    columns = CountColumns.declared(input);
    SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class, options.build());
    WorkflowExecution execution;
    try {
      execution = WorkflowClient.start(sim::run, input);
    } catch (io.temporal.client.WorkflowExecutionAlreadyStarted e) {
      throw finishedRunHasTheId(workflowId, e);
    }
    return execution.getWorkflowId();
  }

  /** The refusal to start under the id of a finished run, or {@code e} as it came for a running one. */
  private RuntimeException finishedRunHasTheId(String workflowId, RuntimeException e) {
    java.util.Optional<io.temporal.api.workflow.v1.WorkflowExecutionInfo> closed = SimulationControl.closed(
        client.getWorkflowServiceStubs(), client.getOptions().getNamespace(), workflowId);
    if (closed.isEmpty()) {
      return e; // running: Failures offers 'attach'
    }
    return new CommandFailure(Failures.USAGE, "a finished run has the id '" + workflowId + "' ("
        + SimulationControl.closeStatus(closed.get()) + "); a new run would replace it",
        "Choose another --id (or leave it out for a generated one), or give --replace-finished to start a new run "
            + "under this id anyway ('describe " + workflowId + "' shows the finished one).");
  }

  /** The agents of the world the run's parameters make (a run that goes on from a state has as many). */
  private static int agentCount(SimulationInput input) {
    try {
      return StartChecks.agentCount(input, LocalCatalog.get());
    } catch (RuntimeException e) {
      return 0; // the worker names what is wrong with the input; the timeout is then the smallest
    }
  }

  /** The strategies of a run: {@code rewoo}, or per role {@code citizen=rewoo, cop=cot}. */
  public static String strategies(SimulationInput input) {
    if (input.roleOptions().isEmpty()) {
      return input.agentOptions().strategy().label();
    }
    java.util.TreeMap<String, String> byRole = new java.util.TreeMap<>();
    input.roleOptions().forEach((role, o) -> byRole.put(role, o.strategy().label()));
    StringBuilder sb = new StringBuilder();
    byRole.forEach((role, s) -> sb.append(sb.length() == 0 ? "" : ", ").append(role).append('=').append(s));
    return sb.toString();
  }

  /**
   * Follows a run until it ends, with a live progress bar ({@code bar}) or a line per step; returns
   * its result. Works as well for a run started earlier, and across its continue-as-new runs (queries
   * and the result go to the latest run of the id).
   */
  SimulationResult follow(String workflowId, boolean bar) throws InterruptedException {
    if (columns == null) {
      columns = CountColumns.forRun(client, workflowId);
    }
    return bar ? followWithBar(workflowId) : follow(workflowId);
  }

  /** Says when the run's workflow task keeps failing (checked every 2 s while the run is followed). */
  private FailingWorkflowTask.Watch stuckWatch(String workflowId) {
    return new FailingWorkflowTask.Watch(client.getWorkflowServiceStubs(), client.getOptions().getNamespace(),
        workflowId);
  }

  /** Says when no worker polls the run's task queues, and when one does again. */
  private WorkerWatch workerWatch(String workflowId) {
    return WorkerWatch.forRun(client.getWorkflowServiceStubs(), client.getOptions().getNamespace(),
        client.getWorkflowServiceStubs().getOptions().getTarget(), workflowId);
  }

  /** Follows a run with a progress bar: steps done, agents, LLM calls and tokens so far. */
  SimulationResult followWithBar(String workflowId) throws InterruptedException {
    ServerWatch watch = new ServerWatch(client.getWorkflowServiceStubs(), workflowId, "attach");
    FailingWorkflowTask.Watch stuck = stuckWatch(workflowId);
    WorkerWatch workers = workerWatch(workflowId);
    String stuckLine = null;
    ResultWatch result = new ResultWatch(workflowId);
    SimulationWorkflow typed = client.newWorkflowStub(SimulationWorkflow.class, workflowId);
    try (ProgressBar bar = new ProgressBarBuilder()
        .setTaskName(shortName(workflowId))
        .setInitialMax(-1)
        .setStyle(ProgressBarStyle.ASCII)
        .setUpdateIntervalMillis(250)
        .setConsumer(new ConsoleProgressBarConsumer(out))
        .hideEta()
        .build()) {
      while (true) {
        try {
          SimulationResult done = result.get(500, TimeUnit.MILLISECONDS);
          workers.tookOn().ifPresent(line -> {
            out.println();
            out.println(line);
          });
          bar.maxHint(done.steps());
          bar.stepTo(done.steps());
          bar.setExtraMessage(extra(done.agentSteps(), -1, done.llmCalls(), done.usage().total(),
              done.stopped() ? "stopped" : "done"));
          bar.refresh();
          return done;
        } catch (TimeoutException e) {
          if (!watch.answers()) {
            bar.setExtraMessage("Temporal at " + client.getWorkflowServiceStubs().getOptions().getTarget()
                + " does not answer");
            continue;
          }
          java.util.Optional<String> change = stuck.check(System.nanoTime() / 1_000_000);
          if (change.isPresent()) {
            stuckLine = change.get().startsWith("Stuck: ") ? change.get().lines().findFirst().orElse("") : null;
            out.println();
            out.println(change.get());
            out.flush();
          }
          if (stuckLine != null) {
            bar.setExtraMessage(stuckLine);
            continue;
          }
          java.util.Optional<String> workerChange = workers.check(System.nanoTime() / 1_000_000);
          if (workerChange.isPresent()) {
            out.println();
            out.println(workerChange.get());
            out.flush();
          }
          if (workers.seesNoWorker()) {
            bar.setExtraMessage("waiting for a worker");
            continue; // a query would wait for a worker in vain
          }
          try {
            SimulationProgress p = watch.bounded(typed::progress);
            result.seen(p);
            workers.tookOn().ifPresent(line -> {
              out.println();
              out.println(line);
            });
            bar.maxHint(p.totalSteps());
            bar.stepTo(p.step());
            bar.setExtraMessage(extra(-1, p.agents(), p.llmCalls(), p.usage().total(),
                p.stopRequested() ? "stopping" : p.paused() ? "paused" : null));
          } catch (RuntimeException queryFailed) {
            watch.checkNotFound(queryFailed);
            bar.setExtraMessage("waiting for a worker");
          }
        } catch (java.util.concurrent.ExecutionException e) {
          Throwable cause = e.getCause();
          watch.checkNotFound(cause);
          if (ServerWatch.unanswered(cause)) {
            if (!watch.answers()) {
              bar.setExtraMessage("Temporal at " + client.getWorkflowServiceStubs().getOptions().getTarget()
                  + " does not answer");
              Thread.sleep(500);
            }
            result.restart();
            continue;
          }
          throw cause instanceof RuntimeException ? (RuntimeException) cause : new RuntimeException(cause);
        }
      }
    }
  }

  /**
   * The result of a run, waited for: a long poll on the workflow id, started again whenever the run
   * has continued as new or finished since (a poll that began in an earlier run is not trusted to
   * follow the chain of runs).
   */
  private final class ResultWatch {
    private final String workflowId;
    private CompletableFuture<SimulationResult> future;
    private int runs = -1;
    private boolean done;

    ResultWatch(String workflowId) {
      this.workflowId = workflowId;
      this.future = poll();
    }

    private CompletableFuture<SimulationResult> poll() {
      WorkflowStub stub = client.newUntypedWorkflowStub(workflowId);
      return stub.getResultAsync(SimulationResult.class);
    }

    SimulationResult get(long timeout, TimeUnit unit)
        throws InterruptedException, java.util.concurrent.ExecutionException, TimeoutException {
      return future.get(timeout, unit);
    }

    /** Polls again, after a poll that failed for want of an answer from the server. */
    void restart() {
      future.cancel(true);
      future = poll();
    }

    /** Polls again when the run has moved to a new workflow run or finished since the poll began. */
    void seen(SimulationProgress p) {
      if ((runs >= 0 && p.runs() != runs) || (p.done() && !done)) {
        future.cancel(true);
        future = poll();
      }
      runs = p.runs();
      done = p.done();
    }
  }

  private static String extra(long agentSteps, int agents, long llmCalls, long tokens, String state) {
    StringBuilder sb = new StringBuilder();
    if (agents >= 0) {
      sb.append(agents).append(" agents, ");
    } else {
      sb.append(agentSteps).append(" agent steps, ");
    }
    sb.append(llmCalls).append(" LLM calls, ").append(compact(tokens)).append(" tokens");
    if (state != null) {
      sb.append(" (").append(state).append(')');
    }
    return sb.toString();
  }

  /** 452734 -> 452.7k, 1081700 -> 1.1M. */
  static String compact(long n) {
    if (n < 10_000) {
      return Long.toString(n);
    }
    if (n < 1_000_000) {
      return String.format(java.util.Locale.ROOT, "%.1fk", n / 1000.0);
    }
    return String.format(java.util.Locale.ROOT, "%.1fM", n / 1_000_000.0);
  }

  private static String shortName(String workflowId) {
    return workflowId.length() <= 28 ? workflowId : workflowId.substring(0, 27) + "~";
  }

  /** Follows a run until it ends, printing each step's counts; returns its result. */
  SimulationResult follow(String workflowId) throws InterruptedException {
    if (columns == null) {
      columns = CountColumns.forRun(client, workflowId);
    }
    ServerWatch watch = new ServerWatch(client.getWorkflowServiceStubs(), workflowId, "attach");
    FailingWorkflowTask.Watch stuck = stuckWatch(workflowId);
    WorkerWatch workers = workerWatch(workflowId);
    ResultWatch result = new ResultWatch(workflowId);
    SimulationWorkflow typed = client.newWorkflowStub(SimulationWorkflow.class, workflowId);
    int printed = 0;
    int totalSteps = -1;
    boolean header = false;
    while (true) {
      SimulationResult done = null;
      List<StepCounts> steps;
      try {
        done = result.get(500, TimeUnit.MILLISECONDS);
        steps = done.perStep();
      } catch (TimeoutException e) {
        if (!watch.answers()) {
          continue; // said after ServerWatch.GRACE_MILLIS
        }
        java.util.Optional<String> change = stuck.check(System.nanoTime() / 1_000_000);
        if (change.isPresent()) {
          out.println(change.get());
          out.flush();
        }
        java.util.Optional<String> workerChange = workers.check(System.nanoTime() / 1_000_000);
        if (workerChange.isPresent()) {
          out.println(workerChange.get());
          out.flush();
        }
        if (workers.seesNoWorker()) {
          continue; // a query would wait for a worker in vain
        }
        try {
          SimulationProgress p = watch.bounded(typed::progress);
          result.seen(p);
          totalSteps = p.totalSteps();
          final int after = printed;
          steps = watch.bounded(() -> typed.stepsAfter(after));
        } catch (RuntimeException queryFailed) {
          watch.checkNotFound(queryFailed);
          continue; // no worker has answered yet
        }
      } catch (java.util.concurrent.ExecutionException e) {
        Throwable cause = e.getCause();
        watch.checkNotFound(cause);
        if (ServerWatch.unanswered(cause)) {
          if (!watch.answers()) {
            Thread.sleep(500); // ServerWatch says when it is lost
          }
          result.restart();
          continue;
        }
        throw cause instanceof RuntimeException ? (RuntimeException) cause : new RuntimeException(cause);
      }
      int total = done != null ? done.steps() : totalSteps;
      // an answer or the result: a worker is there
      workers.tookOn().ifPresent(line -> {
        out.println(line);
        out.flush();
      });
      for (StepCounts s : steps) {
        if (s.step() <= printed) {
          continue;
        }
        if (columns.add(s.counts()) || !header) {
          printHeader(); // again when a variable appears that the columns so far lack
          header = true;
        }
        printStep(s, total);
        printed = s.step();
      }
      if (done != null) {
        return done;
      }
    }
  }

  private void printHeader() {
    StringBuilder sb = new StringBuilder(String.format("%-9s", "step"));
    for (String key : columns.names()) {
      sb.append(String.format("%" + columnWidth(key) + "s", key));
    }
    sb.append(String.format("%12s%12s", "llm calls", "tokens"));
    out.println(sb);
  }

  /** A count's column: 8 wide, or its name's length + 2 for longer names ({@code sales_seller-0}). */
  private static int columnWidth(String name) {
    return Math.max(8, name.length() + 2);
  }

  private void printStep(StepCounts s, int total) {
    StringBuilder sb = new StringBuilder(String.format("%-9s", total > 0 ? s.step() + "/" + total : s.step()));
    // each value under its own column, whatever order the step's map has
    for (String name : columns.names()) {
      Number value = s.counts().get(name);
      sb.append(String.format("%" + columnWidth(name) + "s", value == null ? "" : Numbers.format(value)));
    }
    if (s.llmCalls() != null) {
      sb.append(String.format("%12d%12d", s.llmCalls(), s.tokens()));
    }
    out.println(sb);
    out.flush();
  }

  /**
   * Writes the CSV and the chart where {@code output} asks for them, and says where they are.
   *
   * @throws java.io.UncheckedIOException when a file cannot be written
   */
  void writeFiles(SimulationResult r, OutputOptions output) {
    try {
      List<String> names = CountColumns.of(columns(), r.perStep()).names();
      if (output.csv != null) {
        ResultFiles.writeCsv(r, output.csv, names);
        out.println("Per-step variables (CSV): " + output.csv);
      }
      if (output.chart != null) {
        ResultFiles.writeChart(r, output.chart, names);
        out.println("Chart (PNG): " + output.chart);
      }
    } catch (IOException e) {
      // the run's summary is printed already; the command fails with the file's error (exit code 5)
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The run's column order: the declared one when known, else the order seen so far. */
  private CountColumns columns() {
    if (columns == null) {
      columns = CountColumns.none();
    }
    return columns;
  }

  /** Prints a finished run's summary. */
  void printSummary(SimulationResult r) {
    RunSummary.print(out, columns(), r);
  }
}
