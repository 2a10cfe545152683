package io.durableagents.starter.inspect;

import io.durableagents.starter.Failures;
import io.durableagents.starter.SimulationControl;
import io.durableagents.starter.run.CountColumns;
import io.durableagents.starter.run.Origin;
import io.durableagents.starter.run.WorkerWatch;
import io.durableagents.workflows.SearchAttributes;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.Intervention;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.StepCounts;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code show <simulation id>}: the simulation step by step, read from its histories (the agent steps each
 * step ran and how many failed) and its result, or, while it runs, from its worker (the counts, LLM calls
 * and tokens of every completed step): one row a step, with the interventions before the step they apply
 * from and the forks after the step they go on from.
 *
 * <pre>{@code
 * Simulation sim-epstein-42: epstein, seed 42, completed, 12 of 12 steps, 1 run
 * step  agent steps  LLM calls  tokens  active  quiet  jailed
 *    1          120        120    9600      12     98       0
 * from step 5: intervention 1: legitimacy 0.8 -> 0.3 (crackdown)
 * after step 6: fork sim-epstein-42-fork (completed)
 * }</pre>
 */
final class SimulationSteps {
  private final WorkflowClient client;
  private final WorkflowServiceStubs service;
  private final String namespace;
  private final String address;

  SimulationSteps(WorkflowClient client, WorkflowServiceStubs service, String namespace, String address) {
    this.client = client;
    this.service = service;
    this.namespace = namespace;
    this.address = address;
  }

  /** What was read of the counts: the steps' variables and the interventions, or why they are unknown. */
  private record Counts(List<StepCounts> steps, List<Intervention> interventions, String unknown) {}

