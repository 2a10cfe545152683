package io.durableagents.worker;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;

/**
 * Says when the worker runs out of workflow threads. A cached workflow holds its threads while it waits;
 * when a workflow task needs a thread and the worker has none left (platform threads, below Java 21:
 * {@code DURABLE_AGENTS_WORKFLOW_THREADS}), the SDK evicts another cached workflow to free its threads,
 * and that one replays its whole history at its next task. Nothing fails, the run only gets slower, so
 * without this a user would see a large simulation slow down with no reason given. The SDK counts the
 * evictions ({@code temporal_sticky_cache_thread_forced_eviction}); the worker reads the count every
 * minute and logs a warning naming the setting when it grew.
 */
final class ThreadEvictions {
  /** The SDK's counter of evictions made to free workflow threads. */
  static final String COUNTER = "temporal_sticky_cache_thread_forced_eviction";

  private final MeterRegistry registry;
  private final int workflowThreads;
  private double seen;

  ThreadEvictions(MeterRegistry registry, int workflowThreads) {
    this.registry = registry;
    this.workflowThreads = workflowThreads;
  }

  /** Evictions to free threads so far, on every task queue and workflow type. */
  double total() {
    double sum = 0;
    for (Counter c : registry.find(COUNTER).counters()) {
      sum += c.count();
    }
    return sum;
  }

  /** The warning to log when there were evictions since the last check, or empty. */
  Optional<String> check() {
    double now = total();
    long evicted = Math.round(now - seen);
    seen = now;
    if (evicted <= 0) {
      return Optional.empty();
    }
    return Optional.of(evicted + " cached workflow(s) were evicted since the last check to free workflow threads:"
        + " this worker allows " + workflowThreads + " (" + WorkerSettings.WORKFLOW_THREADS + "), and each"
        + " evicted workflow replays its whole history at its next task, which slows every run down. A group"
        + " step of ReAct or ReWOO agents holds a thread per agent. Raise " + WorkerSettings.WORKFLOW_THREADS
        + " where the cores allow, or run the worker on Java 21+ (virtual threads have no such limit).");
  }
}
