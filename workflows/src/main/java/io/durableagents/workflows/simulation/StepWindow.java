package io.durableagents.workflows.simulation;

import io.durableagents.workflows.agent.AgentStepFailures;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.List;

/**
 * The window of a simulation step: at most {@code maxConcurrentAgents} agent steps (or memory calls)
 * running at once, a new one started when one finishes, each start within a {@link TaskBudget} in runs
 * recorded since the budget came. Workflow code.
 */
final class StepWindow {
  /** The change id of the task budget (see {@link #budgeted()}). */
  static final String TASK_BUDGET_CHANGE_ID = "task-budget";

  private StepWindow() {}

  /**
   * Whether this run starts its agent steps and memory calls within a {@link TaskBudget}. Runs
   * recorded before the budget existed replay without it (they started every window in one task).
   */
  static boolean budgeted() {
    return Workflow.getVersion(TASK_BUDGET_CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1;
  }

  /** How many agent steps (or memory calls) may run at once. */
  static int cap(int maxConcurrentAgents, boolean budgeted) {
    return budgeted
        ? Math.min(maxConcurrentAgents, TaskBudget.MAX_PENDING)
        : maxConcurrentAgents;
  }

  /**
   * Waits until one of {@code window} completes, failed or not (a failed agent step is collected
   * later). When none had completed before, the wait took a new workflow task, which starts a new
   * budget. Runs recorded before the budget wait as they did: a failed step ends the wait by throwing,
   * which ends an older run (see {@link AgentStepFailures}).
   */
  static void awaitAny(
      List<? extends Promise<?>> window, TaskBudget budget, boolean budgeted) {
    if (!budgeted) {
      try {
        Promise.anyOf(window.toArray(new Promise<?>[0])).get();
      } catch (ChildWorkflowFailure failed) {
        // Collected (and recorded as failed) below; an older history ended here.
        if (failed.getCause() instanceof CanceledFailure || !AgentStepFailures.recoverable()) {
          throw failed;
        }
      }
      return;
    }
    boolean anyDone = TaskBudget.anyCompleted(window);
    Workflow.await(() -> TaskBudget.anyCompleted(window));
    if (!anyDone) {
      budget.newTask();
    }
  }
}
