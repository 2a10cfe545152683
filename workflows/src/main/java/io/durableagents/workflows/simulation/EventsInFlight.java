package io.durableagents.workflows.simulation;

import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the simulation's own workflow tasks ahead of its children's, and keeps what may happen to a simulation while one of its workflow tasks runs within what a real Temporal
 * server holds for a running task. Every event that arrives for a workflow while a worker runs its task
 * (a child started or completed, an activity's result) is held by the server until the task ends; when
 * more than 100 are held ({@code history.maximumBufferedEventsBatch}), the server fails the running task
 * itself ({@code WORKFLOW_TASK_FAILED_CAUSE_FORCE_CLOSE_COMMAND} by {@code history-service}) and
 * schedules another: the worker's work is thrown away, its cached run evicted, and the next task replays
 * the run's whole history, which on a loaded worker can take past the simulation's workflow task
 * timeout. A window of 100 agent steps, each a child workflow that brings two events (started, then
 * completed), reached it.
 *
 * <p>So the simulation never has more pending than could bring {@link #MOST} events: a child whose start
 * the workflow has not yet seen may bring two, a started child one, a pending activity two. Before it
 * starts one more it waits, when need be, for enough of them to have come. The room left under the
 * server's 100 is for what no window counts: signals, updates, a checkpoint's activity. The children run
 * at a lower priority ({@link #CHILD_PRIORITY}). Workflow code; runs recorded before this existed replay
 * without either ({@link #bounded()}).
 */
final class EventsInFlight {
  /** The change id of this bound (see {@link #bounded()}). */
  static final String CHANGE_ID = "events-in-flight";

  /** The most events a real server holds for a running workflow task before it fails the task. */
  static final int SERVER_LIMIT = 100;

  /**
   * The priority of the agent (and group) step workflows a simulation starts, and so of their tasks and
   * calls: one below Temporal's default (3), which the simulation has. A worker's sticky queue holds the
   * tasks of every workflow it has cached; with 100 agent steps running, the simulation's task waited
   * behind theirs for more than the sticky queue's 5 s on a busy worker, moved to the workflow's task
   * queue, and was replayed from the run's whole history, which took past the simulation's workflow task
   * timeout, again and again (issue 37 item 5). A real server's matcher hands out higher-priority tasks
   * first; the in-memory Temporal ignores priorities.
   */
  static final io.temporal.common.Priority CHILD_PRIORITY =
      io.temporal.common.Priority.newBuilder().setPriorityKey(4).build();

  /** The most events the simulation's pending children and activities may bring. */
  static final int MOST = 90;

  /** Children: the promise that completes once the start is seen, and the one of its result. */
  private final List<Promise<?>> started = new ArrayList<>();
  private final List<Promise<?>> results = new ArrayList<>();

  /** Whether this run bounds the events in flight; runs recorded before the bound replay without it. */
  static boolean bounded() {
    return Workflow.getVersion(CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1;
  }

  /** Counts a child workflow whose start completes {@code startSeen} and whose result is {@code result}. */
  void child(Promise<?> startSeen, Promise<?> result) {
    started.add(startSeen);
    results.add(result);
  }

  /** Counts an activity (or anything that ends with an activity's result) that completes {@code result}. */
  void activity(Promise<?> result) {
    started.add(null);
    results.add(result);
  }

  /** The events that what is pending may still bring. */
  int events() {
    int events = 0;
    for (int i = 0; i < results.size(); i++) {
      if (results.get(i).isCompleted()) {
        continue;
      }
      Promise<?> s = started.get(i);
      events += s == null || !s.isCompleted() ? 2 : 1;
    }
    return events;
  }

  /**
   * Before starting a child or an activity: waits until it fits under {@link #MOST}.
   *
   * @return whether it waited, which means the start goes out in a later workflow task
   */
  boolean awaitRoom() {
    for (int i = results.size() - 1; i >= 0; i--) {
      if (results.get(i).isCompleted()) {
        results.remove(i);
        started.remove(i);
      }
    }
    if (events() + 2 <= MOST) {
      return false;
    }
    Workflow.await(() -> events() + 2 <= MOST);
    return true;
  }
}
