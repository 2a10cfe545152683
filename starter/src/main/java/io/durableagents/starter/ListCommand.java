package io.durableagents.starter;

import io.durableagents.worker.TemporalConnection;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.filter.v1.WorkflowTypeFilter;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.ListClosedWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.ListOpenWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Lists simulation runs, newest first. */
@Command(name = "list", description = "List simulation runs, newest first.")
final class ListCommand implements Callable<Integer> {
  static final String SIMULATION_TYPE = "Simulation";

  @Option(names = "--limit", defaultValue = "20", description = "At most this many (default: ${DEFAULT-VALUE}).")
  int limit;

  @Override
  public Integer call() {
    StartChecks.atLeastOne("--limit", limit);
    TemporalConnection connection = TemporalConnection.fromEnvironment();
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      List<WorkflowExecutionInfo> runs = list(service, connection.namespace(), limit);
      if (runs.isEmpty()) {
        System.out.println("No simulation runs on " + connection.address() + ".");
        return 0;
      }
      System.out.printf("%-48s %-12s %-20s %s%n", "WORKFLOW ID", "STATUS", "STARTED", "CLOSED");
      for (WorkflowExecutionInfo info : runs) {
        System.out.printf("%-48s %-12s %-20s %s%n", info.getExecution().getWorkflowId(),
            Describe.status(info.getStatus()), Describe.time(info.getStartTime()),
            info.hasCloseTime() ? Describe.time(info.getCloseTime()) : "-");
      }
      return 0;
    } finally {
      service.shutdown();
    }
  }

  /**
   * The simulation runs, newest first. Uses the visibility query API, and the older open/closed
   * listing where the server lacks it (the embedded test server does).
   */
  static List<WorkflowExecutionInfo> list(WorkflowServiceStubs service, String namespace, int limit) {
    List<WorkflowExecutionInfo> runs = new ArrayList<>();
    try {
      runs.addAll(service.blockingStub().listWorkflowExecutions(
          ListWorkflowExecutionsRequest.newBuilder().setNamespace(namespace).setPageSize(limit)
              .setQuery("WorkflowType = '" + SIMULATION_TYPE + "'").build()).getExecutionsList());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.UNIMPLEMENTED) {
        throw e;
      }
      WorkflowTypeFilter type = WorkflowTypeFilter.newBuilder().setName(SIMULATION_TYPE).build();
      runs.addAll(service.blockingStub().listOpenWorkflowExecutions(
          ListOpenWorkflowExecutionsRequest.newBuilder().setNamespace(namespace)
              .setMaximumPageSize(limit).setTypeFilter(type).build()).getExecutionsList());
      runs.addAll(service.blockingStub().listClosedWorkflowExecutions(
          ListClosedWorkflowExecutionsRequest.newBuilder().setNamespace(namespace)
              .setMaximumPageSize(limit).setTypeFilter(type).build()).getExecutionsList());
    }
    runs.removeIf(r -> !SIMULATION_TYPE.equals(r.getType().getName()));
    runs.sort(Comparator.comparing((WorkflowExecutionInfo r) ->
        Instant.ofEpochSecond(r.getStartTime().getSeconds(), r.getStartTime().getNanos())).reversed());
    return runs.size() > limit ? runs.subList(0, limit) : runs;
  }
}