  void print(SimulationHistories h, PrintStream out) {
    String id = h.simulationId();
    DataConverter converter = client.getOptions().getDataConverter();
    WorkflowExecutionHistory first = h.runs().get(0);
    WorkflowExecutionHistory latest = h.runs().get(h.runs().size() - 1);
    SimulationInput input = converter.fromPayloads(0, Optional.of(
        first.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getInput()),
        SimulationInput.class, SimulationInput.class);
    HistoryEvent last = latest.getLastEvent();
    String status = status(last.getEventType());
    SimulationResult result = last.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED
        ? converter.fromPayloads(0, Optional.of(last.getWorkflowExecutionCompletedEventAttributes().getResult()),
            SimulationResult.class, SimulationResult.class)
        : null;
    Counts counts = result != null ? new Counts(result.perStep(), result.interventions(), null) : query(id, latest);
    int done = counts.steps().isEmpty() ? 0 : counts.steps().get(counts.steps().size() - 1).step();
    out.println("Simulation " + id + ": " + input.scenario() + ", seed " + input.seed() + ", " + status + ", "
        + (result != null ? result.steps() : Math.max(done, h.latestStartedStep() - 1)) + " of " + input.steps()
        + " steps, " + h.runs().size() + (h.runs().size() == 1 ? " run" : " runs (continued as new)"));

    Map<Integer, StepCounts> byStep = new TreeMap<>();
    counts.steps().forEach(s -> byStep.put(s.step(), s));
    TreeMap<Integer, Integer> rows = new TreeMap<>(h.agentStepsAt());
    byStep.keySet().forEach(s -> rows.putIfAbsent(s, 0));
    CountColumns columns = CountColumns.of(CountColumns.declared(input), counts.steps());
    boolean anyFailed = rows.keySet().stream().anyMatch(s -> h.failedAt(s) > 0);

    Map<Integer, List<String>> before = new TreeMap<>();
    for (Intervention v : counts.interventions()) {
      before.computeIfAbsent(v.atStep(), k -> new ArrayList<>()).add("from step " + v.atStep() + ": intervention "
          + DescribeCommand.intervention(v).replaceFirst(" from step \\d+", ""));
    }
    Map<Integer, List<String>> after = new TreeMap<>();
    for (Fork f : forks(id)) {
      after.computeIfAbsent(f.step(), k -> new ArrayList<>()).add("after step " + f.step() + ": " + f.kind() + " "
          + f.workflowId() + " (" + f.status() + ")");
    }

    List<String> header = new ArrayList<>(List.of("step", "agent steps"));
    if (anyFailed) {
      header.add("failed");
    }
    header.addAll(List.of("LLM calls", "tokens"));
    List<String> names = new ArrayList<>();
    byStep.values().forEach(s -> columns.ordered(s.counts()).keySet().forEach(n -> {
      if (!names.contains(n)) {
        names.add(n);
      }
    }));
    header.addAll(names);
    List<List<String>> table = new ArrayList<>();
    long callsBefore = 0;
    long tokensBefore = 0;
    Map<Integer, List<String>> lines = new LinkedHashMap<>();
    for (int step : rows.keySet()) {
      StepCounts s = byStep.get(step);
      List<String> row = new ArrayList<>(List.of(Integer.toString(step), Integer.toString(rows.get(step))));
      if (anyFailed) {
        row.add(Integer.toString(h.failedAt(step)));
      }
      if (s == null) {
        row.add(h.latestStartedStep() == step && result == null ? "running" : "?");
        row.add("");
        names.forEach(n -> row.add(""));
      } else {
        row.add(s.llmCalls() == null ? "?" : Long.toString(s.llmCalls() - callsBefore));
        row.add(s.tokens() == null ? "?" : Long.toString(s.tokens() - tokensBefore));
        callsBefore = s.llmCalls() == null ? callsBefore : s.llmCalls();
        tokensBefore = s.tokens() == null ? tokensBefore : s.tokens();
        names.forEach(n -> row.add(number(s.counts().get(n))));
      }
      table.add(row);
    }
    int[] widths = new int[header.size()];
    for (int c = 0; c < header.size(); c++) {
      widths[c] = header.get(c).length();
      for (List<String> row : table) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    out.println(row(header, widths));
    int i = 0;
    for (int step : rows.keySet()) {
      before.getOrDefault(step, List.of()).forEach(out::println);
      out.println(row(table.get(i++), widths));
      after.getOrDefault(step, List.of()).forEach(out::println);
    }
    // interventions scheduled for a step not yet run (they say so), forks after step 0
    before.forEach((step, texts) -> {
      if (!rows.containsKey(step)) {
        texts.forEach(out::println);
      }
    });
    after.forEach((step, texts) -> {
      if (!rows.containsKey(step)) {
        texts.forEach(out::println);
      }
    });
    if (counts.unknown() != null) {
      out.println("Counts, LLM calls and tokens: unknown: " + counts.unknown());
    }
    if (result != null) {
      out.println("Total: " + result.agentSteps() + " agent steps, " + result.llmCalls() + " LLM calls, "
          + result.toolCalls() + " tool calls, " + result.usage().input() + " tokens in, " + result.usage().output()
          + " out" + (result.failedAgentSteps() > 0 ? ", " + result.failedAgentSteps() + " failed agent steps" : "")
          + (result.stopped() ? "; stopped before its last step" : ""));
      result.warnings().forEach(w -> out.println("Warning: " + w));
    }
    out.println("One agent's step: durable-agents show " + id + "/agent-<agent id>/step-<n>");
  }

  private static String row(List<String> cells, int[] widths) {
    StringBuilder sb = new StringBuilder();
    for (int c = 0; c < cells.size(); c++) {
      String cell = cells.get(c);
      sb.append(c == 0 ? "" : "  ").append(" ".repeat(widths[c] - cell.length())).append(cell);
    }
    return sb.toString();
  }

  private static String number(Number n) {
    if (n == null) {
      return "";
    }
    double d = n.doubleValue();
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d)
        : String.format(Locale.ROOT, "%.4g", d);
  }

  private static String status(EventType last) {
    return switch (last) {
      case EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED -> "completed";
      case EVENT_TYPE_WORKFLOW_EXECUTION_FAILED -> "failed";
      case EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT -> "timed out";
      case EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED -> "terminated";
      case EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED -> "canceled";
      default -> "running";
    };
  }

