package io.durableagents.workflows.experiment;

import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationTaskTimeout;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.failure.TerminatedFailure;
import io.temporal.failure.TimeoutFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.ChildWorkflowOptions;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;

/**
 * {@link ExperimentWorkflow}: one loop that starts the next waiting run while fewer than the bound run
 * and the budget allows it, and tells the running runs when the experiment is paused, resumed or stopped.
 * A run's end (a result, or a failure) is taken by its promise's callback, in the workflow's thread.
 */
public final class ExperimentWorkflowImpl implements ExperimentWorkflow {
  private static final Logger log = Workflow.getLogger(ExperimentWorkflowImpl.class);

  private ExperimentInput input;
  private final Map<Integer, ExperimentRun> plan = new LinkedHashMap<>();
  /** Every run as it stands, in the order of the input. */
  private final Map<Integer, ExperimentRunOutcome> outcomes = new LinkedHashMap<>();
  private final Deque<Integer> waiting = new ArrayDeque<>();
  /** The run ids of the running runs. */
  private final Set<String> running = new LinkedHashSet<>();
  private boolean paused;
  /** What the running runs were last told: paused or not. */
  private boolean toldPaused;
  private boolean stopping;
  private boolean stopSent;
  /** Why no new run starts (a run failed with {@link RunFailurePolicy#STOP}); null while they may. */
  private String halted;
  /** Runs ended so far (with a result or a failure): a budget refusal waits for this to change. */
  private int endedRuns;
  private int budgetBlockedAt = -1;
  /** Calls and tokens of the runs that ended with a result, and how many those are. */
  private long spentCalls;
  private long spentTokens;
  private int runsWithResult;
  /** Attempts that failed: they spent what no result says; the budget counts an estimate for each. */
  private int failedAttempts;

  @Override
  public ExperimentResult run(ExperimentInput input) {
    this.input = input;
    try {
      input.validate();
    } catch (IllegalArgumentException e) {
      throw ApplicationFailure.newNonRetryableFailure("the experiment cannot run: " + e.getMessage(),
          ExperimentFailureTypes.INVALID_EXPERIMENT);
    }
    for (ExperimentRun run : input.runs()) {
      plan.put(run.index(), run);
      outcomes.put(run.index(), ExperimentRunOutcome.waiting(run));
      waiting.add(run.index());
    }
    while (true) {
      Workflow.await(this::somethingToDo);
      if (stopping && !stopSent) {
        stopSent = true;
        for (String runId : running) {
          signal(runId, true);
        }
        notStarted("the experiment was stopped before it started");
      } else if (paused != toldPaused && !stopping) {
        toldPaused = paused;
        for (String runId : running) {
          signal(runId, false);
        }
      } else if (mayStartNext()) {
        String refusal = budgetRefusal();
        if (refusal == null) {
          start(waiting.removeFirst());
        } else if (running.isEmpty()) {
          notStarted(refusal);
        } else {
          budgetBlockedAt = endedRuns; // wait for a running run to end: it may have spent less
        }
      } else if (running.isEmpty()) {
        notStarted(halted);
        break;
      }
    }
    return result();
  }

  private boolean mayStartNext() {
    return !waiting.isEmpty() && !stopping && halted == null && !paused
        && running.size() < input.maxConcurrentRuns() && budgetBlockedAt != endedRuns;
  }

  private boolean somethingToDo() {
    return (stopping && !stopSent) || (paused != toldPaused && !stopping) || mayStartNext()
        || (running.isEmpty() && (waiting.isEmpty() || stopping || halted != null));
  }

