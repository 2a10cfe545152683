package io.durableagents.activities.llm;

import java.time.Duration;

/**
 * Where an LLM call waits for one of its model's slots: how many calls of one model run at once is
 * bounded ({@code DURABLE_AGENTS_LLM_SLOTS}, see {@link LlmSlotLimits}), e.g. to a local model server's
 * slot count, so that calls queue here, where their waiting is not counted against any of their time
 * limits, instead of in the model server, where it is.
 *
 * <p>Implementations: one worker's slots (a semaphore per model, in this process), or slots shared by
 * every worker of a Temporal namespace. {@link #NONE} never waits.
 *
 * <pre>{@code
 * try (ModelSlots.Slot slot = slots.acquire("openai:smollm2", holder, Duration.ofSeconds(120))) {
 *   response = model.chat(request);   // slot.waited() is how long the call queued
 * }
 * }</pre>
 */
public interface ModelSlots {
  /** Slots that are never short: every call starts at once. */
  ModelSlots NONE = (model, holder, holdAtMost) -> Slot.FREE;

  /**
   * Waits until {@code model} has a free slot, and takes it for {@code holder}.
   *
   * @param model the model reference the call names
   * @param holder the call's identity, the same for every attempt of one call (its workflow id and
   *     activity id): a retry of a call whose worker died before it gave its slot back takes that slot
   *     again instead of a second one
   * @param holdAtMost the longest the call can keep the slot (its per-attempt time-out, plus a margin): a
   *     slot not given back by then is freed, for its holder has died
   * @return the slot, to be closed when the call to the model has ended, however it ended
   * @throws InterruptedException when the waiting thread is interrupted (the activity was cancelled or
   *     timed out): no slot is taken
   */
  Slot acquire(String model, String holder, Duration holdAtMost) throws InterruptedException;

  /** A slot taken for one call. */
  interface Slot extends AutoCloseable {
    /** A slot that cost no waiting, and that nothing needs back. */
    Slot FREE = new Slot() {
      @Override
      public Duration waited() {
        return Duration.ZERO;
      }

      @Override
      public void close() {}
    };

    /**
     * A slot that waited {@code waited} and, closed, runs {@code giveBack} once: a second close does
     * nothing.
     */
    static Slot of(Duration waited, Runnable giveBack) {
      java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
      return new Slot() {
        @Override
        public Duration waited() {
          return waited;
        }

        @Override
        public void close() {
          if (closed.compareAndSet(false, true)) {
            giveBack.run();
          }
        }
      };
    }

    /** How long the call waited for this slot. */
    Duration waited();

    /** Gives the slot back; a second close does nothing. */
    @Override
    void close();
  }
}
