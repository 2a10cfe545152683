package io.durableagents.starter.inspect;

import io.durableagents.starter.Environment;
import io.durableagents.starter.Links;
import io.durableagents.starter.StartChecks;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.worker.TemporalConnection;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.durableagents.workflows.SearchAttributes;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.filter.v1.WorkflowTypeFilter;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.ListClosedWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.ListOpenWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import io.temporal.common.SearchAttributeKey;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Lists simulation runs, newest first, then the experiments. */
@Command(name = "list", description = "List simulation runs, newest first, then the experiments (sweep).")
public final class ListCommand implements Callable<Integer> {
  static final String SIMULATION_TYPE = "Simulation";
  static final String EXPERIMENT_TYPE = io.durableagents.workflows.experiment.ExperimentWorkflow.TYPE;

  @Option(names = "--limit", defaultValue = "20", description = "At most this many (default: ${DEFAULT-VALUE}).")
  int limit;

  @Override
  public Integer call() {
    StartChecks.atLeastOne("--limit", limit);
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      List<WorkflowExecutionInfo> runs = list(service, connection.namespace(), Math.min(1000, limit * 20));
      List<Simulation> simulations = bySimulation(runs);
      if (simulations.size() > limit) {
        simulations = simulations.subList(0, limit);
      }
      List<WorkflowExecutionInfo> experiments = list(service, connection.namespace(), limit, EXPERIMENT_TYPE);
      if (simulations.isEmpty()) {
        System.out.println("No simulation runs on " + connection.address() + "."
            + (Links.inMemory(service) ? " This is the in-memory Temporal: it forgets every run when it "
                + "restarts (docs/embedded-temporal.md)." : ""));
        printExperiments(service, connection.namespace(), experiments);
        return 0;
      }
      System.out.printf("%-48s %-15s %-12s %-14s %-20s %-20s %s%n", "WORKFLOW ID", "STATUS", "SCENARIO",
          "STRATEGY", "STARTED", "CLOSED", "RUNS");
      for (Simulation sim : simulations) {
        WorkflowExecutionInfo latest = withCloseTime(service, connection.namespace(), sim.latest());
        System.out.printf("%-48s %-15s %-12s %-14s %-20s %-20s %d%n", latest.getExecution().getWorkflowId(),
            Describe.status(latest.getStatus()), orDash(attribute(latest, SearchAttributes.SCENARIO)),
            orDash(attribute(latest, SearchAttributes.STRATEGY)), Describe.time(sim.first().getStartTime()),
            latest.hasCloseTime() && latest.getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
                ? Describe.time(latest.getCloseTime()) : "-", sim.runs());
      }
      printExperiments(service, connection.namespace(), experiments);
      return 0;
    } finally {
      service.shutdown();
    }
  }

  /** The experiments (their runs are among the simulations above, {@code <experiment>/run-NNN}). */
  private static void printExperiments(WorkflowServiceStubs service, String namespace,
      List<WorkflowExecutionInfo> experiments) {
    if (experiments.isEmpty()) {
      return;
    }
    System.out.println();
    System.out.printf("%-48s %-15s %-20s %s%n", "EXPERIMENT", "STATUS", "STARTED", "CLOSED");
    for (WorkflowExecutionInfo found : experiments) {
      WorkflowExecutionInfo e = withCloseTime(service, namespace, found);
      System.out.printf("%-48s %-15s %-20s %s%n", e.getExecution().getWorkflowId(), Describe.status(e.getStatus()),
          Describe.time(e.getStartTime()),
          e.hasCloseTime() && e.getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
              ? Describe.time(e.getCloseTime()) : "-");
    }
  }

  private static String orDash(String value) {
    return value == null || value.isEmpty() ? "-" : value;
  }

  /**
   * A search attribute of a listed run, or null when the run has none (a server without our attributes, a
   * run started before they were set) or one that does not read as {@code key}'s type.
   */
  @SuppressWarnings("unchecked")
  public static <T> T attribute(WorkflowExecutionInfo info, SearchAttributeKey<T> key) {
    Payload p = info.getSearchAttributes().getIndexedFieldsMap().get(key.getName());
    try {
      return p == null ? null : (T) DefaultDataConverter.STANDARD_INSTANCE.fromPayload(p, key.getValueClass(),
          key.getValueReflectType());
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** A simulation: every run of one workflow id (it continued as new), the first and the latest. */
  public record Simulation(WorkflowExecutionInfo first, WorkflowExecutionInfo latest, int runs) {}

  /**
   * The runs grouped into simulations, newest first: a simulation that continued as new is one row,
   * with its first run's start, and its latest run's status and close time.
   */
  public static List<Simulation> bySimulation(List<WorkflowExecutionInfo> runs) {
    java.util.Map<String, List<WorkflowExecutionInfo>> byId = new java.util.LinkedHashMap<>();
    for (WorkflowExecutionInfo run : runs) {
      byId.computeIfAbsent(run.getExecution().getWorkflowId(), k -> new ArrayList<>()).add(run);
    }
    List<Simulation> simulations = new ArrayList<>();
    for (List<WorkflowExecutionInfo> same : byId.values()) {
      // newest first within the id too; a run that did not continue as new ends the chain
      same.sort(Comparator.comparing(ListCommand::started).reversed());
      WorkflowExecutionInfo latest = same.get(0);
      int chain = 1;
      while (chain < same.size()
          && same.get(chain).getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW) {
        chain++;
      }
      simulations.add(new Simulation(same.get(chain - 1), latest, chain));
    }
    simulations.sort(Comparator.comparing((Simulation sim) -> started(sim.latest())).reversed());
    return simulations;
  }

  /**
   * A closed run's info with its close time: a listing may leave it out (Temporal's Java test server
   * does), its description has it.
   */
  private static WorkflowExecutionInfo withCloseTime(WorkflowServiceStubs service, String namespace,
      WorkflowExecutionInfo run) {
    if (run.hasCloseTime() || run.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      return run;
    }
    try {
      return service.blockingStub().describeWorkflowExecution(
          io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest.newBuilder().setNamespace(namespace)
              .setExecution(run.getExecution()).build()).getWorkflowExecutionInfo();
    } catch (StatusRuntimeException e) {
      return run;
    }
  }

  private static Instant started(WorkflowExecutionInfo r) {
    return Instant.ofEpochSecond(r.getStartTime().getSeconds(), r.getStartTime().getNanos());
  }

  /**
   * The simulation runs, newest first. Uses the visibility query API, and the older open/closed
   * listing where the server lacks it (the embedded test server does).
   */
  /**
   * The embedded test server lists workflows by iterating its store without a lock: while runs start,
   * a listing can fail with UNKNOWN (a ConcurrentModificationException on its side). Asked again, it
   * answers; a few tries, a short pause apart.
   */
  private static <T> T retried(java.util.function.Supplier<T> listing) {
    for (int attempt = 1; ; attempt++) {
      try {
        return listing.get();
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() != Status.Code.UNKNOWN || attempt >= 5) {
          throw e;
        }
        try {
          Thread.sleep(50L * attempt);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  public static List<WorkflowExecutionInfo> list(WorkflowServiceStubs service, String namespace, int limit) {
    return list(service, namespace, limit, SIMULATION_TYPE);
  }

  /** The runs of workflow type {@code workflowType}, newest first, at most {@code limit}. */
  public static List<WorkflowExecutionInfo> list(WorkflowServiceStubs service, String namespace, int limit,
      String workflowType) {
    List<WorkflowExecutionInfo> runs = new ArrayList<>();
    try {
      runs.addAll(service.blockingStub().listWorkflowExecutions(
          ListWorkflowExecutionsRequest.newBuilder().setNamespace(namespace).setPageSize(limit)
              .setQuery("WorkflowType = '" + workflowType + "'").build()).getExecutionsList());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.UNIMPLEMENTED) {
        throw e;
      }
      WorkflowTypeFilter type = WorkflowTypeFilter.newBuilder().setName(workflowType).build();
      runs.addAll(retried(() -> service.blockingStub().listOpenWorkflowExecutions(
          ListOpenWorkflowExecutionsRequest.newBuilder().setNamespace(namespace)
              .setMaximumPageSize(limit).setTypeFilter(type).build()).getExecutionsList()));
      runs.addAll(retried(() -> service.blockingStub().listClosedWorkflowExecutions(
          ListClosedWorkflowExecutionsRequest.newBuilder().setNamespace(namespace)
              .setMaximumPageSize(limit).setTypeFilter(type).build()).getExecutionsList()));
    }
    runs.removeIf(r -> !workflowType.equals(r.getType().getName()));
    runs.sort(Comparator.comparing((WorkflowExecutionInfo r) ->
        Instant.ofEpochSecond(r.getStartTime().getSeconds(), r.getStartTime().getNanos())).reversed());
    return runs.size() > limit ? runs.subList(0, limit) : runs;
  }
}
