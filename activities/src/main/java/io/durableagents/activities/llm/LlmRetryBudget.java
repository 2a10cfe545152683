package io.durableagents.activities.llm;

import io.durableagents.workflows.llm.LlmCallOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How long an LLM call keeps being retried, per model. Temporal retries a call that failed with a
 * retryable failure (a 5xx, a 429, a time-out, a garbage answer) up to {@link
 * LlmCallOptions#MAXIMUM_ATTEMPTS} times with exponential backoff; on top of that, the activity gives up
 * once the next retry would start more than the budget after the first attempt was scheduled: it then
 * throws the same typed failure as non-retryable, with "gave up after N attempts in S s" in its message.
 * So a model server that keeps failing the same way ends the call within about the budget (60 s by
 * default) instead of the several minutes the attempts and backoff alone would allow. Each attempt waits
 * for the model at most {@code DURABLE_AGENTS_LLM_TIMEOUT} or what is left of the budget, so a server that
 * never answers ends the call at about the budget; a budget shorter than the time-out is raised to it
 * ({@link LlmSettings#callBudget}). Waits for a slot are not counted ({@link LlmCallClock}).
 *
 * <p>Set by {@code DURABLE_AGENTS_LLM_RETRY_BUDGET}: seconds for every model, and {@code model=seconds}
 * entries for single models, comma-separated, e.g. {@code 60,openai:gpt-4o=300,ollama:llama3.2=20}. A
 * budget of 0 gives up after the first failure.
 *
 * <pre>{@code
 * LlmRetryBudget budget = LlmRetryBudget.parse("30,openai:gpt-4o=300");
 * budget.of("openai:gpt-4o");       // PT5M
 * budget.of("openai:gpt-4o-mini");  // PT30S
 * }</pre>
 */
public final class LlmRetryBudget {
  /** The environment variable. */
  public static final String VARIABLE = "DURABLE_AGENTS_LLM_RETRY_BUDGET";
  /** The budget of a model with none of its own. */
  public static final Duration DEFAULT = Duration.ofSeconds(60);

  private static final String FORMS =
      "give seconds for every model and model=seconds entries, comma-separated, e.g. 60,openai:gpt-4o=300";

  private final Duration fallback;
  private final Map<String, Duration> perModel;

  private LlmRetryBudget(Duration fallback, Map<String, Duration> perModel) {
    this.fallback = fallback;
    this.perModel = Map.copyOf(perModel);
  }

  /** The default budget for every model. */
  public static LlmRetryBudget defaults() {
    return new LlmRetryBudget(DEFAULT, Map.of());
  }

  /** {@code budget} for every model. */
  public static LlmRetryBudget of(Duration budget) {
    return new LlmRetryBudget(check(budget, "the retry budget"), Map.of());
  }

  /** This budget with {@code budget} for {@code model} (a model reference such as openai:gpt-4o). */
  public LlmRetryBudget withModel(String model, Duration budget) {
    Map<String, Duration> m = new LinkedHashMap<>(perModel);
    m.put(model.trim(), check(budget, "the retry budget of " + model));
    return new LlmRetryBudget(fallback, m);
  }

  /**
   * Parses the variable's value; null or blank is the default.
   *
   * @throws IllegalArgumentException naming the variable and the allowed forms
   */
  public static LlmRetryBudget parse(String text) {
    LlmRetryBudget budget = defaults();
    if (text == null || text.isBlank()) {
      return budget;
    }
    LlmRetryBudget[] built = {budget};
    SettingEntries.parse(VARIABLE, text, FORMS, "an entry names no model", (model, value) -> {
      if (model == null) {
        built[0] = new LlmRetryBudget(check(seconds(value), VARIABLE), built[0].perModel);
      } else {
        ModelReference.parse(model);
        built[0] = built[0].withModel(model, seconds(value));
      }
    });
    return built[0];
  }

  /** The budget of {@code model}. */
  public Duration of(String model) {
    return model == null ? fallback : perModel.getOrDefault(model.trim(), fallback);
  }

  /**
   * The delay Temporal waits before the attempt after {@code attempt} (1-based) with the LLM calls'
   * retry policy, before any Retry-After of the provider.
   */
  static Duration backoffAfter(int attempt) {
    double seconds = LlmCallOptions.RETRY.getInitialInterval().toMillis()
        * Math.pow(LlmCallOptions.RETRY.getBackoffCoefficient(), Math.max(0, attempt - 1));
    long max = LlmCallOptions.RETRY.getMaximumInterval().toMillis();
    return Duration.ofMillis((long) Math.min(seconds, max));
  }

  private static Duration seconds(String text) {
    String t = text.toLowerCase(Locale.ROOT).endsWith("s") ? text.substring(0, text.length() - 1) : text;
    try {
      return Duration.ofMillis(Math.round(Double.parseDouble(t.trim()) * 1000));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a number of seconds");
    }
  }

  private static Duration check(Duration d, String what) {
    if (d == null || d.isNegative()) {
      throw new IllegalArgumentException(what + " must be 0 or more seconds, was " + d);
    }
    return d;
  }

  @Override
  public String toString() {
    return perModel.isEmpty() ? fallback.toString() : fallback + " " + perModel;
  }
}
