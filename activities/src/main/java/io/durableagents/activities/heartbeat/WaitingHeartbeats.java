package io.durableagents.activities.heartbeat;

import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityCompletionException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Heartbeats an activity from a side thread while the activity's own thread is blocked in a model
 * call or a tool, so that Temporal notices within the heartbeat time-out when the worker running a
 * long call dies. Each heartbeat carries the latest details the activity gave ({@link
 * #details(Object)}), so that a retry can read where the last attempt got to.
 *
 * <p>{@link ActivityExecutionContext} is thread-safe: {@code Activity.getExecutionContext()} only
 * works on the activity thread (it is a thread-local), but the context it returns may be used from any
 * thread; Temporal's {@code HeartbeatContextImpl} guards its state with a lock and throttles the
 * heartbeats it actually sends.
 *
 * <p>When a heartbeat throws an {@link ActivityCompletionException} (the workflow cancelled the
 * activity, the heartbeat timed out, the activity is gone, the worker shuts down), the result of the
 * call would be thrown away: the heartbeats stop and the waiting thread is interrupted, which aborts
 * the JDK HTTP client's blocking {@code send} (or a tool's sleep). {@link #stop()} clears that
 * interrupt again and hands the exception back, for the activity to rethrow as Temporal expects.
 *
 * <pre>{@code
 * WaitingHeartbeats beats = WaitingHeartbeats.start(Activity.getExecutionContext(), Duration.ofSeconds(2));
 * try {
 *   response = model.chat(request);
 * } finally {
 *   beats.stop().ifPresent(stopped -> { throw stopped; });
 * }
 * }</pre>
 */
public final class WaitingHeartbeats {
  private static final Logger log = LoggerFactory.getLogger(WaitingHeartbeats.class);
  private static final ScheduledExecutorService SCHEDULER = scheduler();

  private final ActivityExecutionContext context;
  private final Thread waiter;
  private final Object lock = new Object();
  private final ScheduledFuture<?> task;
  private volatile Object details;
  // Guarded by lock.
  private boolean waiting = true;
  private ActivityCompletionException stopped;
  private boolean cut;
  private ScheduledFuture<?> cutTask;

  private WaitingHeartbeats(ActivityExecutionContext context, Duration every) {
    this.context = context;
    this.waiter = Thread.currentThread();
    long millis = Math.max(1, every.toMillis());
    this.task = SCHEDULER.scheduleAtFixedRate(this::beat, millis, millis, TimeUnit.MILLISECONDS);
  }

  /**
   * Starts heartbeating every {@code every} on behalf of the calling (activity) thread, the first time
   * {@code every} from now.
   */
  public static WaitingHeartbeats start(ActivityExecutionContext context, Duration every) {
    return new WaitingHeartbeats(context, every);
  }

  /**
   * As {@link #start(ActivityExecutionContext, Duration)}, with {@code details} in the heartbeats it
   * sends: a call that ends before {@code every} sends none (each heartbeat is a request to the server
   * and a write to its database).
   */
  public static WaitingHeartbeats start(ActivityExecutionContext context, Duration every, Object details) {
    WaitingHeartbeats beats = new WaitingHeartbeats(context, every);
    beats.details = details;
    return beats;
  }

  /**
   * Heartbeats now, on the calling thread, then every {@code every} as {@link #start} does. For an
   * activity with no details to keep from an earlier attempt (this heartbeat carries none): the server's
   * heartbeat timeout runs from when it handed out the task, so a worker too busy to start the activity
   * at once must not lose the call it is about to make for want of a first heartbeat.
   *
   * @throws ActivityCompletionException when the activity is already cancelled, timed out or gone
   */
  public static WaitingHeartbeats startNow(ActivityExecutionContext context, Duration every) {
    return startNow(context, every, null);
  }

  /**
   * As {@link #startNow(ActivityExecutionContext, Duration)}, with {@code details} in this heartbeat and
   * the following ones: what an earlier attempt left for the next is carried on.
   *
   * @throws ActivityCompletionException when the activity is already cancelled, timed out or gone
   */
  public static WaitingHeartbeats startNow(ActivityExecutionContext context, Duration every, Object details) {
    context.heartbeat(details);
    return start(context, every, details);
  }

  /**
   * Interrupts the waiting thread after {@code after} unless it is done by then ({@link #wasCut()} then
   * says so): a deadline shorter than the call's own time-out, such as what is left of a retry budget.
   */
  public void cutAfter(Duration after) {
    synchronized (lock) {
      cutTask = SCHEDULER.schedule(() -> {
        synchronized (lock) {
          if (waiting && stopped == null && !cut) {
            cut = true;
            waiter.interrupt();
          }
        }
      }, Math.max(1, after.toMillis()), TimeUnit.MILLISECONDS);
    }
  }

  /** True when {@link #cutAfter} interrupted the wait. Read it after {@link #stop()}. */
  public boolean wasCut() {
    synchronized (lock) {
      return cut;
    }
  }

  /**
   * Heartbeats now with {@code details}, and with them from now on: the activity says how far it got.
   * Called on the activity thread.
   *
   * @throws ActivityCompletionException when the activity is cancelled, timed out or gone
   */
  public void details(Object details) {
    this.details = details;
    context.heartbeat(details);
  }

  private void beat() {
    try {
      context.heartbeat(details);
    } catch (ActivityCompletionException e) {
      synchronized (lock) {
        if (waiting && stopped == null) {
          stopped = e;
          waiter.interrupt();
        }
      }
      // An exception ends a task scheduled at a fixed rate: no more heartbeats.
      throw e;
    } catch (RuntimeException e) {
      // Not a verdict on the activity (e.g. the service was briefly unreachable): try again next time.
      log.debug("heartbeat failed; trying again in the next interval", e);
    }
  }

  /**
   * Stops heartbeating. Call it on the activity thread once the call has returned or thrown.
   *
   * @return the exception that stopped the heartbeats (the activity should rethrow it), or empty
   */
  public Optional<ActivityCompletionException> stop() {
    task.cancel(false);
    synchronized (lock) {
      waiting = false;
      if (cutTask != null) {
        cutTask.cancel(false);
      }
      if (stopped != null || cut) {
        // The interrupt was ours, to abort the call; the activity thread goes back to Temporal clean.
        Thread.interrupted();
      }
      return Optional.ofNullable(stopped);
    }
  }

  private static ScheduledExecutorService scheduler() {
    AtomicInteger count = new AtomicInteger();
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(2, r -> {
      Thread t = new Thread(r, "activity-heartbeats-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    executor.setRemoveOnCancelPolicy(true);
    return executor;
  }
}
