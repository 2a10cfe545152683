package io.durableagents.starter.experiment;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Failures;
import io.durableagents.starter.SimulationControl;
import io.durableagents.starter.run.CountColumns;
import io.durableagents.starter.run.SimulationRuns;
import io.durableagents.workflows.experiment.ExperimentInput;
import io.durableagents.workflows.experiment.ExperimentProgress;
import io.durableagents.workflows.experiment.ExperimentResult;
import io.durableagents.workflows.experiment.ExperimentRunOutcome;
import io.durableagents.workflows.experiment.ExperimentWorkflow;
import io.durableagents.workflows.experiment.RunStatus;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.client.WorkflowClient;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What the commands that take a run's id do with an experiment's ({@code attach}, {@code describe},
 * {@code stop}, {@code pause}, {@code resume}): each looks the id up, and hands an {@link
 * ExperimentWorkflow#TYPE} here.
 */
public final class ExperimentCommands {
  private ExperimentCommands() {}

  /** Whether {@code info} is an experiment's. */
  public static boolean isExperiment(WorkflowExecutionInfo info) {
    return info.getType().getName().equals(ExperimentWorkflow.TYPE);
  }

  /**
   * Follows the experiment until it ends (a line per run, a progress line), then prints how it ended and
   * its summary, and writes the CSV files given (null: none).
   */
  public static ExperimentResult followAndReport(WorkflowClient client, String id, SimulationInput base, Path csv,
      Path runsCsv, PrintStream out) {
    CountColumns columns = CountColumns.declared(base);
    ExperimentResult result = new ExperimentFollower(client, out, columns).follow(id);
    ExperimentTable table = ExperimentTable.of(result.runs(), columns);
    out.println(ended(result));
    table.printSummary(out);
    write(table, csv, runsCsv, out);
    return result;
  }

  /** {@code Experiment exp-x ended: 8 completed, 0 stopped, 1 failed, 1 not started; 1920 LLM calls, ...}. */
  static String ended(ExperimentResult r) {
    return "Experiment " + r.experimentId() + (r.stopped() ? " was stopped" : " ended") + ": "
        + r.count(RunStatus.COMPLETED) + " completed, " + r.count(RunStatus.STOPPED) + " stopped, "
        + r.count(RunStatus.FAILED) + " failed, " + r.count(RunStatus.NOT_STARTED) + " not started of "
        + r.runs().size() + " runs; " + r.llmCalls() + " LLM calls, " + r.tokens() + " tokens"
        + (r.budget() == null ? "" : " (budget " + r.budget().describe() + ")")
        + (r.whatIfOf() == null ? "" : "; what-ifs of " + r.whatIfOf() + " after step " + r.whatIfStep());
  }

  private static void write(ExperimentTable table, Path csv, Path runsCsv, PrintStream out) {
    try {
      if (csv != null) {
        table.writeCsv(csv);
        out.println("Wrote " + csv + " (one row per run and step)");
      }
      if (runsCsv != null) {
        table.writeRunsCsv(runsCsv);
        out.println("Wrote " + runsCsv + " (one row per run)");
      }
    } catch (IOException e) {
      throw new CommandFailure(Failures.LOCAL, "cannot write " + (csv != null ? csv : runsCsv) + ": " + e.getMessage(),
          "Choose another file; 'describe' shows the experiment again.");
    }
  }

  /** The experiment's input, read from its history's first event (empty when it cannot be read). */
  public static Optional<ExperimentInput> input(WorkflowClient client, String id) {
    try {
      List<SimulationRuns.Run> runs = SimulationRuns.of(client.getWorkflowServiceStubs(),
          client.getOptions().getNamespace(), id, 1);
      return Optional.of(client.getOptions().getDataConverter().fromPayloads(0,
          Optional.of(runs.get(runs.size() - 1).input()), ExperimentInput.class, ExperimentInput.class));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** {@code attach <experiment>}: follows it as {@code sweep} does. */
  public static int attach(WorkflowClient client, String id, Path csv, Path runsCsv) {
    SimulationInput base = input(client, id).map(ExperimentInput::base).orElse(null);
    System.out.println("Following experiment " + id + (base == null ? "" : " (" + base.scenario() + ")"));
    followAndReport(client, id, base, csv, runsCsv, System.out);
    return 0;
  }

  /**
   * {@code describe <experiment>}: its settings, where it is (the progress), every run so far and the
   * summary of those that ended; a finished experiment's from its result.
   */
  public static void describe(WorkflowClient client, String id, WorkflowExecutionInfo info, PrintStream out) {
    Optional<ExperimentInput> input = input(client, id);
    SimulationInput base = input.map(ExperimentInput::base).orElse(null);
    input.ifPresent(in -> {
      if (in.name() != null) {
        out.println("Name:          " + in.name());
      }
      out.println("Scenario:      " + in.base().scenario() + ", " + in.base().steps() + " steps, "
          + in.runs().size() + " runs, " + in.maxConcurrentRuns() + " at once, on a failed run "
          + in.onRunFailure().name().toLowerCase(java.util.Locale.ROOT)
          + (in.budget() == null ? "" : ", budget " + in.budget().describe()));
      if (in.whatIfOf() != null) {
        out.println("What-ifs of:   " + in.whatIfOf() + " after step " + in.whatIfStep());
      }
      if (in.estimatedCallsPerRun() != null) {
        out.println("Estimate:      ~" + in.estimatedCallsPerRun() + " LLM calls, ~" + in.estimatedTokensPerRun()
            + " tokens a run");
      }
    });
    CountColumns columns = CountColumns.declared(base);
    List<ExperimentRunOutcome> runs;
    if (info.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED) {
      ExperimentResult r;
      try {
        r = client.newUntypedWorkflowStub(id).getResult(5, TimeUnit.SECONDS, ExperimentResult.class);
      } catch (java.util.concurrent.TimeoutException e) {
        out.println("Result:        not read within 5 s");
        return;
      }
      out.println("Result:        " + ended(r));
      runs = r.runs();
    } else if (info.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      ExperimentWorkflow experiment = client.newWorkflowStub(ExperimentWorkflow.class, id);
      record Answer(ExperimentProgress progress, List<ExperimentRunOutcome> runs) {}
      Optional<Answer> answer;
      try {
        answer = SimulationControl.boundedQuery(() -> new Answer(experiment.progress(), experiment.runs()));
      } catch (RuntimeException e) {
        out.println("Progress:      unknown (" + Failures.about("the query failed", e).getMessage() + ")");
        return;
      }
      if (answer.isEmpty() || answer.get().progress() == null) {
        out.println("Progress:      unknown: no worker answered the query within "
            + SimulationControl.QUERY_WAIT.toSeconds() + " s");
        return;
      }
      out.println("Progress:      " + ExperimentFollower.progressLine(answer.get().progress()));
      runs = answer.get().runs();
    } else {
      return; // failed, terminated ...: the status above says so
    }
    ExperimentTable table = ExperimentTable.of(runs, columns);
    out.println("Runs:");
    for (ExperimentRunOutcome o : runs) {
      out.println("  " + table.line(o) + (o.runId() == null || o.status().ended() ? "" : "  (" + o.runId() + ")"));
    }
    if (table.anyResult()) {
      table.printSummary(out);
    }
  }

  /** {@code stop <experiment>}. */
  public static int stop(ExperimentWorkflow experiment, String id) {
    experiment.stop();
    System.out.println("Stop requested: experiment " + id + " starts no new run; its running runs end after "
        + "their step in progress, and the runs not started are reported as such.");
    return 0;
  }

  /** {@code pause <experiment>}. */
  public static int pause(ExperimentWorkflow experiment, String id) {
    experiment.pause();
    System.out.println("Pause requested: experiment " + id + " starts no new run, and its running runs stop after "
        + "their step in progress ('resume " + id + "' to go on).");
    return 0;
  }

  /** {@code resume <experiment>}: refused when it is not paused, as for a simulation. */
  public static int resume(ExperimentWorkflow experiment, String id) {
    Optional<ExperimentProgress> progress;
    try {
      progress = SimulationControl.boundedQuery(experiment::progress);
    } catch (RuntimeException e) {
      progress = Optional.empty();
    }
    if (progress.isPresent() && progress.get() != null && !progress.get().paused()) {
      throw CommandFailure.usage("experiment '" + id + "' is not paused: "
          + ExperimentFollower.progressLine(progress.get()),
          "Nothing to resume; 'pause " + id + "' pauses it.");
    }
    experiment.resume();
    System.out.println(progress.isPresent() ? "Resumed experiment " + id + "."
        : "Resume sent to experiment " + id + ": whether it is paused is not known (no worker answered).");
    return 0;
  }
}
