package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.llm.slots.ModelSlotsWorkflow;
import io.durableagents.workflows.llm.slots.ModelSlotsWorkflowImpl;
import io.durableagents.workflows.llm.slots.SlotsState;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SharedModelSlots} against the slots workflow on Temporal's test environment: three callers with
 * one slot run one at a time and all get their turn; a caller interrupted while it waits leaves the line
 * and takes no slot; a model without a limit costs no call to Temporal; and the scope setting is checked.
 */
class SharedModelSlotsTest {
  private static final String MODEL = "openai:smollm2";
  private static final Duration HOLD = Duration.ofSeconds(60);

  private TestWorkflowEnvironment env;
  private WorkflowClient client;
  private final ExecutorService callers = Executors.newCachedThreadPool();

  @BeforeEach
  void start() {
    env = TestWorkflowEnvironment.newInstance();
    env.newWorker(TaskQueues.AGENTS).registerWorkflowImplementationTypes(ModelSlotsWorkflowImpl.class);
    env.start();
    client = env.getWorkflowClient();
  }

  @AfterEach
  void stop() {
    callers.shutdownNow();
    env.close();
  }

  @Test
  void threeCallersWithOneSlotRunOneAtATime() throws Exception {
    SharedModelSlots slots = new SharedModelSlots(LlmSlotLimits.parse(MODEL + "=1"), () -> client);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<Future<Duration>> calls = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      String holder = "sim/agent-" + i + "/step-1/5";
      calls.add(callers.submit(() -> {
        try (ModelSlots.Slot slot = slots.acquire(MODEL, holder, HOLD)) {
          most.accumulateAndGet(running.incrementAndGet(), Math::max);
          Thread.sleep(200);
          running.decrementAndGet();
          return slot.waited();
        }
      }));
    }
    List<Duration> waited = new ArrayList<>();
    for (Future<Duration> call : calls) {
      waited.add(call.get(60, TimeUnit.SECONDS));
    }
    assertEquals(1, most.get(), "calls at once with one slot");
    assertTrue(waited.stream().filter(w -> w.toMillis() >= 150).count() >= 2,
        "two of the three callers waited for the one before them: " + waited);
    assertEquals(List.of(), state().holders(), "every slot was given back");
  }

  @Test
  void twelveCallersWithOneSlotAllGetTheirTurnThoughOnlyFiveWaitInTheWorkflow() throws Exception {
    SharedModelSlots slots = new SharedModelSlots(LlmSlotLimits.parse(MODEL + "=1"), () -> client);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<Future<?>> calls = new ArrayList<>();
    for (int i = 1; i <= 12; i++) {
      String holder = "sim/agent-" + i + "/step-1/5";
      calls.add(callers.submit(() -> {
        try (ModelSlots.Slot slot = slots.acquire(MODEL, holder, HOLD)) {
          most.accumulateAndGet(running.incrementAndGet(), Math::max);
          Thread.sleep(50);
          running.decrementAndGet();
        }
        return null;
      }));
    }
    for (Future<?> call : calls) {
      call.get(120, TimeUnit.SECONDS);
    }
    assertEquals(1, most.get());
    assertEquals(List.of(), state().holders());
    assertEquals(List.of(), state().waiting());
  }

  @Test
  void aCallFarBackInLinePausesLongerBeforeItAsksAgain() {
    assertEquals(Duration.ofMillis(500), SharedModelSlots.pause(ModelSlotsWorkflow.MOST_WAITING_UPDATES));
    assertEquals(Duration.ofMillis(1500), SharedModelSlots.pause(ModelSlotsWorkflow.MOST_WAITING_UPDATES + 2));
    assertEquals(SharedModelSlots.LONGEST_PAUSE, SharedModelSlots.pause(1_000));
  }

  @Test
  void aCallerInterruptedWhileWaitingLeavesTheLineAndTakesNoSlot() throws Exception {
    SharedModelSlots slots = new SharedModelSlots(LlmSlotLimits.parse(MODEL + "=1"), () -> client);
    ModelSlots.Slot first = slots.acquire(MODEL, "call-1", HOLD);
    CountDownLatch started = new CountDownLatch(1);
    CompletableFuture<Thread> waiter = new CompletableFuture<>();
    Future<?> waiting = callers.submit(() -> {
      waiter.complete(Thread.currentThread());
      started.countDown();
      return slots.acquire(MODEL, "call-2", HOLD);
    });
    started.await();
    awaitTrue(() -> state().waiting().stream().anyMatch(w -> w.holder().equals("call-2")), "call-2 to wait in line");
    waiter.get().interrupt();
    java.util.concurrent.ExecutionException failed = assertThrows(java.util.concurrent.ExecutionException.class,
        () -> waiting.get(30, TimeUnit.SECONDS));
    assertTrue(failed.getCause() instanceof InterruptedException, String.valueOf(failed.getCause()));
    awaitTrue(() -> state().waiting().isEmpty(), "call-2 to leave the line");
    first.close();
    awaitTrue(() -> state().holders().isEmpty(), "the slot to be free");
    try (ModelSlots.Slot again = slots.acquire(MODEL, "call-3", HOLD)) {
      assertEquals(List.of("call-3"), state().holders().stream().map(SlotsState.Lease::holder).toList());
    }
  }

  @Test
  void aModelWithoutALimitCostsNoCallToTemporal() throws Exception {
    SharedModelSlots slots = new SharedModelSlots(LlmSlotLimits.parse(MODEL + "=1"), () -> {
      throw new AssertionError("no client is needed for a model without a limit");
    });
    assertSame(ModelSlots.Slot.FREE, slots.acquire("openai:gpt-4o-mini", "call-1", HOLD));
  }

  @Test
  void theScopeIsWorkerOrSharedAndNothingElse() {
    assertEquals(LlmSlotsScope.WORKER, LlmSlotsScope.parse(null));
    assertEquals(LlmSlotsScope.WORKER, LlmSlotsScope.parse(" Worker "));
    assertEquals(LlmSlotsScope.SHARED, LlmSlotsScope.parse("shared"));
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> LlmSlotsScope.parse("cluster"));
    assertTrue(bad.getMessage().contains(LlmSlotsScope.VARIABLE) && bad.getMessage().contains("'cluster'")
        && bad.getMessage().contains("worker") && bad.getMessage().contains("shared"), bad.getMessage());
    ModelSlots perWorker = (model, holder, hold) -> ModelSlots.Slot.FREE;
    assertSame(ModelSlots.NONE, LlmSlotsScope.SHARED.slots(LlmSlotLimits.none(), () -> perWorker));
    assertSame(perWorker, LlmSlotsScope.WORKER.slots(LlmSlotLimits.of(1), () -> perWorker));
    assertTrue(LlmSlotsScope.SHARED.slots(LlmSlotLimits.of(1), () -> perWorker) instanceof SharedModelSlots);
  }

  private SlotsState state() {
    return client.newWorkflowStub(ModelSlotsWorkflow.class, ModelSlotsWorkflow.workflowId(MODEL)).slots();
  }

  private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(10);
    }
  }
}
