package io.durableagents.starter.inspect;

import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import io.durableagents.starter.Links;
import io.durableagents.starter.SimulationControl;
import io.durableagents.starter.agent.AgentCommand;
import io.durableagents.starter.experiment.ExperimentCommands;
import io.durableagents.starter.run.CountColumns;
import io.durableagents.starter.run.FailingWorkflowTask;
import io.durableagents.starter.run.Origin;
import io.durableagents.starter.run.ServerWatch;
import io.durableagents.starter.run.SimulationRunner;
import io.durableagents.starter.run.SimulationRuns;
import io.durableagents.starter.run.WorkerWatch;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.simulation.Intervention;
import io.durableagents.workflows.simulation.PlanCounts;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationProgress;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.StepCounts;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Describes one simulation run: status, progress or result, counts per step. */
@Command(name = "describe", description = "Describe a simulation run: status, progress or result; an "
    + "experiment ('sweep'): its progress, its runs so far and their summary.")
public final class DescribeCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WORKFLOW_ID", description = "The run's workflow id.")
  String workflowId;

  @Override
  public Integer call() throws Exception {
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    WorkflowServiceStubs service = ServerWatch.connect(connection, workflowId);
    try {
      WorkflowExecutionInfo info;
      try {
        info = service.blockingStub().describeWorkflowExecution(
            DescribeWorkflowExecutionRequest.newBuilder().setNamespace(connection.namespace())
                .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId)).build())
            .getWorkflowExecutionInfo();
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == io.grpc.Status.Code.NOT_FOUND) {
          throw new ServerWatch(service, workflowId, "describe").notFound();
        }
        throw Failures.about("'" + workflowId + "' on " + connection.address(), e);
      }
      boolean simulation = info.getType().getName().equals("Simulation");
      List<SimulationRuns.Run> runs = simulation
          ? SimulationRuns.of(service, connection.namespace(), workflowId, 10_000) : List.of();
      System.out.println("Workflow id:   " + workflowId);
      System.out.println("Type:          " + info.getType().getName());
      System.out.println("Status:        " + Describe.status(info.getStatus()));
      if (runs.size() > 1) {
        long events = runs.stream().mapToLong(r -> r.info().getHistoryLength()).sum();
        System.out.println("Started:       " + Describe.time(runs.get(0).info().getStartTime())
            + " (this run, " + runs.size() + " of " + runs.size() + ": " + Describe.time(info.getStartTime()) + ")");
        if (info.hasCloseTime() && info.getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
          System.out.println("Closed:        " + Describe.time(info.getCloseTime()));
        }
        System.out.println("History:       " + events + " events in " + runs.size() + " runs (continued as new; "
            + info.getHistoryLength() + " in this one)");
      } else {
        System.out.println("Started:       " + Describe.time(info.getStartTime()));
        if (info.hasCloseTime() && info.getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
          System.out.println("Closed:        " + Describe.time(info.getCloseTime()));
        }
        System.out.println("History:       " + info.getHistoryLength() + " events");
      }
      if (ExperimentCommands.isExperiment(info)) {
        ExperimentCommands.describe(connection.client(service), workflowId, info, System.out);
        System.out.println(Links.where(connection, service, workflowId));
        return 0;
      }
      CountColumns columns = CountColumns.none();
      if (!runs.isEmpty()) {
        SimulationInput input = simulationInput(connection, service, runs.get(runs.size() - 1));
        columns = CountColumns.declared(input);
        if (input != null) {
          System.out.println("Strategies:    " + SimulationRunner.strategies(input) + ", model "
              + input.agentOptions().model() + (input.roleOptions().values().stream()
                  .anyMatch(o -> !o.model().equals(input.agentOptions().model()))
                  ? " (per role: " + models(input) + ")" : ""));
          String maxOutput = maxOutputTokens(input);
          if (maxOutput != null) {
            System.out.println("Max output:    " + maxOutput);
          }
        }
      }
      if (!runs.isEmpty()) {
        io.temporal.api.common.v1.Memo memo = runs.get(0).info().getMemo();
        if (memo.containsFields(Origin.MEMO_KEY)) {
          try {
            Map<?, ?> origin = io.temporal.common.converter.DefaultDataConverter.STANDARD_INSTANCE
                .fromPayload(memo.getFieldsOrThrow(Origin.MEMO_KEY), Map.class, Map.class);
            System.out.println("Forked from:   " + Origin.describe(origin));
          } catch (RuntimeException e) {
            System.out.println("Forked from:   (unreadable memo: " + e.getMessage() + ")");
          }
        }
      }
      if (info.hasSearchAttributes() && info.getSearchAttributes().getIndexedFieldsCount() > 0) {
        StringBuilder sa = new StringBuilder();
        info.getSearchAttributes().getIndexedFieldsMap().forEach((k, v) -> sa.append(sa.length() == 0 ? "" : ", ")
            .append(k).append('=').append(v.getData().toStringUtf8()));
        System.out.println("Search attrs:  " + sa);
      }
      if (info.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
        try {
          FailingWorkflowTask.of(service, connection.namespace(), workflowId).ifPresent(f -> {
            System.out.println("Stuck:         " + f.describe());
            System.out.println("               " + f.advice(Links.inMemory(service),
                FailingWorkflowTask.lastCheckpoint(workflowId)));
          });
        } catch (RuntimeException e) {
          // the description above was read; the progress below says whether a worker answers
        }
      }
      WorkflowClient client = connection.client(service);
      boolean completed = info.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED;
      if (completed && info.getType().getName().equals("AgentTask")) {
        AgentCommand.print(client.newUntypedWorkflowStub(workflowId)
            .getResult(5, TimeUnit.SECONDS, AgentTaskResult.class), System.out);
      } else if (!simulation) {
        // agent steps and other workflows: 'show' reads them better
      } else if (completed) {
        SimulationResult r = client.newUntypedWorkflowStub(workflowId)
            .getResult(5, TimeUnit.SECONDS, SimulationResult.class);
        System.out.println("Scenario:      " + r.scenario() + ", seed " + r.seed() + ", " + r.steps() + " steps");
        System.out.println("Agent steps:   " + r.agentSteps() + ", LLM calls " + r.llmCalls()
            + ", tool calls " + r.toolCalls());
        System.out.println("Tokens:        " + r.usage().input() + " in, " + r.usage().output() + " out");
        PlanCounts pc = r.planCounts();
        if (pc.plansMade() + pc.planStepsReused() + pc.replans() + pc.forcedFinishes() > 0) {
          System.out.println("Plans:         " + pc.plansMade() + " made, " + pc.planStepsReused()
              + " steps reused (no LLM call), " + pc.replans() + " re-plans, " + pc.forcedFinishes()
              + " forced finishes");
        }
        for (String warning : r.warnings()) {
          System.out.println("Warning:       " + warning);
        }
        for (Intervention v : r.interventions()) {
          System.out.println("Intervention:  " + intervention(v));
        }
        System.out.println("Counts per step:");
        CountColumns.of(columns, r.perStep());
        for (StepCounts s : r.perStep()) {
          System.out.println("  " + s.step() + "\t" + columns.ordered(s.counts()));
        }
      } else if (info.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
        printProgress(connection, service, client, info, columns);
      }
      System.out.println(Links.where(connection, service, workflowId));
      return 0;
    } finally {
      service.shutdown();
    }
  }

  /**
   * A running simulation's progress, counts and interventions (queries), said within seconds either way:
   * Temporal holds a query to a run that no worker takes for over a minute, so no query is sent when no
   * worker polls the run's task queue, and one that gets no answer within {@link
   * SimulationControl#QUERY_WAIT} is not waited for.
   */
  private void printProgress(TemporalConnection connection, WorkflowServiceStubs service, WorkflowClient client,
      WorkflowExecutionInfo info, CountColumns columns) {
    String queue = info.getTaskQueue();
    if (WorkerWatch.workflowWorkerPolls(service, connection.namespace(), queue).equals(java.util.Optional.of(false))) {
      System.out.println("Progress:      unknown: no worker polls the task queue '" + queue + "' on "
          + connection.address() + " (namespace " + connection.namespace() + "); the run waits for one "
          + "('durable-agents worker', with the same TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE)");
      return;
    }
    SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class, workflowId);
    record Answer(SimulationProgress progress, List<Intervention> interventions) {}
    java.util.Optional<Answer> answer;
    try {
      answer = SimulationControl.boundedQuery(() -> new Answer(sim.progress(), sim.interventions()));
    } catch (RuntimeException e) {
      System.out.println("Progress:      unknown (" + Failures.about("the query failed", e).getMessage() + ")");
      return;
    }
    if (answer.isEmpty()) {
      System.out.println("Progress:      unknown: no worker answered the query within "
          + SimulationControl.QUERY_WAIT.toSeconds() + " s (a worker busy with a long step, or none running)");
      return;
    }
    SimulationProgress p = answer.get().progress();
    System.out.println("Progress:      step " + p.step() + "/" + p.totalSteps() + ", "
        + p.agents() + " agents, " + p.llmCalls() + " LLM calls, " + p.usage().total() + " tokens"
        + (p.paused() ? ", paused" : "") + (p.stopRequested() ? ", stopping" : "")
        + (p.runs() > 1 ? ", run " + p.runs() + " (continued as new)" : ""));
    System.out.println("Counts:        " + columns.ordered(p.counts()));
    for (Intervention v : answer.get().interventions()) {
      System.out.println("Intervention:  " + intervention(v));
    }
  }

  /** The run's input as the workflow got it, or null when it cannot be read (another version). */
  private static SimulationInput simulationInput(TemporalConnection connection, WorkflowServiceStubs service,
      SimulationRuns.Run run) {
    try {
      return connection.client(service).getOptions().getDataConverter()
          .fromPayloads(0, java.util.Optional.of(run.input()), SimulationInput.class, SimulationInput.class);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static String models(SimulationInput input) {
    java.util.TreeMap<String, String> byRole = new java.util.TreeMap<>();
    input.roleOptions().forEach((role, o) -> byRole.put(role, o.model()));
    StringBuilder sb = new StringBuilder();
    byRole.forEach((role, m) -> sb.append(sb.length() == 0 ? "" : ", ").append(role).append('=').append(m));
    return sb.toString();
  }

  /**
   * The run's maximum output length ({@code --max-output-tokens}), {@code 300 tokens} or {@code
   * citizen=300, cop=the worker's}; null when neither the run nor a role sets one.
   */
  public static String maxOutputTokens(SimulationInput input) {
    Integer all = input.agentOptions().maxOutputTokens();
    boolean perRole = input.roleOptions().values().stream()
        .anyMatch(o -> !java.util.Objects.equals(o.maxOutputTokens(), all));
    if (all == null && !perRole) {
      return null;
    }
    if (!perRole) {
      return tokens(all);
    }
    java.util.TreeMap<String, String> byRole = new java.util.TreeMap<>();
    input.roleOptions().forEach((role, o) -> byRole.put(role, tokens(o.maxOutputTokens())));
    StringBuilder sb = new StringBuilder(all == null ? "" : tokens(all) + ", per role: ");
    byRole.forEach((role, m) -> sb.append(sb.length() == 0 || sb.toString().endsWith(": ") ? "" : ", ")
        .append(role).append('=').append(m));
    return sb.toString();
  }

  private static String tokens(Integer n) {
    return n == null ? "the worker's" : n == 0 ? "none sent" : n + " tokens";
  }

  /** {@code 2: legitimacy 0.5 -> 0.3 from step 7 (crackdown)}, or {@code ... scheduled}. */
  public static String intervention(Intervention v) {
    return v.number() + ": " + v.describe() + " from step " + v.atStep() + (v.applied() ? "" : " (scheduled)")
        + (v.note() == null ? "" : " (" + v.note() + ")");
  }
}
