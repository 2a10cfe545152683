package io.durableagents.activities.llm;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many calls of a model may run at once ({@code DURABLE_AGENTS_LLM_SLOTS}): a number for every
 * model, and {@code model=number} entries for single models, comma-separated, e.g. {@code
 * openai:smollm2=1,ollama:llama3.2=4} or {@code 2,rules=0}. 0, or no entry and no number, is no limit: the
 * default, right for hosted APIs; a local model server (llama.cpp, Ollama, vLLM, LM Studio) serves as
 * many requests at once as it has slots ({@code --parallel}, {@code OLLAMA_NUM_PARALLEL}), and a call
 * over them queues in the server while its time-out runs.
 *
 * <pre>{@code
 * LlmSlotLimits slots = LlmSlotLimits.parse("openai:smollm2=1");
 * slots.of("openai:smollm2");  // 1
 * slots.of("rules");           // 0: no limit
 * }</pre>
 */
public final class LlmSlotLimits {
  /** The environment variable. */
  public static final String VARIABLE = "DURABLE_AGENTS_LLM_SLOTS";

  private static final String FORMS =
      "give a number of calls at once for every model and model=number entries, comma-separated, "
          + "e.g. openai:smollm2=1 or 4,ollama:llama3.2=1 (0: no limit)";

  private final int fallback;
  private final Map<String, Integer> perModel;

  private LlmSlotLimits(int fallback, Map<String, Integer> perModel) {
    this.fallback = fallback;
    this.perModel = Map.copyOf(perModel);
  }

  /** No limit for any model. */
  public static LlmSlotLimits none() {
    return new LlmSlotLimits(0, Map.of());
  }

  /** {@code slots} for every model (0: no limit). */
  public static LlmSlotLimits of(int slots) {
    return new LlmSlotLimits(check(slots, "the LLM slots"), Map.of());
  }

  /** These limits with {@code slots} for {@code model} (0: no limit for it). */
  public LlmSlotLimits withModel(String model, int slots) {
    ModelReference.parse(model);
    Map<String, Integer> m = new LinkedHashMap<>(perModel);
    m.put(model.trim(), check(slots, "the slots of " + model));
    return new LlmSlotLimits(fallback, m);
  }

  /**
   * Parses the variable's value; null or blank is no limit.
   *
   * @throws IllegalArgumentException naming the variable and the allowed forms
   */
  public static LlmSlotLimits parse(String text) {
    LlmSlotLimits limits = none();
    if (text == null || text.isBlank()) {
      return limits;
    }
    LlmSlotLimits[] built = {limits};
    SettingEntries.parse(VARIABLE, text, FORMS, "an entry names no model", (model, value) -> built[0] =
        model == null ? new LlmSlotLimits(check(number(value), VARIABLE), built[0].perModel)
            : built[0].withModel(model, number(value)));
    return built[0];
  }

  /** The calls of {@code model} that may run at once; 0: no limit. */
  public int of(String model) {
    return model == null ? fallback : perModel.getOrDefault(model.trim(), fallback);
  }

  /** True when no model has a limit. */
  public boolean isNone() {
    return fallback == 0 && perModel.values().stream().allMatch(v -> v == 0);
  }

  private static int number(String text) {
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a whole number of calls");
    }
  }

  private static int check(int slots, String what) {
    if (slots < 0) {
      throw new IllegalArgumentException(what + " must be 0 (no limit) or more, was " + slots);
    }
    return slots;
  }

  @Override
  public String toString() {
    return perModel.isEmpty() ? Integer.toString(fallback) : fallback + " " + perModel;
  }
}
