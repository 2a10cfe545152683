package io.durableagents.starter.view;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Failures;
import io.durableagents.starter.inspect.Describe;
import io.durableagents.workflows.experiment.ExperimentProgress;
import io.durableagents.workflows.experiment.ExperimentResult;
import io.durableagents.workflows.experiment.ExperimentRunOutcome;
import io.durableagents.workflows.experiment.ExperimentWorkflow;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.api.common.v1.WorkflowExecution;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the view's experiment page reads: the experiments on the Temporal ({@code GET /api/experiments}),
 * and one experiment with its runs ({@code GET /api/experiments/{id}}): from its queries while it runs,
 * from its result once it completed.
 */
final class ExperimentView {
  private final WorkflowClient client;
  private final ObjectMapper json;

  ExperimentView(WorkflowClient client, ObjectMapper json) {
    this.client = client;
    this.json = json;
  }

  /** The newest experiments, at most {@code limit}. */
  ArrayNode list(int limit) {
    ArrayNode rows = json.createArrayNode();
    List<WorkflowExecutionInfo> found = io.durableagents.starter.inspect.ListCommand.list(
        client.getWorkflowServiceStubs(), client.getOptions().getNamespace(), limit, ExperimentWorkflow.TYPE);
    for (WorkflowExecutionInfo info : found) {
      ObjectNode row = rows.addObject();
      row.put("id", info.getExecution().getWorkflowId());
      row.put("status", Describe.status(info.getStatus()));
      row.put("started", Describe.time(info.getStartTime()));
      if (info.hasCloseTime() && info.getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
        row.put("closed", Describe.time(info.getCloseTime()));
      }
    }
    return rows;
  }

  /** One experiment: where it is, and every run with its values, status and outcome. */
  ObjectNode experiment(String id) {
    WorkflowExecutionInfo info;
    try {
      info = client.getWorkflowServiceStubs().blockingStub().describeWorkflowExecution(
          DescribeWorkflowExecutionRequest.newBuilder().setNamespace(client.getOptions().getNamespace())
              .setExecution(WorkflowExecution.newBuilder().setWorkflowId(id)).build()).getWorkflowExecutionInfo();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        throw new CommandFailure(Failures.NOT_FOUND, "no experiment '" + id + "' on this Temporal",
            "The list at / shows the experiments.");
      }
      throw e;
    }
    if (!ExperimentWorkflow.TYPE.equals(info.getType().getName())) {
      throw new CommandFailure(Failures.NOT_FOUND, "'" + id + "' is a " + info.getType().getName()
          + ", not an experiment", "Open it at /simulation?id=" + id + ".");
    }
    ObjectNode body = json.createObjectNode().put("id", id).put("status", Describe.status(info.getStatus()));
    List<ExperimentRunOutcome> runs;
    if (info.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED) {
      ExperimentResult result = client.newUntypedWorkflowStub(id).getResult(ExperimentResult.class);
      runs = result.runs();
      body.put("name", result.name()).put("scenario", result.scenario()).put("steps", result.steps())
          .put("llmCalls", result.llmCalls()).put("tokens", result.tokens()).put("stopped", result.stopped());
      if (result.budget() != null) {
        body.put("budget", result.budget().describe());
      }
      whatIf(body, result.whatIfOf(), result.whatIfStep());
    } else {
      ExperimentWorkflow stub = client.newWorkflowStub(ExperimentWorkflow.class, id);
      ExperimentProgress progress = stub.progress();
      runs = stub.runs();
      body.put("name", progress.name()).put("scenario", progress.scenario()).put("steps", progress.steps())
          .put("llmCalls", progress.llmCalls()).put("tokens", progress.tokens()).put("paused", progress.paused())
          .put("stopping", progress.stopping()).put("maxConcurrentRuns", progress.maxConcurrentRuns());
      if (progress.budget() != null) {
        body.put("budget", progress.budget().describe());
      }
      whatIf(body, progress.whatIfOf(), progress.whatIfStep());
    }
    Set<String> dimensions = new LinkedHashSet<>();
    Set<String> counts = new LinkedHashSet<>();
    ArrayNode rows = body.putArray("runs");
    for (ExperimentRunOutcome run : runs) {
      dimensions.addAll(run.values().keySet());
      ObjectNode row = rows.addObject().put("index", run.index()).put("runId", run.runId())
          .put("status", run.status().name()).put("attempts", run.attempts()).put("reason", run.reason());
      row.set("values", json.valueToTree(run.values()));
      if (run.seed() != null) {
        row.put("seed", run.seed());
      }
      if (run.result() != null) {
        counts.addAll(run.result().finalCounts().keySet());
        row.set("finalCounts", json.valueToTree(run.result().finalCounts()));
        row.put("steps", run.result().steps()).put("llmCalls", run.result().llmCalls())
            .put("tokens", run.result().tokens());
      }
    }
    body.set("dimensions", json.valueToTree(dimensions));
    body.set("counts", json.valueToTree(counts));
    return body;
  }

  private static void whatIf(ObjectNode body, String of, Integer step) {
    if (of != null) {
      body.put("whatIfOf", of).put("whatIfStep", step);
    }
  }
}
