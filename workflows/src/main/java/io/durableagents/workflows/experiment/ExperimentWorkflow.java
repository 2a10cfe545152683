package io.durableagents.workflows.experiment;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.List;

/**
 * An experiment: many simulations of one scenario, each a child {@link
 * io.durableagents.workflows.simulation.SimulationWorkflow} with the id {@code <experiment id>/run-<n>},
 * at most {@link ExperimentInput#maxConcurrentRuns()} at once, within a budget. A crash of a worker, the
 * client or the server costs nothing: a finished run is never run again, a running one goes on where it
 * was, and the table it keeps is the same as an undisturbed run's.
 *
 * <pre>{@code
 * ExperimentWorkflow experiment = client.newWorkflowStub(ExperimentWorkflow.class,
 *     WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("exp-legitimacy").build());
 * ExperimentResult result = experiment.run(input);
 * }</pre>
 */
@WorkflowInterface
public interface ExperimentWorkflow {
  /** The workflow type's name. */
  String TYPE = "Experiment";

  @WorkflowMethod(name = TYPE)
  ExperimentResult run(ExperimentInput input);

  /** How many runs are in each status, what they spent, paused or stopping. */
  @QueryMethod
  ExperimentProgress progress();

  /**
   * Every run as it stands, in index order, with the rows of those that ended (their totals only once the
   * rows pass {@link ExperimentInput#MAX_TABLE_ROWS}: each run's rows are then in its own result).
   */
  @QueryMethod
  List<ExperimentRunOutcome> runs();

  /** No run starts, and the running runs pause at their next step boundary. */
  @SignalMethod
  void pause();

  /** Resumes the running runs, and runs start again. */
  @SignalMethod
  void resume();

  /**
   * No run starts again; the running runs stop after their step in progress (their rows hold the steps
   * they ran), and the runs never started are reported as such.
   */
  @SignalMethod
  void stop();
}
