package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.durableagents.scenarios.Builtins;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptorBase;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Replays a history and checks that the workflow returns what the history says it returned. Temporal's
 * replay compares the kinds of commands, not their inputs: a change that starts the same activities in
 * another order replays without complaint and hands each call another call's result. The result shows
 * it.
 */
final class SameResultReplay {
  private SameResultReplay() {}

  /**
   * Replays {@code history} with {@code types}; when it ends with a completion, asserts the replayed
   * workflow returned the same JSON.
   */
  static void replay(String name, WorkflowExecutionHistory history, Class<?>... types) throws Exception {
    AtomicReference<Object> returned = new AtomicReference<>();
    WorkerInterceptorBase capture = new WorkerInterceptorBase() {
      @Override
      public WorkflowInboundCallsInterceptor interceptWorkflow(WorkflowInboundCallsInterceptor next) {
        return new WorkflowInboundCallsInterceptorBase(next) {
          @Override
          public WorkflowOutput execute(WorkflowInput input) {
            WorkflowOutput output = super.execute(input);
            returned.set(output.getResult());
            return output;
          }
        };
      }
    };
    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
        .setWorkerFactoryOptions(WorkerFactoryOptions.newBuilder().setWorkerInterceptors(capture).build())
        .build())) {
      Worker worker = env.newWorker("replay");
      // the simulation and agent step workflows take the scenarios they know in their constructor
      Builtins.registerWorkflows(worker);
      worker.registerWorkflowImplementationTypes(Arrays.stream(types)
          .filter(SameResultReplay::hasNoArgumentConstructor).toArray(Class<?>[]::new));
      WorkflowReplayer.replayWorkflowExecution(history, worker);
    }
    HistoryEvent last = history.getLastEvent();
    if (last.getEventType() != EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED) {
      return;
    }
    // the recorded result read as today's type and written again: results recorded before a field was
    // added or renamed compare by their values
    Method method = workflowMethod(
        history.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getWorkflowType().getName(),
        types);
    DataConverter json = DefaultDataConverter.STANDARD_INSTANCE;
    Object recorded = json.fromPayloads(0,
        Optional.of(last.getWorkflowExecutionCompletedEventAttributes().getResult()),
        method.getReturnType(), method.getGenericReturnType());
    String was = text(json.toPayloads(recorded));
    String is = text(json.toPayloads(returned.get()));
    ObjectMapper mapper = new ObjectMapper();
    if (!contains(mapper.readTree(is), mapper.readTree(was))) {
      assertEquals(was, is, name + ": the replay returned another result than the recorded run");
    }
  }

  /**
   * Whether {@code replayed} holds every value of {@code recorded}: fields added since the recording
   * (written now, absent then) are not a difference.
   */
  private static boolean contains(JsonNode replayed, JsonNode recorded) {
    if (recorded.isObject()) {
      if (!replayed.isObject()) {
        return false;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = recorded.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        if (!replayed.has(f.getKey()) || !contains(replayed.get(f.getKey()), f.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (recorded.isArray()) {
      if (!replayed.isArray() || replayed.size() != recorded.size()) {
        return false;
      }
      for (int i = 0; i < recorded.size(); i++) {
        if (!contains(replayed.get(i), recorded.get(i))) {
          return false;
        }
      }
      return true;
    }
    return recorded.equals(replayed);
  }

  private static String text(Optional<Payloads> payloads) {
    return payloads.orElseThrow().getPayloads(0).getData().toStringUtf8();
  }

  /** The workflow method of the implementation among {@code types} whose workflow type is {@code type}. */
  private static Method workflowMethod(String type, Class<?>... types) {
    for (Class<?> impl : types) {
      for (Class<?> i : impl.getInterfaces()) {
        if (!i.isAnnotationPresent(WorkflowInterface.class)) {
          continue;
        }
        for (Method m : i.getMethods()) {
          WorkflowMethod wm = m.getAnnotation(WorkflowMethod.class);
          if (wm != null && type.equals(wm.name().isEmpty() ? i.getSimpleName() : wm.name())) {
            return m;
          }
        }
      }
    }
    throw new AssertionError("no workflow method of type " + type);
  }

  private static boolean hasNoArgumentConstructor(Class<?> type) {
    // or one the SDK calls with the workflow's input (@WorkflowInit), as the models' slots workflow has
    return Arrays.stream(type.getConstructors()).anyMatch(c -> c.getParameterCount() == 0
        || c.isAnnotationPresent(io.temporal.workflow.WorkflowInit.class));
  }
}
