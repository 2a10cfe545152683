package io.durableagents.starter;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Which activities of a workflow and of every child workflow it started completed, and in which
 * attempt, read from their histories: what an execution journal is checked against to prove that no
 * completed call ran again after a worker was killed. Follows a workflow that continued as new back
 * through all its runs.
 *
 * <pre>{@code
 * Map<String, Integer> completed = CompletedActivities.of(client, "sim-epstein-42");
 * // "sim-epstein-42/agent-cop-0/step-3|<activity id>" -> 1
 * }</pre>
 */
final class CompletedActivities {
  private CompletedActivities() {}

  /** {@code <workflow id>|<activity id>} -> the attempt that completed it. */
  static Map<String, Integer> of(WorkflowClient client, String workflowId) {
    List<WorkflowExecutionHistory> runs = new ArrayList<>();
    WorkflowExecutionHistory run = client.fetchHistory(workflowId);
    while (run != null) {
      runs.add(run);
      String previous = run.getEvents().get(0).getWorkflowExecutionStartedEventAttributes()
          .getContinuedExecutionRunId();
      run = previous.isEmpty() ? null : client.fetchHistory(workflowId, previous);
    }
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
   * How many activity executions an execution journal ({@code DURABLE_AGENTS_EXECUTION_LOG}) records
   * as done, after its first {@code skip} lines; 0 when there is no journal yet.
   */
  static long doneInJournal(Path journal, int skip) throws IOException {
    if (!Files.exists(journal)) {
      return 0;
    }
    try (Stream<String> lines = Files.lines(journal)) {
      return lines.skip(skip).filter(l -> l.contains("\tdone\t")).count();
    }
  }

  private static void collect(String workflowId, WorkflowExecutionHistory history, Map<String, Integer> into) {
    Map<Long, String> scheduled = new HashMap<>();
    Map<Long, Integer> startedAttempt = new HashMap<>();
    for (HistoryEvent e : history.getEvents()) {
      switch (e.getEventType()) {
        case EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
          scheduled.put(e.getEventId(), e.getActivityTaskScheduledEventAttributes().getActivityId());
          break;
        case EVENT_TYPE_ACTIVITY_TASK_STARTED:
          startedAttempt.put(e.getEventId(), e.getActivityTaskStartedEventAttributes().getAttempt());
          break;
        case EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
          var a = e.getActivityTaskCompletedEventAttributes();
          into.put(workflowId + "|" + scheduled.get(a.getScheduledEventId()),
              startedAttempt.get(a.getStartedEventId()));
          break;
        default:
      }
    }
  }
}