  private void start(int index) {
    ExperimentRun run = plan.get(index);
    ExperimentRunOutcome before = outcomes.get(index);
    int attempt = before.attempts() + 1;
    String experimentId = Workflow.getInfo().getWorkflowId();
    String runId = runId(experimentId, index, attempt);
    String what = run.describe();
    SimulationInput childInput = run.inputFrom(input.base(),
        "what-if " + index + " of " + experimentId + (what.isEmpty() ? "" : ": " + what));
    ChildWorkflowOptions.Builder options = ChildWorkflowOptions.newBuilder()
        .setWorkflowId(runId)
        .setStaticSummary("run " + index + (what.isEmpty() ? "" : ": " + what));
    if (input.agentsPerRun() != null) {
      options.setWorkflowTaskTimeout(SimulationTaskTimeout.forAgents(input.agentsPerRun()));
    }
    SimulationWorkflow child = Workflow.newChildWorkflowStub(SimulationWorkflow.class, options.build());
    Promise<SimulationResult> result = Async.function(child::run, childInput);
    Promise<WorkflowExecution> started = Workflow.getWorkflowExecution(child);
    running.add(runId);
    outcomes.put(index, before.with(runId, RunStatus.RUNNING, attempt, before.reason(), null));
    log.info("experiment run {} started as {} ({})", index, runId, what);
    result.handle((r, failure) -> {
      ended(index, runId, r, failure);
      return null;
    });
    try {
      started.get(); // signals reach it only once it started
    } catch (RuntimeException e) {
      // it could not start: its result promise failed too, and says why
    }
  }

  /** {@code <experiment>/run-007}, and {@code <experiment>/run-007-retry-1} for its second attempt. */
  public static String runId(String experimentId, int index, int attempt) {
    return experimentId + "/run-" + String.format("%03d", index) + (attempt > 1 ? "-retry-" + (attempt - 1) : "");
  }

  private void ended(int index, String runId, SimulationResult result, RuntimeException failure) {
    running.remove(runId);
    endedRuns++;
    ExperimentRunOutcome before = outcomes.get(index);
    if (failure == null) {
      ExperimentRunResult rows = ExperimentRunResult.of(result, input.base().state());
      spentCalls += rows.llmCalls();
      spentTokens += rows.tokens();
      runsWithResult++;
      outcomes.put(index, before.with(runId, result.stopped() ? RunStatus.STOPPED : RunStatus.COMPLETED,
          before.attempts(), null, rows));
      log.info("experiment run {} ({}) ended: {} steps", index, runId, rows.steps());
      return;
    }
    failedAttempts++;
    String reason = reason(failure);
    boolean retry = input.onRunFailure() == RunFailurePolicy.RETRY && !stopping
        && before.attempts() <= input.runRetries();
    log.warn("experiment run {} ({}) failed: {}{}", index, runId, reason, retry ? "; it starts again" : "");
    if (retry) {
      outcomes.put(index, before.with(runId, RunStatus.WAITING, before.attempts(),
          "attempt " + before.attempts() + " failed: " + reason, null));
      waiting.addFirst(index);
      return;
    }
    outcomes.put(index, before.with(runId, RunStatus.FAILED, before.attempts(),
        before.attempts() > 1 ? reason + " (attempt " + before.attempts() + ")" : reason, null));
    if (input.onRunFailure() == RunFailurePolicy.STOP && halted == null) {
      halted = "not started: run " + index + " failed, and the experiment stops on a failed run (--on-run-failure stop)";
    }
  }