  /**
   * The steps' variables and the interventions of a simulation that has no result (running, failed,
   * terminated), from its worker: said within seconds when no worker polls or none answers.
   */
  private Counts query(String id, WorkflowExecutionHistory latest) {
    String queue = latest.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getTaskQueue().getName();
    if (WorkerWatch.workflowWorkerPolls(service, namespace, queue.isEmpty() ? TaskQueues.AGENTS : queue)
        .equals(Optional.of(false))) {
      return new Counts(List.of(), List.of(), "no worker polls the task queue '" + queue + "' on " + address
          + " to answer for them ('durable-agents worker' starts one)");
    }
    SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class, id);
    try {
      record Answer(List<StepCounts> steps, List<Intervention> interventions) {}
      Optional<Answer> answer = SimulationControl.boundedQuery(() -> new Answer(sim.stepsAfter(0), sim.interventions()));
      return answer.map(a -> new Counts(a.steps(), a.interventions(), null)).orElseGet(() -> new Counts(List.of(),
          List.of(), "no worker answered within " + SimulationControl.QUERY_WAIT.toSeconds() + " s"));
    } catch (RuntimeException e) {
      return new Counts(List.of(), List.of(), Failures.about("the query failed", e).getMessage());
    }
  }

  /** A run that goes on from this simulation's state after a step: a fork, or a checkpoint's restore. */
  record Fork(String workflowId, String kind, int step, String status) {}

  /**
   * The simulations forked from {@code id} (their {@code ForkedFrom} search attribute and {@code origin}
   * memo), found with a visibility query, or among the latest simulations where the server has none (the
   * in-memory Temporal).
   */
  List<Fork> forks(String id) {
    List<WorkflowExecutionInfo> found;
    try {
      found = service.blockingStub().listWorkflowExecutions(ListWorkflowExecutionsRequest.newBuilder()
          .setNamespace(namespace).setPageSize(1000)
          .setQuery(SearchAttributes.FORKED_FROM.getName() + " = '" + id.replace("'", "\\'") + "'").build())
          .getExecutionsList();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.UNIMPLEMENTED
          && e.getStatus().getCode() != Status.Code.INVALID_ARGUMENT) {
        throw e;
      }
      found = ListCommand.list(service, namespace, 1000);
    }
    Map<String, Fork> forks = new TreeMap<>();
    for (WorkflowExecutionInfo info : found) {
      io.temporal.api.common.v1.Memo memo = info.getMemo();
      if (!memo.containsFields(Origin.MEMO_KEY) && !info.getExecution().getWorkflowId().equals(id)) {
        memo = startedMemo(info); // the in-memory Temporal's lists leave the memo out
      }
      if (!memo.containsFields(Origin.MEMO_KEY)) {
        continue;
      }
      Map<?, ?> origin;
      try {
        origin = DefaultDataConverter.STANDARD_INSTANCE.fromPayload(memo.getFieldsOrThrow(Origin.MEMO_KEY),
            Map.class, Map.class);
      } catch (RuntimeException e) {
        continue;
      }
      if (id.equals(origin.get("simulation")) && origin.get("step") instanceof Number step) {
        String forkId = info.getExecution().getWorkflowId();
        // a fork that continued as new is one fork: the run that did not continue says where it is
        Fork known = forks.get(forkId);
        if (known == null || known.status().equals("continued_as_new")) {
          forks.put(forkId, new Fork(forkId, String.valueOf(origin.get("kind")), step.intValue(),
              Describe.status(info.getStatus())));
        }
      }
    }
    List<Fork> list = new ArrayList<>(forks.values());
    list.sort(java.util.Comparator.comparingInt(Fork::step).thenComparing(Fork::workflowId));
    return list;
  }

  /** The memo a run started with, from its first event. */
  private io.temporal.api.common.v1.Memo startedMemo(WorkflowExecutionInfo info) {
    try {
      return service.blockingStub().getWorkflowExecutionHistory(
          io.temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryRequest.newBuilder().setNamespace(namespace)
              .setExecution(info.getExecution()).setMaximumPageSize(1).build())
          .getHistory().getEvents(0).getWorkflowExecutionStartedEventAttributes().getMemo();
    } catch (RuntimeException e) {
      return io.temporal.api.common.v1.Memo.getDefaultInstance();
    }
  }
}
