package io.durableagents.starter.benchmark;

import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a finished simulation cost Temporal per agent step and per simulation step, read from its
 * histories: history events and workflow tasks (the simulation's runs, following continue-as-new, and
 * every agent step or group step workflow it started), activity tasks, the bytes the agent steps' inputs
 * and results carried (from the result), and the largest workflow task any of its workflows completed
 * (the commands and bytes one completion sent to the server, which Temporal limits: 4 MB per gRPC
 * message, 2 MB per payload). The benchmark's scale part prints it beside its timings.
 *
 * @param agentSteps agent steps in the simulation
 * @param simulationSteps simulation steps the run made
 * @param simulationRuns runs of the simulation workflow
 * @param events history events, every workflow of the simulation together
 * @param workflowTasks workflow tasks (scheduled), every workflow together
 * @param activityTasks activities scheduled (LLM and tool calls)
 * @param childWorkflows agent step or group step workflows
 * @param historyBytes the histories' bytes, every workflow together
 * @param simulationEvents history events of the simulation workflow's own runs
 * @param simulationBytes history bytes of the simulation workflow's own runs
 * @param largestTask the workflow task completion that produced the most bytes of history
 * @param inputBytesPerAgentStep the mean bytes of an agent step's input (0 when not measured)
 * @param resultBytesPerAgentStep the mean bytes of an agent step's result (0 when not measured)
 * @param retriedTasks workflow task attempts that timed out or failed (each one is tried again, on a
 *     worker that replays the workflow's whole history)
 * @param eventTypes the events by the workflow that wrote them ({@link #SIMULATION} or {@link #STEP}) and
 *     their type, for {@link EventBreakdown}
 */
record AgentStepShape(long agentSteps, long simulationSteps, long simulationRuns, long events, long workflowTasks,
    long activityTasks, long childWorkflows, long historyBytes, long simulationEvents, long simulationBytes,
    TaskSize largestTask, double inputBytesPerAgentStep, double resultBytesPerAgentStep, long retriedTasks,
    Map<EventBreakdown.Key, Long> eventTypes) {

  /** The events' workflow in {@link #eventTypes}: the simulation's runs. */
  static final String SIMULATION = "the simulation";

  /** The events' workflow in {@link #eventTypes}: the agent (or group) step workflows it started. */
  static final String STEP = "the agent step";

  /**
   * The commands one workflow task completion produced and the bytes of the events they became.
   *
   * @param commands events written for the completion's commands (child starts, activities, timers,
   *     markers, continue-as-new ...)
   * @param bytes their serialized size
   */
  record TaskSize(int commands, long bytes) {
    static final TaskSize NONE = new TaskSize(0, 0);

    TaskSize max(TaskSize other) {
      return other.bytes > bytes || (other.bytes == bytes && other.commands > commands) ? other : this;
    }
  }

  /** Events a workflow task completion writes for its commands; they follow its WorkflowTaskCompleted. */
  private static final Set<EventType> COMMAND_EVENTS = EnumSet.of(
      EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
      EventType.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED,
      EventType.EVENT_TYPE_TIMER_STARTED,
      EventType.EVENT_TYPE_TIMER_CANCELED,
      EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
      EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
      EventType.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
      EventType.EVENT_TYPE_MARKER_RECORDED,
      EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
      EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED,
      EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
      EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED,
      EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
      EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
      EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
      EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW);

  /**
   * The largest workflow task completion of one history: for each {@code WorkflowTaskCompleted}, the
   * events its commands wrote right after it, counted and measured.
   */
  static TaskSize largestTask(List<HistoryEvent> events) {
    TaskSize largest = TaskSize.NONE;
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).getEventType() != EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
        continue;
      }
      int commands = 0;
      long bytes = 0;
      int j = i + 1;
      while (j < events.size() && COMMAND_EVENTS.contains(events.get(j).getEventType())) {
        commands++;
        bytes += events.get(j).getSerializedSize();
        j++;
      }
      largest = largest.max(new TaskSize(commands, bytes));
      i = j - 1;
    }
    return largest;
  }

  /** Reads every history of simulation {@code workflowId} (its latest run first) that returned {@code result}. */
  static AgentStepShape of(WorkflowClient client, String workflowId, SimulationResult result) {
    double in = result.agentStepBytes() == null ? 0 : result.agentStepBytes().inputPerAgentStep();
    double out = result.agentStepBytes() == null ? 0 : result.agentStepBytes().resultPerAgentStep();
    return of(client, workflowId, result.agentSteps(), result.steps(), in, out);
  }

  /**
   * Reads every history of the workflow {@code workflowId} that made {@code agentSteps} agent steps in
   * {@code simulationSteps} steps by starting a child workflow per agent (or group) step: a simulation of
   * ours or the yardstick's.
   */
  static AgentStepShape of(WorkflowClient client, String workflowId, long agentSteps, long simulationSteps,
      double in, double out) {
    Map<EventBreakdown.Key, Long> types = new TreeMap<>();
    long runs = 0;
    long events = 0;
    long workflowTasks = 0;
    long activityTasks = 0;
    long children = 0;
    long bytes = 0;
    long simulationEvents = 0;
    long simulationBytes = 0;
    TaskSize largest = TaskSize.NONE;
    long retried = 0;
    WorkflowExecutionHistory run = client.fetchHistory(workflowId);
    while (run != null) {
      runs++;
      events += run.getEvents().size();
      bytes += run.getHistory().getSerializedSize();
      simulationEvents += run.getEvents().size();
      simulationBytes += run.getHistory().getSerializedSize();
      largest = largest.max(largestTask(run.getEvents()));
      for (HistoryEvent e : run.getEvents()) {
        retried += retried(e);
        types.merge(new EventBreakdown.Key(SIMULATION, e.getEventType()), 1L, Long::sum);
        if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) {
          workflowTasks++;
        } else if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
          activityTasks++;
        } else if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
          WorkflowExecutionHistory child = client.fetchHistory(
              e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId());
          children++;
          events += child.getEvents().size();
          bytes += child.getHistory().getSerializedSize();
          largest = largest.max(largestTask(child.getEvents()));
          for (HistoryEvent c : child.getEvents()) {
            retried += retried(c);
            types.merge(new EventBreakdown.Key(STEP, c.getEventType()), 1L, Long::sum);
            if (c.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) {
              workflowTasks++;
            } else if (c.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
              activityTasks++;
            }
          }
        }
      }
      String previous = run.getEvents().get(0).getWorkflowExecutionStartedEventAttributes()
          .getContinuedExecutionRunId();
      run = previous.isEmpty() ? null : client.fetchHistory(workflowId, previous);
    }
    return new AgentStepShape(agentSteps, simulationSteps, runs, events, workflowTasks, activityTasks,
        children, bytes, simulationEvents, simulationBytes, largest, in, out, retried, types);
  }

  /** 1 for a workflow task attempt that timed out or failed, else 0. */
  private static int retried(HistoryEvent e) {
    return e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT
        || e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED ? 1 : 0;
  }

  /** {@code value} per agent step. */
  double perAgentStep(long value) {
    return agentSteps == 0 ? 0 : (double) value / agentSteps;
  }

  /** {@code value} per simulation step. */
  double perSimulationStep(long value) {
    return simulationSteps == 0 ? 0 : (double) value / simulationSteps;
  }

  /**
   * The table row's cells after the configuration's: events, workflow tasks, activity tasks and history
   * bytes per agent step, the simulation's runs, and the input and result bytes per agent step.
   */
  String cells() {
    return String.format(Locale.ROOT, "%.1f | %.2f | %.2f | %.0f | %d | %.0f + %.0f |", perAgentStep(events),
        perAgentStep(workflowTasks), perAgentStep(activityTasks), perAgentStep(historyBytes), simulationRuns,
        inputBytesPerAgentStep, resultBytesPerAgentStep);
  }

  /** The header of the cells of {@link #cells()}. */
  static final String HEADER = "events per agent step | workflow tasks per agent step | activity tasks per "
      + "agent step | history bytes per agent step | simulation runs | input + result bytes per agent step |";

  /**
   * The growth table's cells: per simulation step, the events and KB of every workflow together and of
   * the simulation workflow alone; the largest workflow task (commands, KB).
   */
  String stepCells() {
    return String.format(Locale.ROOT, "%.0f | %.0f | %.0f | %.0f | %d commands, %.0f KB | %d |",
        perSimulationStep(events), perSimulationStep(historyBytes) / 1024.0, perSimulationStep(simulationEvents),
        perSimulationStep(simulationBytes) / 1024.0, largestTask.commands(), largestTask.bytes() / 1024.0,
        retriedTasks);
  }

  /** The header of the cells of {@link #stepCells()}. */
  static final String STEP_HEADER = "events per simulation step (all workflows) | history KB per simulation step "
      + "(all) | events per simulation step (the simulation) | history KB per simulation step (the simulation) "
      + "| largest workflow task | workflow task attempts timed out or failed |";
}
