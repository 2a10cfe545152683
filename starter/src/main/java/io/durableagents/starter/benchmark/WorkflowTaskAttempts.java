package io.durableagents.starter.benchmark;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.TaskQueueKind;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.history.v1.WorkflowTaskFailedEventAttributes;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The workflow task attempts of a simulation that timed out or failed, read from every history it left:
 * its runs (followed back through continue-as-new) and every agent step or group step workflow they
 * started. Each says which workflow, how (a time-out's type and queue, a failure's cause and who failed
 * it) and, for a task the server failed itself ({@code FORCE_CLOSE_COMMAND} by {@code history-service}),
 * how many events had arrived while it ran (a real server fails the running task when more than 100
 * are held for it, {@code history.maximumBufferedEventsBatch}).
 *
 * <pre>{@code
 * java -cp starter/target/durable-agents.jar io.durableagents.starter.benchmark.WorkflowTaskAttempts \
 *     127.0.0.1:7233 sim-epstein-42-1a2b3c4d
 * }</pre>
 */
public final class WorkflowTaskAttempts {
  private WorkflowTaskAttempts() {}

  /**
   * One workflow task attempt that did not complete.
   *
   * @param workflowId the workflow whose task it was
   * @param workflowType its type ({@code Simulation}, {@code AgentStep}, {@code AgentGroupStep})
   * @param eventId the {@code WorkflowTaskTimedOut} or {@code WorkflowTaskFailed} event's id
   * @param kind what happened: {@code timed out START_TO_CLOSE}, {@code timed out SCHEDULE_TO_START
   *     (sticky)}, {@code failed FORCE_CLOSE_COMMAND by history-service}, ...
   * @param detail more: the time the task ran or waited, the events that arrived while it ran, a message
   */
  public record Attempt(String workflowId, String workflowType, long eventId, String kind, String detail) {
    @Override
    public String toString() {
      return workflowId + " (" + workflowType + ") event " + eventId + ": " + kind
          + (detail.isEmpty() ? "" : " (" + detail + ")");
    }
  }

  /** Every attempt of simulation {@code simulationId}'s workflows that timed out or failed. */
  public static List<Attempt> of(WorkflowClient client, String simulationId) {
    List<Attempt> found = new ArrayList<>();
    WorkflowExecutionHistory run = client.fetchHistory(simulationId);
    while (run != null) {
      found.addAll(in(simulationId, run.getEvents()));
      for (HistoryEvent e : run.getEvents()) {
        if (e.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED) {
          var child = e.getChildWorkflowExecutionStartedEventAttributes().getWorkflowExecution();
          found.addAll(in(child.getWorkflowId(),
              client.fetchHistory(child.getWorkflowId(), child.getRunId()).getEvents()));
        }
      }
      String previous = run.getEvents().get(0).getWorkflowExecutionStartedEventAttributes()
          .getContinuedExecutionRunId();
      run = previous.isEmpty() ? null : client.fetchHistory(simulationId, previous);
    }
    return found;
  }

  /** The attempts in one history that timed out or failed. */
  static List<Attempt> in(String workflowId, List<HistoryEvent> events) {
    String type = events.get(0).getWorkflowExecutionStartedEventAttributes().getWorkflowType().getName();
    List<Attempt> found = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      HistoryEvent e = events.get(i);
      if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT) {
        var timedOut = e.getWorkflowTaskTimedOutEventAttributes();
        HistoryEvent scheduled = byId(events, timedOut.getScheduledEventId());
        boolean sticky = scheduled != null && scheduled.getWorkflowTaskScheduledEventAttributes().getTaskQueue()
            .getKind() == TaskQueueKind.TASK_QUEUE_KIND_STICKY;
        HistoryEvent from = timedOut.getStartedEventId() > 0 ? byId(events, timedOut.getStartedEventId()) : scheduled;
        String detail = from == null ? "" : millisBetween(from, e) + " ms after it was "
            + (timedOut.getStartedEventId() > 0 ? "started by " + from.getWorkflowTaskStartedEventAttributes()
                .getIdentity() : "scheduled");
        found.add(new Attempt(workflowId, type, e.getEventId(), "timed out "
            + name(timedOut.getTimeoutType().name(), "TIMEOUT_TYPE_") + (sticky ? " (sticky)" : ""), detail));
      } else if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED) {
        WorkflowTaskFailedEventAttributes failed = e.getWorkflowTaskFailedEventAttributes();
        String detail = failed.getFailure().getMessage();
        if ("history-service".equals(failed.getIdentity())) {
          // what the server held for the task and wrote when it failed it: the events up to the next scheduled task
          int held = 0;
          for (int j = i + 1; j < events.size()
              && events.get(j).getEventType() != EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED; j++) {
            held++;
          }
          HistoryEvent started = byId(events, failed.getStartedEventId());
          detail = held + " events arrived while it ran"
              + (started == null ? "" : " for " + millisBetween(started, e) + " ms");
        }
        found.add(new Attempt(workflowId, type, e.getEventId(), "failed "
            + name(failed.getCause().name(), "WORKFLOW_TASK_FAILED_CAUSE_") + " by " + failed.getIdentity(), detail));
      }
    }
    return found;
  }

  /** The attempts counted by workflow type and kind, e.g. {@code Simulation: timed out START_TO_CLOSE = 2}. */
  public static Map<String, Integer> counts(List<Attempt> attempts) {
    Map<String, Integer> counts = new TreeMap<>();
    for (Attempt a : attempts) {
      counts.merge(a.workflowType() + ": " + a.kind(), 1, Integer::sum);
    }
    return counts;
  }

  private static HistoryEvent byId(List<HistoryEvent> events, long id) {
    int i = (int) id - 1;
    if (i >= 0 && i < events.size() && events.get(i).getEventId() == id) {
      return events.get(i);
    }
    for (HistoryEvent e : events) {
      if (e.getEventId() == id) {
        return e;
      }
    }
    return null;
  }

  private static long millisBetween(HistoryEvent from, HistoryEvent to) {
    return (to.getEventTime().getSeconds() - from.getEventTime().getSeconds()) * 1000
        + (to.getEventTime().getNanos() - from.getEventTime().getNanos()) / 1_000_000;
  }

  private static String name(String constant, String prefix) {
    return constant.startsWith(prefix) ? constant.substring(prefix.length()) : constant.toLowerCase(Locale.ROOT);
  }

  /**
   * Prints the attempts of the simulations named by their ids that timed out or failed, counted, then
   * each one. Arguments: the Temporal address ({@code host:port}), then one or more simulation ids.
   */
  public static void main(String[] args) {
    if (args.length < 2) {
      System.err.println("usage: WorkflowTaskAttempts HOST:PORT SIMULATION_ID...");
      System.exit(2);
    }
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget(args[0]).build());
    try {
      WorkflowClient client = WorkflowClient.newInstance(service);
      for (int i = 1; i < args.length; i++) {
        List<Attempt> attempts = of(client, args[i]);
        System.out.println(args[i] + ": " + attempts.size() + " workflow task attempts timed out or failed "
            + counts(attempts));
        attempts.forEach(a -> System.out.println("  " + a));
      }
    } finally {
      service.shutdownNow();
    }
  }
}