  /** One line: the failure's type and message, from the innermost cause that says something. */
  static String reason(Throwable failure) {
    Throwable cause = failure;
    while (cause instanceof ChildWorkflowFailure && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof ApplicationFailure app) {
      return app.getType() + ": " + app.getOriginalMessage();
    }
    if (cause instanceof TerminatedFailure) {
      return "Terminated: its simulation was terminated";
    }
    if (cause instanceof CanceledFailure) {
      return "Canceled: its simulation was cancelled";
    }
    if (cause instanceof TimeoutFailure) {
      return "TimedOut: its simulation timed out";
    }
    String message = cause.getMessage();
    return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  /** Why the next run may not start within the budget, or null when it may. */
  private String budgetRefusal() {
    ExperimentBudget budget = input.budget();
    if (budget == null) {
      return null;
    }
    long callsPerRun = runsWithResult > 0 ? ceilDiv(spentCalls, runsWithResult)
        : orZero(input.estimatedCallsPerRun());
    long tokensPerRun = runsWithResult > 0 ? ceilDiv(spentTokens, runsWithResult)
        : orZero(input.estimatedTokensPerRun());
    long others = running.size() + failedAttempts;
    if (budget.calls() != null && spentCalls + (others + 1) * callsPerRun > budget.calls()) {
      return refusal(budget.calls() + " calls", spentCalls, callsPerRun, "calls");
    }
    if (budget.tokens() != null && spentTokens + (others + 1) * tokensPerRun > budget.tokens()) {
      return refusal(budget.tokens() + " tokens", spentTokens, tokensPerRun, "tokens");
    }
    return null;
  }

  private String refusal(String budget, long spent, long perRun, String unit) {
    return "not started: the budget of " + budget + " would be passed (" + spent + " " + unit
        + " spent by the runs that ended, " + running.size() + " running, " + failedAttempts
        + " failed attempts, a run ~" + perRun + " " + unit + ")";
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }

  /** Every waiting run is one that will not start, for {@code why}. */
  private void notStarted(String why) {
    while (!waiting.isEmpty()) {
      int index = waiting.removeFirst();
      ExperimentRunOutcome before = outcomes.get(index);
      String reason = before.reason() == null ? why : why + "; " + before.reason();
      outcomes.put(index, before.with(before.runId(), RunStatus.NOT_STARTED, before.attempts(), reason, null));
    }
  }

  /** Tells a running run to stop, or to pause or resume as the experiment is. */
  private void signal(String runId, boolean stop) {
    SimulationWorkflow run = Workflow.newExternalWorkflowStub(SimulationWorkflow.class, runId);
    Promise<Void> sent = stop ? Async.procedure(run::stop)
        : paused ? Async.procedure(run::pause) : Async.procedure(run::resume);
    // a run that ended meanwhile cannot take a signal: its end is taken by its own promise
    sent.handle((v, failure) -> null);
  }

  private ExperimentResult result() {
    return new ExperimentResult(Workflow.getInfo().getWorkflowId(), input.name(), input.base().scenario(),
        input.base().steps(), table(), spentCalls, spentTokens, stopping, input.budget(), input.whatIfOf(),
        input.whatIfStep(), tooManyRows());
  }

  /** Whether the runs' per-step rows are more than {@code maxRows}. */
  static boolean tooManyRows(Collection<ExperimentRunOutcome> outcomes, int maxRows) {
    long rows = 0;
    for (ExperimentRunOutcome outcome : outcomes) {
      rows += outcome.result() == null ? 0 : outcome.result().perStep().size();
    }
    return rows > maxRows;
  }

  private boolean tooManyRows() {
    return tooManyRows(outcomes.values(), ExperimentInput.MAX_TABLE_ROWS);
  }

  /** Every run, with its rows unless they are more than {@code maxRows} in all. */
  static List<ExperimentRunOutcome> table(Collection<ExperimentRunOutcome> outcomes, int maxRows) {
    boolean omit = tooManyRows(outcomes, maxRows);
    List<ExperimentRunOutcome> all = new ArrayList<>();
    for (ExperimentRunOutcome outcome : outcomes) {
      all.add(omit ? outcome.withoutRows() : outcome);
    }
    return all;
  }

  private List<ExperimentRunOutcome> table() {
    return table(outcomes.values(), ExperimentInput.MAX_TABLE_ROWS);
  }

  @Override
  public ExperimentProgress progress() {
    if (input == null) {
      return null;
    }
    Map<RunStatus, Integer> byStatus = new EnumMap<>(RunStatus.class);
    for (RunStatus status : RunStatus.values()) {
      byStatus.put(status, 0);
    }
    for (ExperimentRunOutcome outcome : outcomes.values()) {
      byStatus.merge(outcome.status(), 1, Integer::sum);
    }
    return new ExperimentProgress(input.name(), input.base() == null ? null : input.base().scenario(),
        input.base() == null ? 0 : input.base().steps(), outcomes.size(), byStatus, spentCalls, spentTokens,
        input.budget(), input.maxConcurrentRuns(), paused, stopping, input.whatIfOf(), input.whatIfStep());
  }

  @Override
  public List<ExperimentRunOutcome> runs() {
    return input == null ? List.of() : table();
  }

  @Override
  public void pause() {
    paused = true;
  }

  @Override
  public void resume() {
    paused = false;
  }

  @Override
  public void stop() {
    stopping = true;
  }
}
