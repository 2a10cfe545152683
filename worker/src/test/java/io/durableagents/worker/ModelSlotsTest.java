package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import io.durableagents.activities.llm.LlmRetryBudget;
import io.durableagents.activities.llm.LlmSettings;
import io.durableagents.activities.llm.LlmSlotLimits;
import io.durableagents.activities.metrics.MetricNames;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A model's slots ({@code DURABLE_AGENTS_LLM_SLOTS}) through the plugin's worker on Temporal's test
 * environment, against a stand-in for a local model server with one slot: it answers one request at a
 * time in 1 s, and the others queue in it while their time-out runs. Each call alone is well inside its
 * 2.5 s time-out and budget; five at once are not, unless they wait for the slot in the worker, where the
 * wait counts against none of their limits.
 */
class ModelSlotsTest {
  private static final String MODEL = "one-slot";
  private static final Duration ANSWER = Duration.ofMillis(1000);
  private static final Duration LIMIT = Duration.ofMillis(2500);
  private static final ObjectMapper JSON = new ObjectMapper();

  private TestWorkflowEnvironment env;
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  @AfterEach
  void tearDown() {
    if (env != null) {
      env.close();
    }
  }

  /** A model server with one slot: requests queue for it, interruptibly, as a cut call stops waiting. */
  private static final class OneSlotServer implements ChatModel {
    final ReentrantLock slot = new ReentrantLock(true);
    final AtomicInteger requests = new AtomicInteger();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger mostInFlight = new AtomicInteger();

    @Override
    public ChatResponse doChat(ChatRequest request) {
      requests.incrementAndGet();
      mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        slot.lockInterruptibly();
        try {
          Thread.sleep(ANSWER.toMillis());
        } finally {
          slot.unlock();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("the request was abandoned", e);
      } finally {
        inFlight.decrementAndGet();
      }
      return ChatResponse.builder().aiMessage(AiMessage.from("391")).build();
    }
  }

