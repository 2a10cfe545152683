package io.durableagents.devserver;

import io.temporal.internal.testservice.TestServicesStarter;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the events that arrived during a workflow task that timed out. Temporal's Java test server holds
 * what happens to a run while a worker runs its workflow task (a child workflow started or completed, a
 * signal, an activity's result) and writes it when the task completes or fails. When the task times out
 * (its worker was killed with {@code kill -9}), it writes {@code WorkflowTaskTimedOut}, schedules the next
 * attempt and keeps holding those events: what arrives from then on, while no task runs, is written at
 * once, ahead of them. A child workflow that started during the dead worker's task and completes after the
 * timeout then has its {@code ChildWorkflowExecutionCompleted} in the history without its
 * {@code ChildWorkflowExecutionStarted} (written later, after the next task, if ever), and every worker
 * fails every task of the run for good: {@code ChildWorkflowStateMachine: invalid
 * START_EVENT_RECORDED->CHILD_WORKFLOW_EXECUTION_COMPLETED} (issue 26; the completion's
 * {@code startedEventId} names the id the held event was given, that of the {@code WorkflowTaskTimedOut}).
 *
 * <p>The test server runs a task's timeout from its clock's queue. This swaps that queue, by reflection,
 * for one that wraps each workflow task timeout as it is scheduled: under the run's lock, the timeout runs
 * as it did, then the held events are written (after the timeout and the next attempt's
 * {@code WorkflowTaskScheduled}, as signals arriving then would be; the next attempt sees them), as a
 * failed task's are. If the test server's internals change and cannot be reached, timeouts run as they
 * are and the log says so once.
 */
final class WorkflowTaskTimeouts {
  private static final Logger log = LoggerFactory.getLogger(WorkflowTaskTimeouts.class);
  private static final String PKG = "io.temporal.internal.testservice.";
  /** What the test server names a workflow task's start-to-close timeout on its clock. */
  static final String TIMEOUT_TASK = "WorkflowTask StartToCloseTimeout";

  private final Field runnable;
  private final Field taskInfo;
  private final Class<?> stateClass;
  private final Field lock;
  private final Field workflowTask;
  private final Method getState;
  private final Method getData;
  private final Field bufferedEvents;
  private final Method update;
  private final Class<?> updateProcedure;
  private final Method addContext;
  private final Object started;
  private final AtomicLong written = new AtomicLong();
  private volatile boolean warned;

  private WorkflowTaskTimeouts() throws ReflectiveOperationException {
    Class<?> timerTask = Class.forName(PKG + "SelfAdvancingTimerImpl$TimerTask");
    runnable = accessible(timerTask.getDeclaredField("runnable"));
    taskInfo = accessible(timerTask.getDeclaredField("taskInfo"));
    stateClass = Class.forName(PKG + "TestWorkflowMutableStateImpl");
    lock = accessible(stateClass.getDeclaredField("lock"));
    workflowTask = accessible(stateClass.getDeclaredField("workflowTaskStateMachine"));
    Class<?> stateMachine = Class.forName(PKG + "StateMachine");
    getState = accessible(stateMachine.getDeclaredMethod("getState"));
    getData = accessible(stateMachine.getDeclaredMethod("getData"));
    bufferedEvents = accessible(
        Class.forName(PKG + "StateMachines$WorkflowTaskData").getDeclaredField("bufferedEvents"));
    updateProcedure = Class.forName(PKG + "TestWorkflowMutableStateImpl$UpdateProcedure");
    update = accessible(stateClass.getDeclaredMethod("update", updateProcedure));
    Class<?> context = Class.forName(PKG + "RequestContext");
    addContext = accessible(context.getDeclaredMethod("add", context));
    @SuppressWarnings({"unchecked", "rawtypes"})
    Object s = Enum.valueOf((Class) Class.forName(PKG + "StateMachines$State"), "STARTED");
    started = s;
  }

  /**
   * Makes {@code services}' workflow task timeouts write the events held during the task; returns the
   * patch (for its count), or null (and a warning) when the test server's internals cannot be reached.
   */
  static WorkflowTaskTimeouts install(TestServicesStarter services) {
    try {
      WorkflowTaskTimeouts patch = new WorkflowTaskTimeouts();
      Object timer = field(services.getClass(), "selfAdvancingTimer").get(services);
      Field tasks = field(timer.getClass(), "tasks");
      Lock timerLock = (Lock) field(timer.getClass(), "lock").get(timer);
      timerLock.lock();
      try {
        @SuppressWarnings("unchecked")
        PriorityQueue<Object> stock = (PriorityQueue<Object>) tasks.get(timer);
        tasks.set(timer, patch.new WrappingQueue(stock));
      } finally {
        timerLock.unlock();
      }
      return patch;
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.warn("cannot reach the test server's workflow task timeouts ({}); a run whose worker dies "
          + "during a workflow task may be left with events out of order", e.toString());
      return null;
    }
  }

  /** How many held events' changes were written after timeouts so far, for tests. */
  long written() {
    return written.get();
  }

  /** The clock's queue of timer tasks, which wraps a workflow task timeout as it is added. */
  private final class WrappingQueue extends PriorityQueue<Object> {
    WrappingQueue(PriorityQueue<Object> stock) {
      super(Math.max(1, stock.size()), stock.comparator());
      super.addAll(stock);
    }

    @Override
    public boolean offer(Object timerTask) {
      wrap(timerTask);
      return super.offer(timerTask);
    }
  }

  private void wrap(Object timerTask) {
    try {
      if (!TIMEOUT_TASK.equals(taskInfo.get(timerTask))) {
        return;
      }
      Runnable timeout = (Runnable) runnable.get(timerTask);
      Object state = capturedState(timeout);
      if (state == null) {
        warnOnce("the run of a workflow task timeout is not found");
        return;
      }
      Lock runLock = (Lock) lock.get(state);
      runnable.set(timerTask, (Runnable) () -> {
        runLock.lock();
        try {
          timeout.run();
          writeHeld(state);
        } finally {
          runLock.unlock();
        }
      });
    } catch (ReflectiveOperationException | RuntimeException e) {
      warnOnce(e.toString());
    }
  }

  /** The run whose timeout this is: the test server's lambda captures it. */
  private Object capturedState(Runnable timeout) throws IllegalAccessException {
    for (Field f : timeout.getClass().getDeclaredFields()) {
      if (stateClass.isAssignableFrom(f.getType())) {
        f.setAccessible(true);
        return f.get(timeout);
      }
    }
    return null;
  }

  /**
   * Writes the changes the run holds for a workflow task that no longer runs (the one that timed out);
   * the caller holds the run's lock. A task that still runs (the timeout was a stale one) keeps them.
   */
  private void writeHeld(Object state) {
    try {
      Object machine = workflowTask.get(state);
      if (machine == null || getState.invoke(machine) == started) {
        return;
      }
      @SuppressWarnings("unchecked")
      List<Object> held = (List<Object>) bufferedEvents.get(getData.invoke(machine));
      if (held.isEmpty()) {
        return;
      }
      int count = held.size();
      InvocationHandler apply = (proxy, method, args) -> {
        if (!method.getName().equals("apply")) {
          return method.invoke(this, args); // toString, hashCode, equals of the proxy
        }
        for (Object change : held) {
          addContext.invoke(args[0], change);
        }
        held.clear();
        return null;
      };
      Object procedure = Proxy.newProxyInstance(updateProcedure.getClassLoader(),
          new Class<?>[] {updateProcedure}, apply);
      update.invoke(state, procedure);
      written.addAndGet(count);
    } catch (java.lang.reflect.InvocationTargetException e) {
      // a run closed in the meantime (NOT_FOUND) has nothing left to write
      log.debug("cannot write the events held during a timed-out workflow task", e.getCause());
    } catch (ReflectiveOperationException | RuntimeException e) {
      warnOnce(e.toString());
    }
  }

  private void warnOnce(String why) {
    if (!warned) {
      warned = true;
      log.warn("cannot write the events held during a timed-out workflow task ({}); a run whose worker "
          + "dies during a workflow task may be left with events out of order", why);
    }
  }

  private static Field field(Class<?> type, String name) throws NoSuchFieldException {
    return accessible(type.getDeclaredField(name));
  }

  private static <T extends java.lang.reflect.AccessibleObject> T accessible(T member) {
    member.setAccessible(true);
    return member;
  }
}
