package io.durableagents.starter;

import io.durableagents.worker.TemporalConnection;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Exports a workflow's history as Temporal's JSON: replayable with WorkflowReplayer, importable in the UI. */
@Command(name = "history",
    description = "Export a workflow's history as Temporal's JSON (replayable with WorkflowReplayer, importable in the UI).")
final class HistoryCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID")
  String workflowId;

  @Option(names = {"-o", "--output"}, description = "Write to this file instead of standard output.")
  Path output;

  @Override
  public Integer call() throws Exception {
    StartChecks.outputFile("-o", output);
    TemporalConnection connection = TemporalConnection.fromEnvironment();
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      String json = connection.client(service).fetchHistory(workflowId).toJson(true);
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
      throw Failures.about("cannot read '" + workflowId + "' on " + connection.address(), e);
    } finally {
      service.shutdown();
    }
  }
}
