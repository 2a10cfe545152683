package io.durableagents.activities.llm;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker's slots ({@code DURABLE_AGENTS_LLM_SLOTS}, {@link LlmSlotLimits}): a fair semaphore per model
 * in this process, so that calls of a model over its slots wait here, first come first served, while
 * their activities heartbeat. A model with no limit never waits ({@link ModelSlots.Slot#FREE}).
 *
 * <p>A holder that already holds a slot of the model (an earlier attempt of the same call, still on its
 * way out on this worker) shares it instead of taking a second one. A slot not given back within its
 * {@code holdAtMost} (a model that ignores the interrupt that ends its call) is freed then, with a
 * warning; its late {@link Slot#close()} does nothing.
 *
 * <pre>{@code
 * ModelSlots slots = WorkerModelSlots.of(LlmSlotLimits.parse("openai:smollm2=1"));
 * try (ModelSlots.Slot slot = slots.acquire("openai:smollm2", "wf-1/3", Duration.ofSeconds(90))) {
 *   model.chat(request);
 * }
 * }</pre>
 */
public final class WorkerModelSlots implements ModelSlots {
  private static final Logger log = LoggerFactory.getLogger(WorkerModelSlots.class);
  private static final ScheduledExecutorService EXPIRIES = expiries();

  private final LlmSlotLimits limits;
  private final Map<String, ModelQueue> queues = new ConcurrentHashMap<>();

  private WorkerModelSlots(LlmSlotLimits limits) {
    this.limits = limits;
  }

  /** The slots of {@code limits} in this process; {@link ModelSlots#NONE} when no model has a limit. */
  public static ModelSlots of(LlmSlotLimits limits) {
    return limits == null || limits.isNone() ? NONE : new WorkerModelSlots(limits);
  }

  @Override
  public Slot acquire(String model, String holder, Duration holdAtMost) throws InterruptedException {
    int slots = limits.of(model);
    if (slots <= 0) {
      return Slot.FREE;
    }
    return queues.computeIfAbsent(model.trim(), m -> new ModelQueue(m, slots)).acquire(holder, holdAtMost);
  }

  /** Calls of {@code model} holding one of its slots now. */
  public int running(String model) {
    ModelQueue q = queues.get(model.trim());
    return q == null ? 0 : q.slots - q.semaphore.availablePermits();
  }

  /** Calls of {@code model} waiting for one of its slots now. */
  public int waiting(String model) {
    ModelQueue q = queues.get(model.trim());
    return q == null ? 0 : q.semaphore.getQueueLength();
  }

  /** One model's slots. */
  private static final class ModelQueue {
    final String model;
    final int slots;
    /** Fair: waiters are served in the order they came. */
    final Semaphore semaphore;
    /** Guarded by this. */
    final Map<String, Lease> held = new HashMap<>();

    ModelQueue(String model, int slots) {
      this.model = model;
      this.slots = slots;
      this.semaphore = new Semaphore(slots, true);
    }

    Slot acquire(String holder, Duration holdAtMost) throws InterruptedException {
      synchronized (this) {
        Lease shared = held.get(holder);
        if (shared != null) {
          shared.refs++;
          return Slot.of(Duration.ZERO, () -> release(shared));
        }
      }
      long start = System.nanoTime();
      // Interruptible: a cancelled or timed-out call leaves the queue and takes no permit.
      semaphore.acquire();
      Duration waited = Duration.ofNanos(System.nanoTime() - start);
      synchronized (this) {
        Lease shared = held.get(holder);
        if (shared != null) {
          // Another attempt of the same call took one while this one waited.
          semaphore.release();
          shared.refs++;
          return Slot.of(waited, () -> release(shared));
        }
        Lease lease = new Lease(holder);
        held.put(holder, lease);
        lease.expiry = EXPIRIES.schedule(() -> expire(lease, holdAtMost),
            Math.max(1, holdAtMost.toMillis()), TimeUnit.MILLISECONDS);
        return Slot.of(waited, () -> release(lease));
      }
    }

    synchronized void release(Lease lease) {
      if (lease.released || --lease.refs > 0) {
        return;
      }
      lease.released = true;
      held.remove(lease.holder, lease);
      if (lease.expiry != null) {
        lease.expiry.cancel(false);
      }
      semaphore.release();
    }

    synchronized void expire(Lease lease, Duration holdAtMost) {
      if (lease.released) {
        return;
      }
      log.warn("a call of {} ({}) kept its slot past {} ms: freed for the next call", model, lease.holder,
          holdAtMost.toMillis());
      lease.released = true;
      held.remove(lease.holder, lease);
      semaphore.release();
    }
  }

  /** A holder's slot of a model, shared by its attempts on this worker. */
  private static final class Lease {
    final String holder;
    int refs = 1;
    boolean released;
    ScheduledFuture<?> expiry;

    Lease(String holder) {
      this.holder = holder;
    }
  }

  private static ScheduledExecutorService expiries() {
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "llm-slot-expiries");
      t.setDaemon(true);
      return t;
    });
    executor.setRemoveOnCancelPolicy(true);
    return executor;
  }

  @Override
  public String toString() {
    return "WorkerModelSlots{" + limits + "}";
  }
}
