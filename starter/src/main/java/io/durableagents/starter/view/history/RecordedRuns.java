package io.durableagents.starter.view.history;

import io.durableagents.worker.SimulationReplay;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The recorded runs of one simulation (one per continue-as-new) as far back as they were needed,
 * first to latest. A run that has ended never changes and is fetched once; the latest run of a running
 * simulation is fetched again only when a step is asked for that its copy here has not completed.
 */
final class RecordedRuns {
  /** One run: its history, the last step completed before it started, and the steps whose agents it started. */
  record Run(WorkflowExecutionHistory history, int startStep, Set<Integer> startedSteps) {
    String runId() {
      return history.getWorkflowExecution().getRunId();
    }

    String previousRunId() {
      return history.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId();
    }

    boolean ended() {
      return switch (history.getLastEvent().getEventType()) {
        case EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
            EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT, EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
            EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED, EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW -> true;
        default -> false;
      };
    }

    /** Whether this copy of the run shows {@code step} completed: the agents of the next step started. */
    boolean showsCompleted(int step) {
      return startedSteps.contains(step + 1);
    }
  }

  private final String simulationId;
  private final SimulationReplay replay;
  /** Fetches a run's history: (workflow id, run id or null for the latest). */
  private final BiFunction<String, String, WorkflowExecutionHistory> fetch;
  private final List<Run> runs = new ArrayList<>();

  RecordedRuns(String simulationId, SimulationReplay replay,
      BiFunction<String, String, WorkflowExecutionHistory> fetch) {
    this.simulationId = simulationId;
    this.replay = replay;
    this.fetch = fetch;
  }

  /** The run whose replay gives the state after {@code step}, fetching runs back to it as needed. */
  Run runFor(int step) {
    return runFor(step, true);
  }

  private Run runFor(int step, boolean mayRefresh) {
    if (runs.isEmpty()) {
      runs.add(read(fetch.apply(simulationId, null)));
    }
    while (runs.get(0).startStep() > step && !runs.get(0).previousRunId().isEmpty()) {
      runs.add(0, read(fetch.apply(simulationId, runs.get(0).previousRunId())));
    }
    Run found = null;
    for (Run run : runs) {
      if (run.startStep() <= step) {
        found = run;
      }
    }
    if (found == null) {
      throw new IllegalArgumentException("the recorded runs of '" + simulationId + "' start after step " + step);
    }
    Run latest = latest();
    if (mayRefresh && found == latest && !latest.ended() && !latest.showsCompleted(step) && step > latest.startStep()) {
      // this copy of the running run may be behind: read it again, and any run it continued into
      refreshLatest();
      return runFor(step, false);
    }
    return found;
  }

  /** The latest run, read anew from the server (it may have grown or continued as new since). */
  Run refreshLatest() {
    if (runs.isEmpty()) {
      runs.add(read(fetch.apply(simulationId, null)));
      return latest();
    }
    Run known = latest();
    if (known.ended() && !known.history().getLastEvent().getEventType()
        .equals(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW)) {
      return known;
    }
    List<Run> newer = new ArrayList<>();
    Run run = read(fetch.apply(simulationId, null));
    while (!run.runId().equals(known.runId())) {
      newer.add(0, run);
      if (run.previousRunId().isEmpty()) {
        throw new IllegalStateException("the latest run of '" + simulationId + "' does not continue run "
            + known.runId());
      }
      run = read(fetch.apply(simulationId, run.previousRunId()));
    }
    runs.set(runs.size() - 1, run);
    runs.addAll(newer);
    return latest();
  }

  Run latest() {
    return runs.get(runs.size() - 1);
  }

  /** Every run read so far, first to latest. */
  List<Run> runs() {
    return List.copyOf(runs);
  }

  private Run read(WorkflowExecutionHistory history) {
    Set<Integer> started = new HashSet<>();
    for (HistoryEvent e : history.getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
        Integer step = AgentStepIds.stepOf(simulationId,
            e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId());
        if (step != null) {
          started.add(step);
        }
      }
    }
    return new Run(history, replay.startStep(history), started);
  }
}
