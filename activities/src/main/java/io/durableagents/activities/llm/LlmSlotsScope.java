package io.durableagents.activities.llm;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * Where a model's slots ({@code DURABLE_AGENTS_LLM_SLOTS}, {@link LlmSlotLimits}) are counted ({@value
 * #VARIABLE}): {@code worker} (the default), each worker process on its own, so N workers run up to N
 * times a model's slots at once; or {@code shared}, across every worker of the Temporal namespace
 * ({@link SharedModelSlots}), for one model server that several workers call.
 *
 * <pre>{@code
 * LlmSlotsScope scope = LlmSlotsScope.parse(System.getenv(LlmSlotsScope.VARIABLE)); // WORKER when unset
 * ModelSlots slots = scope.slots(limits, () -> perWorkerSlots);
 * }</pre>
 */
public enum LlmSlotsScope {
  /** Each worker counts its own calls. */
  WORKER,
  /** Every worker of the namespace counts together. */
  SHARED;

  /** The environment variable. */
  public static final String VARIABLE = "DURABLE_AGENTS_LLM_SLOTS_SCOPE";

  /**
   * Parses the variable's value; null or blank is {@link #WORKER}.
   *
   * @throws IllegalArgumentException naming the variable and the allowed values
   */
  public static LlmSlotsScope parse(String text) {
    if (text == null || text.isBlank()) {
      return WORKER;
    }
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "worker" -> WORKER;
      case "shared" -> SHARED;
      default -> throw new IllegalArgumentException(VARIABLE + "='" + text + "' is not one of: worker (each worker "
          + "counts its own calls, the default), shared (every worker of the Temporal namespace counts together)");
    };
  }

  /**
   * The slots to wait in for {@code limits}: none when no model has a limit, {@link SharedModelSlots}
   * when shared, else {@code perWorker}'s.
   */
  public ModelSlots slots(LlmSlotLimits limits, Supplier<ModelSlots> perWorker) {
    if (limits.isNone()) {
      return ModelSlots.NONE;
    }
    return this == SHARED ? new SharedModelSlots(limits) : perWorker.get();
  }

  /** The value as written in {@value #VARIABLE}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
