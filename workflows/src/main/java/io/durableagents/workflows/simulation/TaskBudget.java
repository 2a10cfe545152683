package io.durableagents.workflows.simulation;

import io.durableagents.api.Json;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps each workflow task of a simulation within what a Temporal server accepts, whatever the number
 * of agents and {@code maxConcurrentAgents}: a task whose commands start more children or activities,
 * or carry more input bytes, than this budget would be one gRPC message over the server's 4 MB limit,
 * refused by the server and retried by the worker for ever. So the simulation starts its agent steps
 * in waves: when the next start would pass the budget, it waits until the starts sent so far have
 * reached the server (a new workflow task), then goes on.
 *
 * <p>The same limits bound what is pending at once: never more than {@link #MAX_PENDING} child
 * workflows or activities (a real server refuses more than 2,000 per workflow by default), and never
 * one input over {@link #MAX_PAYLOAD_BYTES} (the server refuses payloads over 2 MB).
 *
 * <p>Workflow code: sizes are measured by writing the input with the workflow's JSON mapper, which
 * gives the same bytes on every replay.
 */
final class TaskBudget {
  /** The most starts one workflow task sends. */
  static final int MAX_STARTS_PER_TASK = 500;

  /** The most input bytes one workflow task sends: a quarter of the server's 4 MB gRPC limit. */
  static final long MAX_BYTES_PER_TASK = 1024L * 1024;

  /** The most child workflows or activities pending at once (half a real server's default limit). */
  static final int MAX_PENDING = 1_000;

  /**
   * The largest input one child or activity may carry: a real server refuses payloads over 2 MB, and
   * the encoding adds some.
   */
  static final long MAX_PAYLOAD_BYTES = 1_500L * 1024;

  private final int maxStarts;
  private final long maxBytes;
  private int starts;
  private long bytes;
  private long largestTask;
  private final List<Promise<?>> sent = new ArrayList<>();

  TaskBudget() {
    this(MAX_STARTS_PER_TASK, MAX_BYTES_PER_TASK);
  }

  TaskBudget(int maxStarts, long maxBytes) {
    this.maxStarts = maxStarts;
    this.maxBytes = maxBytes;
  }

  /** The bytes {@code value} takes as JSON (what its payload carries, before any codec). */
  static long sizeOf(Object value) {
    return Json.writeBytes(value).length;
  }

  /**
   * Before starting something of {@code size} bytes: when it would take this task past the budget,
   * waits for {@code reached} (promises that complete only once what was sent has reached the
   * server: child-started promises, or the pending calls themselves), so the start goes out in a new
   * workflow task.
   */
  void beforeStart(long size, List<? extends Promise<?>> pending) {
    if (starts > 0 && (starts + 1 > maxStarts || bytes + size > maxBytes)) {
      // waits without throwing: a failed start or step is the caller's to collect
      if (!sent.isEmpty()) {
        Workflow.await(() -> allCompleted(sent));
      } else {
        // what this task started is still pending: one of them completing is a later task
        List<Promise<?>> open = new ArrayList<>();
        for (Promise<?> p : pending) {
          if (!p.isCompleted()) {
            open.add(p);
          }
        }
        if (!open.isEmpty()) {
          Workflow.await(() -> anyCompleted(open));
        }
      }
      newTask();
    }
  }

  /** Whether any of {@code promises} has completed. */
  static boolean anyCompleted(List<? extends Promise<?>> promises) {
    for (Promise<?> p : promises) {
      if (p.isCompleted()) {
        return true;
      }
    }
    return false;
  }

  private static boolean allCompleted(List<? extends Promise<?>> promises) {
    for (Promise<?> p : promises) {
      if (!p.isCompleted()) {
        return false;
      }
    }
    return true;
  }

  /** Counts a start of {@code size} bytes; {@code reached} completes once the server has it. */
  void started(long size, Promise<?> reached) {
    starts++;
    bytes += size;
    largestTask = Math.max(largestTask, bytes);
    if (reached != null) {
      sent.add(reached);
    }
  }

  /** Says that the workflow waited for something from the server: this is a new workflow task. */
  void newTask() {
    starts = 0;
    bytes = 0;
    sent.clear();
  }

  /** The most input bytes any one task of this budget sent. */
  long largestTaskBytes() {
    return largestTask;
  }
}
