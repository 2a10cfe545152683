package io.durableagents.starter.benchmark;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;

/**
 * How far a simulation that the benchmark gave up on (its {@code --time-limit} passed) had got: the agent
 * and group step workflows it saw complete, over all its runs (followed back through continue-as-new).
 * What a row that does not finish in its time still measures: agent steps per second until then.
 */
final class PartialRun {
  private PartialRun() {}

  /**
   * Agent steps done: completed children times {@code agentsPerWorkflow} (a group's last may be
   * smaller, and jailed citizens do not act: an upper bound for groups, exact for a workflow per agent step).
   */
  static long agentStepsDone(WorkflowClient client, String workflowId, int agentsPerWorkflow) {
    long children = 0;
    String runId = "";
    for (int runs = 0; runs < 10_000; runs++) {
      WorkflowExecutionHistory h = client.fetchHistory(workflowId, runId);
      String previous = "";
      for (HistoryEvent e : h.getEvents()) {
        if (e.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED) {
          children++;
        } else if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED) {
          previous = e.getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId();
        }
      }
      if (previous.isEmpty()) {
        break;
      }
      runId = previous;
    }
    return children * agentsPerWorkflow;
  }

}
