package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactoryOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A live worker's LLM call never times out for want of a heartbeat it was about to send: a worker so
 * loaded that 6 s pass between the server handing it a call and the call starting (seen at a 1-minute
 * load of 15 on 2 cores, where a 3 s heartbeat timeout passed before the first heartbeat, the completed
 * call's result was refused and the call ran again) still runs the call once, in its first attempt.
 */
class LoadedWorkerHeartbeatTest {
  private static final Duration SLOW_START = Duration.ofSeconds(6);

  private TestWorkflowEnvironment env;

  @AfterEach
  void tearDown() {
    if (env != null) {
      env.close();
    }
  }

  /** Holds each LLM activity back before it starts, as a CPU-starved worker does. */
  private static final class SlowStart extends WorkerInterceptorBase {
    @Override
    public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
      return new ActivityInboundCallsInterceptorBase(next) {
        private ActivityExecutionContext context;

        @Override
        public void init(ActivityExecutionContext context) {
          this.context = context;
          super.init(context);
        }

        @Override
        public ActivityOutput execute(ActivityInput input) {
          if (LlmActivities.CHAT_ACTIVITY_TYPE.equals(context.getInfo().getActivityType())) {
            try {
              Thread.sleep(SLOW_START.toMillis());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          return super.execute(input);
        }
      };
    }
  }

  @Test
  void aCallThatStartsLateOnALoadedWorkerRunsOnce() {
    AtomicInteger calls = new AtomicInteger();
    ChatModel model = new ChatModel() {
      @Override
      public ChatResponse doChat(ChatRequest request) {
        calls.incrementAndGet();
        return ChatResponse.builder().aiMessage(AiMessage.from("391")).build();
      }
    };
    env = TestWorkers.start(DurableAgentsPlugin.newBuilder().registerModel("slow-start", model).build(),
        TestEnvironmentOptions.newBuilder().setUseTimeskipping(false)
            .setWorkerFactoryOptions(WorkerFactoryOptions.newBuilder().setWorkerInterceptors(new SlowStart()).build())
            .build());
    String id = "loaded-worker-call";
    AgentTaskResult r = env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id)
                .setWorkflowExecutionTimeout(Duration.ofSeconds(60)).build())
        .run(new AgentTaskInput("What is 17 * 23?", null,
            AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel("slow-start").build()));

    assertEquals("391", r.answer());
    assertEquals(1, calls.get(), "the model was called once");
    List<HistoryEvent> events = env.getWorkflowClient().fetchHistory(id).getEvents();
    HistoryEvent started = events.stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED).findFirst().orElseThrow();
    assertEquals(1, started.getActivityTaskStartedEventAttributes().getAttempt(),
        "completed in its first attempt, never timed out");
  }
}