  private List<WorkflowStub> startAgents(OneSlotServer server, LlmSlotLimits slots, int agents) {
    env = TestWorkers.start(DurableAgentsPlugin.newBuilder()
            .registerModel(MODEL, server)
            .setLlmSettings(LlmSettings.newBuilder().timeout(LIMIT).retryBudget(LlmRetryBudget.of(LIMIT)).build())
            .setLlmSlots(slots)
            .setMeterRegistry(meters)
            .build(),
        TestEnvironmentOptions.newBuilder().setUseTimeskipping(false).build());
    List<WorkflowStub> runs = new ArrayList<>();
    for (int i = 0; i < agents; i++) {
      AgentTaskWorkflow agent = env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
          WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("agent-" + i)
              .setWorkflowExecutionTimeout(Duration.ofMinutes(1)).build());
      WorkflowClient.start(agent::run, new AgentTaskInput("What is 17 * 23?", null,
          AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel(MODEL).build()));
      runs.add(WorkflowStub.fromTyped(agent));
    }
    return runs;
  }

  @Test
  void callsWaitingForTheOneSlotAllSucceedAndNoneTimesOut() throws Exception {
    OneSlotServer server = new OneSlotServer();
    List<WorkflowStub> runs = startAgents(server, LlmSlotLimits.parse(MODEL + "=1"), 5);
    for (WorkflowStub run : runs) {
      assertEquals("391", run.getResult(60, TimeUnit.SECONDS, AgentTaskResult.class).answer());
    }
    assertEquals(5, server.requests.get(), "each call sent once: none timed out, none retried");
    assertEquals(1, server.mostInFlight.get(), "never more calls at the server than its slot");

    long mostWaited = 0;
    int waitedInHistory = 0;
    for (int i = 0; i < runs.size(); i++) {
      for (HistoryEvent e : env.getWorkflowClient().fetchHistory("agent-" + i).getEvents()) {
        if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
          assertEquals(1, e.getActivityTaskStartedEventAttributes().getAttempt(), "agent-" + i);
        }
        if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
          JsonNode response = JSON.readTree(e.getActivityTaskCompletedEventAttributes().getResult()
              .getPayloads(0).getData().toString(StandardCharsets.UTF_8));
          if (response.has("slotWaitMillis")) {
            waitedInHistory++;
            mostWaited = Math.max(mostWaited, response.get("slotWaitMillis").asLong());
          }
          assertTrue(response.get("latencyMillis").asLong() < LIMIT.toMillis(),
              "the latency is the model's, without the wait: " + response);
        }
      }
    }
    assertTrue(waitedInHistory >= 4, "the calls that waited say so in the step's history: " + waitedInHistory);
    assertTrue(mostWaited > LIMIT.toMillis(), "the last call waited longer than every limit: " + mostWaited + " ms");

    Timer waits = meters.find(MetricNames.LLM_SLOT_WAIT).tag("model", MODEL).timer();
    assertEquals(5, waits.count());
    assertTrue(waits.max(TimeUnit.MILLISECONDS) > LIMIT.toMillis(), "the longest wait: " + waits.max(TimeUnit.MILLISECONDS));
    assertEquals(0, meters.get(MetricNames.LLM_SLOT_CALLS).tags("model", MODEL, "state", "waiting").gauge().value());
    assertEquals(0, meters.get(MetricNames.LLM_SLOT_CALLS).tags("model", MODEL, "state", "running").gauge().value());
  }

  @Test
  void withoutSlotsTheCallsQueuedInTheServerTimeOut() throws Exception {
    OneSlotServer server = new OneSlotServer();
    List<WorkflowStub> runs = startAgents(server, LlmSlotLimits.none(), 3);
    int timedOut = 0;
    for (WorkflowStub run : runs) {
      try {
        run.getResult(60, TimeUnit.SECONDS, AgentTaskResult.class);
      } catch (WorkflowFailedException e) {
        ApplicationFailure f = assertInstanceOf(ApplicationFailure.class, e.getCause().getCause());
        assertEquals(LlmFailureTypes.TIMED_OUT, f.getType(), f.getOriginalMessage());
        assertTrue(f.getOriginalMessage().startsWith("no answer within DURABLE_AGENTS_LLM_TIMEOUT=2.5 s"),
            f.getOriginalMessage());
        timedOut++;
      }
    }
    assertTrue(timedOut >= 1, "the stand-in queues as a one-slot server does: the test above could fail");
    assertTrue(server.mostInFlight.get() >= 2, "calls went to the server at once: " + server.mostInFlight.get());
    assertThrows(Exception.class, () -> meters.get(MetricNames.LLM_SLOT_WAIT).timer(), "no slots, no waits");
  }

  @Test
  void whatAnEarlierAttemptWaitedForItsSlotIsNotCountedAgainstTheRetryBudget() throws Exception {
    // The first call holds the slot 3.5 s; the second waits that long, then fails twice. Counted, its
    // wait would leave its 4 s budget no room for a retry (the first retry's wait comes from the heartbeat
    // details of the first attempt); not counted, it is retried twice and answers.
    Duration limit = Duration.ofSeconds(4);
    AtomicInteger requests = new AtomicInteger();
    ChatModel model = new ChatModel() {
      @Override
      public ChatResponse doChat(ChatRequest request) {
        int n = requests.incrementAndGet();
        if (n == 1) {
          try {
            Thread.sleep(3500);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        } else if (n == 2 || n == 3) {
          throw new IllegalStateException("the model server failed");
        }
        return ChatResponse.builder().aiMessage(AiMessage.from("391")).build();
      }
    };
    env = TestWorkers.start(DurableAgentsPlugin.newBuilder()
            .registerModel(MODEL, model)
            .setLlmSettings(LlmSettings.newBuilder().timeout(limit).retryBudget(LlmRetryBudget.of(limit)).build())
            .setLlmSlots(LlmSlotLimits.of(1))
            .build(),
        TestEnvironmentOptions.newBuilder().setUseTimeskipping(false).build());
    List<WorkflowStub> runs = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      AgentTaskWorkflow agent = env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
          WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("agent-" + i)
              .setWorkflowExecutionTimeout(Duration.ofMinutes(1)).build());
      WorkflowClient.start(agent::run, new AgentTaskInput("What is 17 * 23?", null,
          AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel(MODEL).build()));
      runs.add(WorkflowStub.fromTyped(agent));
    }
    for (WorkflowStub run : runs) {
      assertEquals("391", run.getResult(60, TimeUnit.SECONDS, AgentTaskResult.class).answer());
    }
    assertEquals(4, requests.get(), "the failed call was retried twice");
  }

  @Test
  void aCallCancelledWhileItWaitsForTheSlotTakesNone() throws Exception {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
    ChatModel model = new ChatModel() {
      @Override
      public ChatResponse doChat(ChatRequest request) {
        asked.add(request.messages().toString());
        if (asked.size() == 1) {
          holding.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        }
        return ChatResponse.builder().aiMessage(AiMessage.from("391")).build();
      }
    };
    env = TestWorkers.start(DurableAgentsPlugin.newBuilder().registerModel(MODEL, model)
            .setLlmSlots(LlmSlotLimits.of(1)).setMeterRegistry(meters).build(),
        TestEnvironmentOptions.newBuilder().setUseTimeskipping(false).build());
    List<WorkflowStub> runs = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      AgentTaskWorkflow agent = env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
          WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("agent-" + i)
              .setWorkflowExecutionTimeout(Duration.ofMinutes(1)).build());
      WorkflowClient.start(agent::run, new AgentTaskInput("What is 17 * 23?", null,
          AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel(MODEL).build()));
      runs.add(WorkflowStub.fromTyped(agent));
      if (i == 0) {
        assertTrue(holding.await(30, TimeUnit.SECONDS), "the first call holds the slot");
      }
    }
    awaitGauge("waiting", 1);
    runs.get(1).cancel();
    awaitGauge("waiting", 0);
    release.countDown();
    assertEquals("391", runs.get(0).getResult(30, TimeUnit.SECONDS, AgentTaskResult.class).answer());
    // Had the cancelled call taken the slot, this one would wait for it until the test's limit.
    AgentTaskWorkflow next = env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("agent-2")
            .setWorkflowExecutionTimeout(Duration.ofSeconds(30)).build());
    assertEquals("391", next.run(new AgentTaskInput("What is 17 * 23?", null,
        AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel(MODEL).build())).answer());
    assertEquals(2, asked.size(), "the cancelled call never reached the model");
    awaitGauge("running", 0);
  }

  private void awaitGauge(String state, int value) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (meters.find(MetricNames.LLM_SLOT_CALLS).tags("model", MODEL, "state", state).gauge() == null
        || meters.get(MetricNames.LLM_SLOT_CALLS).tags("model", MODEL, "state", state).gauge().value() != value) {
      assertTrue(System.nanoTime() < deadline, "calls " + state + " never became " + value);
      Thread.sleep(20);
    }
  }
}
