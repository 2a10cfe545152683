package io.durableagents.devserver;

import io.temporal.internal.testservice.TestServicesStarter;
import java.lang.reflect.Field;
import java.util.LinkedList;
import java.util.concurrent.locks.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the largest cost of Temporal's Java test server under load. Its clock
 * ({@code SelfAdvancingTimerImpl}) records every time-skipping lock and unlock in a {@code LinkedList}
 * that it keeps for diagnostics: every request locks and unlocks, each unlock by handle searches the
 * list from its head ({@code LinkedList.remove(Object)}), and the locks released by name (every
 * workflow task's) and the releases by name are never removed, so the list, the server's memory and
 * the time of every request grow with all the traffic the server has ever had. Profiled under a 500-agent simulation, a third of the server's CPU samples were in that search.
 *
 * <p>The embedded Temporal never skips time (time skipping is locked for good), so the record serves
 * only the test server's diagnostics. This swaps the list, by reflection, for one that keeps nothing;
 * the lock counting itself is untouched. If the test server's internals change and the fields are not
 * found, the server runs as it is and says so in its log.
 */
final class TimerLockBookkeeping {
  private static final Logger log = LoggerFactory.getLogger(TimerLockBookkeeping.class);

  private TimerLockBookkeeping() {}

  /** Swaps the lock record of {@code services}' clock; false (and a warning) when it cannot. */
  static boolean streamline(TestServicesStarter services) {
    try {
      Object timer = field(services.getClass(), "selfAdvancingTimer").get(services);
      Field events = field(timer.getClass(), "lockEvents");
      Lock lock = (Lock) field(timer.getClass(), "lock").get(timer);
      lock.lock();
      try {
        events.set(timer, new NoLockRecord());
      } finally {
        lock.unlock();
      }
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.warn("cannot streamline the test server's time-skipping lock record ({}); it runs unchanged, "
          + "slower under load", e.toString());
      return false;
    }
  }

  private static Field field(Class<?> type, String name) throws NoSuchFieldException {
    Field f = type.getDeclaredField(name);
    f.setAccessible(true);
    return f;
  }

  /**
   * A lock record that records nothing: the lock count, which is what the clock acts on, is kept
   * apart from it. (The stock record never forgets a lock released by name, such as every workflow
   * task's, nor any release by name, so even a record of the locks still taken would grow forever.)
   */
  static final class NoLockRecord extends LinkedList<Object> {
    @Override
    public boolean add(Object event) {
      return true;
    }

    @Override
    public boolean remove(Object event) {
      return true;
    }
  }
}
