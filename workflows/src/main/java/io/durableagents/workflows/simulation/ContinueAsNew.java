package io.durableagents.workflows.simulation;

import io.durableagents.workflows.CommittedLog;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;

/**
 * When a simulation continues as new, and how: after every {@code continueAsNewEvery} steps in one
 * run, or earlier when Temporal suggests it or when one more step would take the run's history past
 * {@link SimulationWorkflowImpl#HISTORY_EVENTS_BUDGET} events or {@link
 * SimulationWorkflowImpl#HISTORY_BYTES_BUDGET} bytes; the next run gets the whole {@link
 * SimulationState} in its input, which must fit in one payload. Workflow code.
 */
final class ContinueAsNew {
  private ContinueAsNew() {}

  /** Whether the run continues as new after {@code stepsThisRun} steps of its own. */
  static boolean due(SimulationInput input, int stepsThisRun) {
    return stepsThisRun >= input.continueAsNewEvery()
        || (input.continueAsNewWhenSuggested()
            && (Workflow.getInfo().isContinueAsNewSuggested() || nextStepPassesHistoryBudget(stepsThisRun)));
  }

  /**
   * Whether one more step, as large as this run's average step, would take the history past {@link
   * SimulationWorkflowImpl#HISTORY_EVENTS_BUDGET} events or {@link
   * SimulationWorkflowImpl#HISTORY_BYTES_BUDGET} bytes. With hundreds of agents a step adds thousands
   * of events, so the step interval alone cannot keep histories small.
   */
  private static boolean nextStepPassesHistoryBudget(int stepsThisRun) {
    long events = Workflow.getInfo().getHistoryLength();
    long bytes = Workflow.getInfo().getHistorySize();
    return nextStepPassesHistoryBudget(events, bytes, stepsThisRun);
  }

  /**
   * Whether one more step would take a history of {@code events} events and {@code bytes} bytes,
   * written by {@code stepsThisRun} steps, past the budget.
   */
  static boolean nextStepPassesHistoryBudget(long events, long bytes, int stepsThisRun) {
    return events + events / stepsThisRun > SimulationWorkflowImpl.HISTORY_EVENTS_BUDGET
        || bytes + bytes / stepsThisRun > SimulationWorkflowImpl.HISTORY_BYTES_BUDGET;
  }

  /**
   * Continues as new after step {@code step} with {@code carried}, the whole state: the next run of
   * {@code input} starts from it. Does not return.
   *
   * @throws ApplicationFailure of type {@link SimulationFailureTypes#STATE_TOO_LARGE} when the state is
   *     too large for one payload even deflated
   */
  static void carry(SimulationInput input, SimulationState carried, int step, int stepsThisRun) {
    CommittedLog.info(SimulationWorkflowImpl.class,
        "continuing as new after step {} ({} steps and {} history events in this run)", step,
        stepsThisRun, Workflow.getInfo().getHistoryLength());
    checkSize(carried, step);
    Workflow.continueAsNew(input.withState(carried));
  }

  /**
   * Fails when {@code carried}, the state after step {@code step}, is over what one payload may carry
   * even deflated: a server refuses the continue-as-new (2 MB per payload), so say so now, not after
   * endless retries.
   */
  static void checkSize(SimulationState carried, int step) {
    long stateBytes = PackedState.sizeOf(carried);
    if (stateBytes > TaskBudget.MAX_PAYLOAD_BYTES) {
      throw ApplicationFailure.newNonRetryableFailure("the simulation's state after step " + step + " is "
          + stateBytes + " bytes even deflated, over the " + TaskBudget.MAX_PAYLOAD_BYTES + " bytes one "
          + "Temporal payload may carry (a server refuses 2 MB), so the run cannot continue as new: run "
          + "fewer agents, or agents with less memory or shorter plans", SimulationFailureTypes.STATE_TOO_LARGE);
    }
  }
}
