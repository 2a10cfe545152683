package io.durableagents.worker;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Which activities of a workflow and of every child workflow it started completed, and in which
 * attempt, read from their histories: what an {@link ExecutionJournal} is checked against to prove that
 * no completed call ran again after a worker was killed. Follows a workflow that continued as new back
 * through all its runs.
 *
 * <pre>{@code
 * Map<String, Integer> completed = CompletedActivities.of(client, "sim-epstein-42");
 * // "sim-epstein-42/agent-cop-0/step-3|<activity id>" -> 1
 * Map<String, Integer> byRun = CompletedActivities.byRun(client, "sim-epstein-42");
 * // "sim-epstein-42|<run id>|<activity id>" -> 1 (activity ids restart in each run)
 * }</pre>
 */
public final class CompletedActivities {
  private CompletedActivities() {}

  /**
   * {@code <workflow id>|<activity id>} -> the attempt that completed it, for the workflow (all its
   * runs) and its direct children. Activity ids restart in each run of a workflow that continued as
   * new, so a later run's entry replaces an earlier one's of the same id; {@link #byRun} keeps them
   * apart.
   */
  public static Map<String, Integer> of(WorkflowClient client, String workflowId) {
    List<WorkflowExecutionHistory> runs = runs(client, workflowId, null);
    Set<String> children = new TreeSet<>();
    Map<String, Integer> completed = new HashMap<>();
    for (WorkflowExecutionHistory h : runs) {
      for (HistoryEvent e : h.getEvents()) {
        if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
          children.add(e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId());
        }
      }
      collect(workflowId, h, completed);
    }
    for (String child : children) {
      collect(child, client.fetchHistory(child), completed);
    }
    return completed;
  }

  /**
   * {@code <workflow id>|<run id>|<activity id>} -> the attempt that completed it, for every run of
   * the workflow and of every workflow it started, at any depth (children of children, and their runs
   * continued as new). Keys match an {@link ExecutionJournal}'s lines: fields 3, 8 and 4.
   */
  public static Map<String, Integer> byRun(WorkflowClient client, String workflowId) {
    Map<String, Integer> completed = new LinkedHashMap<>();
    tree(client, workflowId).forEach((key, run) -> collect(key, run, completed));
    return completed;
  }

  /**
   * Every run of {@code workflowId} and of every workflow it started, at any depth (children of
   * children, and their runs continued as new), keyed {@code <workflow id>|<run id>}, each workflow's
   * latest run first.
   */
  public static Map<String, WorkflowExecutionHistory> tree(WorkflowClient client, String workflowId) {
    Map<String, WorkflowExecutionHistory> runs = new LinkedHashMap<>();
    Set<String> visited = new HashSet<>();
    Deque<String> pending = new ArrayDeque<>(List.of(workflowId));
    while (!pending.isEmpty()) {
      String id = pending.poll();
      if (!visited.add(id)) {
        continue;
      }
      for (Map.Entry<String, WorkflowExecutionHistory> run : runsById(client, id).entrySet()) {
        for (HistoryEvent e : run.getValue().getEvents()) {
          if (e.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED) {
            pending.add(e.getChildWorkflowExecutionStartedEventAttributes().getWorkflowExecution()
                .getWorkflowId());
          }
        }
        runs.put(id + "|" + run.getKey(), run.getValue());
      }
    }
    return runs;
  }

  /**
   * Every run of {@code workflowId} by run id, the latest first: a workflow that continued as new has
   * one per run, each starting where the one before it ended.
   */
  public static Map<String, WorkflowExecutionHistory> runsById(WorkflowClient client, String workflowId) {
    Map<String, WorkflowExecutionHistory> runs = new LinkedHashMap<>();
    String runId = client.newUntypedWorkflowStub(workflowId).describe().getExecution().getRunId();
    while (!runId.isEmpty()) {
      WorkflowExecutionHistory h = client.fetchHistory(workflowId, runId);
      runs.put(runId, h);
      runId = h.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId();
    }
    return runs;
  }

  /**
   * How many activity executions an execution journal ({@code DURABLE_AGENTS_EXECUTION_LOG}) records
   * as done, after its first {@code skip} lines; 0 when there is no journal yet.
   */
  public static long doneInJournal(Path journal, int skip) throws IOException {
    if (!Files.exists(journal)) {
      return 0;
    }
    try (Stream<String> lines = Files.lines(journal)) {
      return lines.skip(skip).filter(l -> l.contains("\tdone\t")).count();
    }
  }

  /**
   * Whether an execution journal records an activity execution done for a workflow whose id {@code
   * workflowId} accepts (a line: time, start|done, workflow id, ...); false when there is no journal yet.
   */
  public static boolean doneInJournal(Path journal, java.util.function.Predicate<String> workflowId)
      throws IOException {
    if (!Files.exists(journal)) {
      return false;
    }
    try (Stream<String> lines = Files.lines(journal)) {
      return lines.map(l -> l.split("\t", 4))
          .anyMatch(f -> f.length > 2 && f[1].equals("done") && workflowId.test(f[2]));
    }
  }

  /** Every run of {@code workflowId}, newest first, from {@code runId} (null: the latest run) back. */
  private static List<WorkflowExecutionHistory> runs(WorkflowClient client, String workflowId, String runId) {
    List<WorkflowExecutionHistory> runs = new ArrayList<>();
    WorkflowExecutionHistory run = runId == null
        ? client.fetchHistory(workflowId) : client.fetchHistory(workflowId, runId);
    while (run != null) {
      runs.add(run);
      String previous = run.getEvents().get(0).getWorkflowExecutionStartedEventAttributes()
          .getContinuedExecutionRunId();
      run = previous.isEmpty() ? null : client.fetchHistory(workflowId, previous);
    }
    return runs;
  }

  private static void collect(String prefix, WorkflowExecutionHistory history, Map<String, Integer> into) {
    Map<Long, String> scheduled = new HashMap<>();
    Map<Long, Integer> startedAttempt = new HashMap<>();
    // Looked up by scheduled event, not by started event id: with activities in parallel, the
    // embedded Temporal's completion may name a started event id other than its started event's.
    for (HistoryEvent e : history.getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
        scheduled.put(e.getEventId(), e.getActivityTaskScheduledEventAttributes().getActivityId());
      } else if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
        var started = e.getActivityTaskStartedEventAttributes();
        startedAttempt.put(started.getScheduledEventId(), started.getAttempt());
      }
    }
    for (HistoryEvent e : history.getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
        var a = e.getActivityTaskCompletedEventAttributes();
        into.put(prefix + "|" + scheduled.get(a.getScheduledEventId()),
            startedAttempt.get(a.getScheduledEventId()));
      }
    }
  }
}
