package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WorkerModelSlotsTest {
  private static final String MODEL = "openai:smollm2";
  private static final Duration HOLD = Duration.ofMinutes(1);

  private final WorkerModelSlots slots = (WorkerModelSlots) WorkerModelSlots.of(LlmSlotLimits.parse(MODEL + "=1"));

  /** Waits until {@code n} calls queue for the model: the order they queued in is the order they came. */
  private void awaitWaiting(int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (slots.waiting(MODEL) != n) {
      assertTrue(System.nanoTime() < deadline, "waiting: " + slots.waiting(MODEL) + ", expected " + n);
      Thread.sleep(5);
    }
  }

  @Test
  void noLimitIsNoWaitingAndNoImplementation() throws Exception {
    assertSame(ModelSlots.NONE, WorkerModelSlots.of(LlmSlotLimits.none()));
    assertSame(ModelSlots.Slot.FREE, slots.acquire("rules", "a", HOLD), "a model without a limit");
  }

  @Test
  void waitersAreServedInTheOrderTheyCame() throws Exception {
    ModelSlots.Slot first = slots.acquire(MODEL, "first", HOLD);
    List<String> order = new CopyOnWriteArrayList<>();
    List<CompletableFuture<Void>> waiters = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String holder = "call-" + i;
      waiters.add(CompletableFuture.runAsync(() -> {
        try (ModelSlots.Slot slot = slots.acquire(MODEL, holder, HOLD)) {
          order.add(holder);
          assertEquals(1, slots.running(MODEL));
          assertTrue(slot.waited().toNanos() > 0);
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }));
      awaitWaiting(i + 1);
    }
    assertEquals(1, slots.running(MODEL));
    first.close();
    CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    assertEquals(List.of("call-0", "call-1", "call-2", "call-3", "call-4"), order);
    assertEquals(0, slots.running(MODEL));
  }

  @Test
  void aSlotIsGivenBackWhenTheCallFails() throws Exception {
    assertThrows(IllegalStateException.class, () -> {
      try (ModelSlots.Slot slot = slots.acquire(MODEL, "failing", HOLD)) {
        throw new IllegalStateException("the model server failed");
      }
    });
    assertEquals(0, slots.running(MODEL));
    try (ModelSlots.Slot next = slots.acquire(MODEL, "next", HOLD)) {
      assertEquals(Duration.ZERO.toMillis(), next.waited().toMillis(), "no wait: the slot was free");
    }
  }

  @Test
  void aCallCancelledWhileWaitingTakesNoSlot() throws Exception {
    ModelSlots.Slot first = slots.acquire(MODEL, "first", HOLD);
    CompletableFuture<Throwable> cancelled = new CompletableFuture<>();
    Thread waiter = new Thread(() -> {
      try {
        slots.acquire(MODEL, "cancelled", HOLD).close();
        cancelled.complete(null);
      } catch (Throwable t) {
        cancelled.complete(t);
      }
    });
    waiter.start();
    awaitWaiting(1);
    waiter.interrupt();
    assertTrue(cancelled.get(10, TimeUnit.SECONDS) instanceof InterruptedException);
    assertEquals(0, slots.waiting(MODEL));
    first.close();
    assertEquals(0, slots.running(MODEL), "the cancelled call took nothing");
    // Had the cancelled call taken the slot, this would wait until the test's limit.
    CompletableFuture<Void> next = CompletableFuture.runAsync(() -> {
      try {
        slots.acquire(MODEL, "next", HOLD).close();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    next.get(10, TimeUnit.SECONDS);
  }

  @Test
  void anotherAttemptOfTheSameCallSharesItsSlot() throws Exception {
    ModelSlots.Slot attempt1 = slots.acquire(MODEL, "wf/1", HOLD);
    ModelSlots.Slot attempt2 = slots.acquire(MODEL, "wf/1", HOLD);
    assertEquals(1, slots.running(MODEL));
    attempt1.close();
    attempt1.close();
    assertEquals(1, slots.running(MODEL), "still held by the second attempt; a second close does nothing");
    attempt2.close();
    assertEquals(0, slots.running(MODEL));
  }

  @Test
  void aSlotKeptPastItsHoldIsFreed() throws Exception {
    ModelSlots.Slot stuck = slots.acquire(MODEL, "stuck", Duration.ofMillis(100));
    CompletableFuture<ModelSlots.Slot> next = CompletableFuture.supplyAsync(() -> {
      try {
        return slots.acquire(MODEL, "next", HOLD);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    ModelSlots.Slot got = next.get(10, TimeUnit.SECONDS);
    stuck.close();
    assertEquals(1, slots.running(MODEL), "the late close of the freed slot gives back nothing more");
    got.close();
    assertEquals(0, slots.running(MODEL));
  }

  @Test
  void eachModelHasItsOwnSlots() throws Exception {
    WorkerModelSlots two = (WorkerModelSlots) WorkerModelSlots.of(LlmSlotLimits.parse("2," + MODEL + "=1"));
    try (ModelSlots.Slot a = two.acquire("ollama:llama3.2", "a", HOLD);
        ModelSlots.Slot b = two.acquire("ollama:llama3.2", "b", HOLD);
        ModelSlots.Slot c = two.acquire(MODEL, "c", HOLD)) {
      assertEquals(2, two.running("ollama:llama3.2"));
      assertEquals(1, two.running(MODEL));
    }
  }
}
