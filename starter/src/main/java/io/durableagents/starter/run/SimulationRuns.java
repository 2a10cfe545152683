package io.durableagents.starter.run;

import io.temporal.api.common.v1.Payloads;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every run of a workflow id that continued as new, read without reading whole histories: each run's
 * first event (which names the run it continued) and its description.
 */
public final class SimulationRuns {
  /** One run: its description and its started event. */
  public record Run(WorkflowExecutionInfo info, HistoryEvent started) {
    public Payloads input() {
      return started.getWorkflowExecutionStartedEventAttributes().getInput();
    }
  }

  private SimulationRuns() {}

  /** The runs of {@code workflowId} from the first to the latest; at most {@code max} (the latest ones). */
  public static List<Run> of(WorkflowServiceStubs service, String namespace, String workflowId, int max) {
    List<Run> runs = new ArrayList<>();
    String runId = "";
    do {
      WorkflowExecution execution = WorkflowExecution.newBuilder().setWorkflowId(workflowId).setRunId(runId).build();
      WorkflowExecutionInfo info = service.blockingStub().describeWorkflowExecution(
          DescribeWorkflowExecutionRequest.newBuilder().setNamespace(namespace).setExecution(execution).build())
          .getWorkflowExecutionInfo();
      HistoryEvent first = service.blockingStub().getWorkflowExecutionHistory(
          GetWorkflowExecutionHistoryRequest.newBuilder().setNamespace(namespace)
              .setExecution(info.getExecution()).setMaximumPageSize(1).build())
          .getHistory().getEvents(0);
      runs.add(new Run(info, first));
      runId = first.getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId();
    } while (!runId.isEmpty() && runs.size() < max);
    Collections.reverse(runs);
    return runs;
  }
}
