package io.durableagents.devserver;

import com.google.protobuf.ByteString;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.temporal.api.command.v1.Command;
import io.temporal.api.enums.v1.CommandType;
import io.temporal.api.workflowservice.v1.RespondWorkflowTaskCompletedRequest;
import io.temporal.api.workflowservice.v1.WorkflowServiceGrpc;
import io.temporal.internal.testservice.TestServicesStarter;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the closing event of a run that continues as new. Temporal's Java test server loses it
 * whenever anything touched the run while its last workflow task ran: a query (the CLI's progress
 * polls, the UI), an activity's heartbeat. The test server buffers such a request as an empty change
 * to apply when the task completes; completing the task with a continue-as-new command, it sees the
 * buffer non-empty and schedules another workflow task on the run it has just closed (its check for a
 * closed run lists completed, failed and canceled, not continued-as-new). Adding that event throws
 * {@code NOT_FOUND "workflow execution already completed"}, and the whole completion — the
 * {@code WorkflowTaskCompleted} and {@code WorkflowExecutionContinuedAsNew} events — is never written,
 * although the next run has already started. The run's history then ends at
 * {@code WorkflowTaskStarted}: it cannot be exported whole, replayed or read, the worker logs "Failure
 * while reporting workflow progress", and the buffered query waits out its deadline.
 *
 * <p>This interceptor runs a completion that continues as new under the run's own lock after taking
 * the buffered changes that carry no event out of the way: the run is closing, so there is nothing
 * left for them to do (buffered changes that carry events are left, and the test server fails the task
 * as a real server does, to be run again with them). Buffered queries are kept apart by the test
 * server and still answered. If the test server's internals change and cannot be reached, completions
 * pass through unchanged and the log says so once.
 */
final class ContinueAsNewCompletions implements ServerInterceptor {
  private static final Logger log = LoggerFactory.getLogger(ContinueAsNewCompletions.class);
  private static final String METHOD =
      WorkflowServiceGrpc.getRespondWorkflowTaskCompletedMethod().getFullMethodName();

  private final Internals internals;
  private final AtomicLong cleared = new AtomicLong();

  ContinueAsNewCompletions(TestServicesStarter services) {
    Internals found;
    try {
      found = new Internals(services);
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.warn("cannot reach the test server's workflow task state ({}); a run that continues as new "
          + "while it is queried may lose its closing event", e.toString());
      found = null;
    }
    this.internals = found;
  }

  /** How many buffered empty changes were taken out of closing runs' way, for tests. */
  long cleared() {
    return cleared.get();
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(ServerCall<ReqT, RespT> call,
      Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    ServerCall.Listener<ReqT> listener = next.startCall(call, headers);
    if (internals == null || !METHOD.equals(call.getMethodDescriptor().getFullMethodName())) {
      return listener;
    }
    return new SimpleForwardingServerCallListener<>(listener) {
      private RespondWorkflowTaskCompletedRequest request;

      @Override
      public void onMessage(ReqT message) {
        request = (RespondWorkflowTaskCompletedRequest) message;
        super.onMessage(message);
      }

      @Override
      public void onHalfClose() {
        Lock lock = request != null && continuesAsNew(request)
            ? internals.runLock(request.getTaskToken())
            : null;
        if (lock == null) {
          super.onHalfClose();
          return;
        }
        // The unary handler completes the task in this thread, inside onHalfClose: under this lock
        // (the run's own, re-entrant) nothing can be buffered between the clearing and the completion.
        lock.lock();
        try {
          cleared.addAndGet(internals.clearEmptyBuffered(request.getTaskToken()));
          super.onHalfClose();
        } finally {
          lock.unlock();
        }
      }
    };
  }

  private static boolean continuesAsNew(RespondWorkflowTaskCompletedRequest request) {
    for (Command command : request.getCommandsList()) {
      if (command.getCommandType() == CommandType.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION) {
        return true;
      }
    }
    return false;
  }

  /** The test server's private parts this needs, found once. */
  private static final class Internals {
    private final Object service;
    private final Method fromBytes;
    private final Method getExecutionId;
    private final Method getMutableState;
    private final Field lock;
    private final Field workflowTask;
    private final Method getData;
    private final Field bufferedEvents;
    private final Method getEvents;
    private final Method getActivityTasks;
    private final Method getNexusTasks;

    Internals(TestServicesStarter services) throws ReflectiveOperationException {
      String pkg = "io.temporal.internal.testservice.";
      service = services.getWorkflowService();
      Class<?> token = Class.forName(pkg + "WorkflowTaskToken");
      fromBytes = accessible(token.getDeclaredMethod("fromBytes", ByteString.class));
      getExecutionId = accessible(token.getDeclaredMethod("getExecutionId"));
      Class<?> executionId = Class.forName(pkg + "ExecutionId");
      getMutableState = accessible(
          service.getClass().getDeclaredMethod("getMutableState", executionId, boolean.class));
      Class<?> state = Class.forName(pkg + "TestWorkflowMutableStateImpl");
      lock = accessible(state.getDeclaredField("lock"));
      workflowTask = accessible(state.getDeclaredField("workflowTaskStateMachine"));
      getData = accessible(Class.forName(pkg + "StateMachine").getDeclaredMethod("getData"));
      bufferedEvents = accessible(
          Class.forName(pkg + "StateMachines$WorkflowTaskData").getDeclaredField("bufferedEvents"));
      Class<?> context = Class.forName(pkg + "RequestContext");
      getEvents = accessible(context.getDeclaredMethod("getEvents"));
      getActivityTasks = accessible(context.getDeclaredMethod("getActivityTasks"));
      getNexusTasks = accessible(context.getDeclaredMethod("getNexusTasks"));
    }

    /** The run's lock, or null when the run is unknown (the test server then answers as it does). */
    Lock runLock(ByteString taskToken) {
      Object state = state(taskToken);
      if (state == null || !lock.getDeclaringClass().isInstance(state)) {
        return null;
      }
      try {
        return (Lock) lock.get(state);
      } catch (ReflectiveOperationException e) {
        return null;
      }
    }

    /** Removes the buffered changes with no event and no task; the caller holds the run's lock. */
    int clearEmptyBuffered(ByteString taskToken) {
      try {
        Object state = state(taskToken);
        @SuppressWarnings("unchecked")
        List<Object> buffered =
            (List<Object>) bufferedEvents.get(getData.invoke(workflowTask.get(state)));
        int before = buffered.size();
        buffered.removeIf(this::empty);
        return before - buffered.size();
      } catch (ReflectiveOperationException | RuntimeException e) {
        log.warn("cannot clear the buffered changes of a run that continues as new: {}", e.toString());
        return 0;
      }
    }

    private boolean empty(Object context) {
      try {
        return ((List<?>) getEvents.invoke(context)).isEmpty()
            && ((List<?>) getActivityTasks.invoke(context)).isEmpty()
            && ((List<?>) getNexusTasks.invoke(context)).isEmpty();
      } catch (ReflectiveOperationException e) {
        return false;
      }
    }

    private Object state(ByteString taskToken) {
      try {
        Object token = fromBytes.invoke(null, taskToken);
        return getMutableState.invoke(service, getExecutionId.invoke(token), false);
      } catch (ReflectiveOperationException | RuntimeException e) {
        return null;
      }
    }

    private static <T extends java.lang.reflect.AccessibleObject> T accessible(T member) {
      member.setAccessible(true);
      return member;
    }
  }
}
