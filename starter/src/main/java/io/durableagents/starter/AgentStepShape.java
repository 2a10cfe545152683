package io.durableagents.starter;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.durableagents.workflows.simulation.SimulationResult;
import java.util.Locale;

/**
 * What a finished simulation cost Temporal per agent step, read from its histories: history events
 * and workflow tasks (the simulation's runs, following continue-as-new, and every agent step or group
 * step workflow it started), activity tasks, and the bytes the agent steps' inputs and results carried
 * (from the result). The benchmark's scale part prints it beside its timings: the per-step shape and
 * the group shape differ in these, not in what the agents do.
 *
 * @param agentSteps agent steps in the simulation
 * @param simulationRuns runs of the simulation workflow
 * @param events history events, every workflow of the simulation together
 * @param workflowTasks workflow tasks (scheduled), every workflow together
 * @param activityTasks activities scheduled (LLM and tool calls)
 * @param childWorkflows agent step or group step workflows
 * @param historyBytes the histories' bytes, every workflow together
 * @param inputBytesPerAgentStep the mean bytes of an agent step's input (0 when not measured)
 * @param resultBytesPerAgentStep the mean bytes of an agent step's result (0 when not measured)
 */
record AgentStepShape(long agentSteps, long simulationRuns, long events, long workflowTasks, long activityTasks,
    long childWorkflows, long historyBytes, double inputBytesPerAgentStep, double resultBytesPerAgentStep) {

  /** Reads every history of simulation {@code workflowId} (its latest run first) that returned {@code result}. */
  static AgentStepShape of(WorkflowClient client, String workflowId, SimulationResult result) {
    long runs = 0;
    long events = 0;
    long workflowTasks = 0;
    long activityTasks = 0;
    long children = 0;
    long bytes = 0;
    WorkflowExecutionHistory run = client.fetchHistory(workflowId);
    while (run != null) {
      runs++;
      events += run.getEvents().size();
      bytes += run.getHistory().getSerializedSize();
      for (HistoryEvent e : run.getEvents()) {
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
          for (HistoryEvent c : child.getEvents()) {
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
    double in = result.agentStepBytes() == null ? 0 : result.agentStepBytes().inputPerAgentStep();
    double out = result.agentStepBytes() == null ? 0 : result.agentStepBytes().resultPerAgentStep();
    return new AgentStepShape(result.agentSteps(), runs, events, workflowTasks, activityTasks, children, bytes,
        in, out);
  }

  /** {@code value} per agent step. */
  double perAgentStep(long value) {
    return agentSteps == 0 ? 0 : (double) value / agentSteps;
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
}
