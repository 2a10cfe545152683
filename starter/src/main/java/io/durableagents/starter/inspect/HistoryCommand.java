package io.durableagents.starter.inspect;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import io.durableagents.starter.StartChecks;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.worker.TemporalConnection;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Exports a workflow's history as Temporal's JSON: replayable with WorkflowReplayer, importable in the
 * UI. A simulation that continued as new has one history per run: {@code --all-runs} exports each,
 * {@code --run-id} one of them.
 */
@Command(name = "history",
    description = {"Export a workflow's history as Temporal's JSON (replayable with WorkflowReplayer, importable in the UI).",
        "A simulation that continued as new has a history per run: the latest by default, --run-id for one, "
            + "--all-runs for every run (one file each, into the directory given with -o)."})
public final class HistoryCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID")
  String workflowId;

  @Option(names = {"-o", "--output"},
      description = "Write to this file instead of standard output; with --all-runs, a directory.")
  Path output;

  @Option(names = "--run-id", paramLabel = "RUN_ID", description = "Export this run instead of the latest.")
  String runId;

  @Option(names = "--all-runs",
      description = "Export every run, from the first to the latest, following continue-as-new: "
          + "<dir>/<workflow-id>.run-<n>.json for n = 1, 2, ...")
  boolean allRuns;

  @Override
  public Integer call() throws Exception {
    if (allRuns && runId != null) {
      throw CommandFailure.usage("--all-runs and --run-id exclude each other", "Use one of them.");
    }
    if (allRuns && output == null) {
      throw CommandFailure.usage("--all-runs writes a file per run and needs a directory",
          "Name one with -o, e.g. -o histories/.");
    }
    if (allRuns) {
      StartChecks.outputDirectory("-o", output);
    } else {
      StartChecks.outputFile("-o", output);
    }
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      WorkflowClient client = connection.client(service);
      if (allRuns) {
        List<WorkflowExecutionHistory> runs = allRuns(client, workflowId);
        Files.createDirectories(output);
        for (int i = 0; i < runs.size(); i++) {
          Path file = output.resolve(fileName(workflowId) + ".run-" + (i + 1) + ".json");
          Files.writeString(file, runs.get(i).toJson(true));
          System.err.println("wrote " + file + " (run " + runs.get(i).getWorkflowExecution().getRunId()
              + ", " + runs.get(i).getEvents().size() + " events)");
        }
        return 0;
      }
      String json = (runId == null ? client.fetchHistory(workflowId) : client.fetchHistory(workflowId, runId))
          .toJson(true);
      if (output == null) {
        System.out.println(json);
      } else {
        Path parent = output.toAbsolutePath().getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        Files.writeString(output, json);
        System.err.println("wrote " + output);
      }
      return 0;
    } catch (RuntimeException e) {
      throw Failures.about("cannot read '" + workflowId + "'" + (runId == null ? "" : " run " + runId)
          + " on " + connection.address(), e);
    } finally {
      service.shutdown();
    }
  }

  /**
   * Every run of {@code workflowId}, the first first: from the latest run back through each run's
   * started event, which names the run it continued.
   */
  public static List<WorkflowExecutionHistory> allRuns(WorkflowClient client, String workflowId) {
    List<WorkflowExecutionHistory> runs = new ArrayList<>();
    WorkflowExecutionHistory run = client.fetchHistory(workflowId);
    while (run != null) {
      runs.add(run);
      String previous = run.getEvents().get(0).getWorkflowExecutionStartedEventAttributes()
          .getContinuedExecutionRunId();
      run = previous.isEmpty() ? null : client.fetchHistory(workflowId, previous);
    }
    Collections.reverse(runs);
    return runs;
  }

  /** A workflow id as a file name: child ids hold slashes ({@code sim/step-3/citizen-0}). */
  static String fileName(String workflowId) {
    return workflowId.replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
