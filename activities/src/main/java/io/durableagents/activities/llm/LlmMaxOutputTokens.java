package io.durableagents.activities.llm;

import io.durableagents.workflows.autonomous.AutonomousPrompts;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.agent.react.ReactPrompts;
import io.durableagents.workflows.agent.rewoo.ReWooPrompts;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.memory.MemoryPrompts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The maximum output length (in tokens) sent with every LLM call, so that a model that runs away (a
 * small local model that never stops, a plan that repeats itself) is cut early instead of running
 * into the call's time-out. An answer cut there comes back with finish reason {@code LENGTH} and is
 * handled as a cut answer ({@link LlmActivitiesImpl#CUT_WARNING}; a cut ReWOO plan is rejected as cut).
 *
 * <p>Which number a call gets, first match wins:
 *
 * <ol>
 *   <li>the run's or role's setting, carried by the call ({@link LlmRequest#maxOutputTokens()}, from
 *       {@code AgentOptions.maxOutputTokens}: {@code --max-output-tokens});
 *   <li>the worker's {@code DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS}: a {@code model/purpose=number}
 *       entry, then a {@code model=number} entry, then a {@code purpose=number} entry, then a bare
 *       number (every model, every kind of call);
 *   <li>the default of the kind of call ({@link #DEFAULTS}), else {@link #DEFAULT_OTHER}.
 * </ol>
 *
 * <p>0, wherever it is given, sends no maximum: the provider's own default applies (for OpenAI and
 * most OpenAI-compatible servers: until the context is full).
 *
 * <pre>{@code
 * LlmMaxOutputTokens max = LlmMaxOutputTokens.parse("ollama:qwen3=2048,rewoo-plan=768");
 * max.of("openai:gpt-4o-mini", "rewoo-plan");  // 768
 * max.of("ollama:qwen3", "react-turn");        // 2048
 * max.of("openai:gpt-4o-mini", "react-turn");  // 384, the default of a ReAct turn
 * }</pre>
 */
public final class LlmMaxOutputTokens {
  /** The environment variable. */
  public static final String VARIABLE = "DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS";

  /**
   * The default per kind of call (purpose -> tokens): each sized so that a good answer fits with room
   * to spare, and a runaway is cut after seconds, not minutes, on a slow local model (~20 tokens/s).
   */
  public static final Map<String, Integer> DEFAULTS = defaultTable();

  /** The default of a call whose purpose has no entry in {@link #DEFAULTS}. */
  public static final int DEFAULT_OTHER = 1024;

  private static final List<String> STRATEGY_PREFIXES =
      List.of("cot-", "react-", "rewoo-", "reflexion-", "memory-");

  private static final String FORMS = "give a number of tokens for every model, and model=number, "
      + "purpose=number or model/purpose=number entries, comma-separated, e.g. 512,rewoo-plan=768,"
      + "ollama:qwen3=2048 (0: send no maximum); purposes: " + String.join(", ", DEFAULTS.keySet());

  private static Map<String, Integer> defaultTable() {
    Map<String, Integer> d = new LinkedHashMap<>();
    // a JSON plan of up to 8 steps (AgentOptions.DEFAULT_MAX_PLAN_STEPS), ~50 tokens a step
    d.put(ReWooPrompts.PLAN_PURPOSE, 640);
    d.put(ReWooPrompts.SOLVE_PURPOSE, 512);
    d.put(CotPrompts.REASONING_PURPOSE, 512);
    // a tool call, or a short answer
    d.put(CotPrompts.EXECUTION_PURPOSE, 256);
    d.put(CotPrompts.ANSWER_PURPOSE, 512);
    // a thought and one action (or the final answer)
    d.put(ReactPrompts.TURN_PURPOSE, 384);
    d.put(ReactPrompts.FINAL_PURPOSE, 512);
    // a JSON verdict per criterion
    d.put(AutonomousPrompts.JUDGE_PURPOSE, 256);
    // a summary of at most MemoryOptions.DEFAULT_MAX_SUMMARY_CHARS (1500) characters, ~400 tokens
    d.put(MemoryPrompts.CONSOLIDATION_PURPOSE, 512);
    // "Importance: N" per new entry
    d.put(MemoryPrompts.IMPORTANCE_PURPOSE, 128);
    return java.util.Collections.unmodifiableMap(d);
  }

  private final Integer everyModel;
  private final Map<String, Integer> perModel;
  private final Map<String, Integer> perPurpose;
  private final Map<String, Integer> perModelPurpose;

  private LlmMaxOutputTokens(Integer everyModel, Map<String, Integer> perModel, Map<String, Integer> perPurpose,
      Map<String, Integer> perModelPurpose) {
    this.everyModel = everyModel;
    this.perModel = Map.copyOf(perModel);
    this.perPurpose = Map.copyOf(perPurpose);
    this.perModelPurpose = Map.copyOf(perModelPurpose);
  }

  /** The defaults per kind of call, for every model. */
  public static LlmMaxOutputTokens defaults() {
    return new LlmMaxOutputTokens(null, Map.of(), Map.of(), Map.of());
  }

  /**
   * Parses the variable's value; null or blank is {@link #defaults()}.
   *
   * @throws IllegalArgumentException naming the variable and the allowed forms
   */
  public static LlmMaxOutputTokens parse(String text) {
    if (text == null || text.isBlank()) {
      return defaults();
    }
    Map<String, Integer> models = new LinkedHashMap<>();
    Map<String, Integer> purposes = new LinkedHashMap<>();
    Map<String, Integer> modelPurposes = new LinkedHashMap<>();
    Integer[] every = {null};
    SettingEntries.parse(VARIABLE, text, FORMS, "an entry names no model and no purpose", (key, value) -> {
      if (key == null) {
        every[0] = tokens(value);
        return;
      }
      int n = tokens(value);
      int slash = key.lastIndexOf('/');
      if (slash > 0 && DEFAULTS.containsKey(key.substring(slash + 1).trim())) {
        String model = key.substring(0, slash).trim();
        ModelReference.parse(model);
        modelPurposes.put(model + "/" + key.substring(slash + 1).trim(), n);
      } else if (DEFAULTS.containsKey(key)) {
        purposes.put(key, n);
      } else if (STRATEGY_PREFIXES.stream().anyMatch(key::startsWith)) {
        throw new IllegalArgumentException("'" + key + "' is not a purpose");
      } else {
        ModelReference.parse(key);
        models.put(key, n);
      }
    });
    return new LlmMaxOutputTokens(every[0], models, purposes, modelPurposes);
  }

  /**
   * The maximum output tokens of a call of {@code model} for {@code purpose} by the worker's setting
   * and the defaults; 0: none is sent.
   */
  public int of(String model, String purpose) {
    String m = model == null ? "" : model.trim();
    Integer n = perModelPurpose.get(m + "/" + purpose);
    if (n == null) {
      n = perModel.get(m);
    }
    if (n == null && purpose != null) {
      n = perPurpose.get(purpose);
    }
    if (n == null) {
      n = everyModel;
    }
    if (n == null && purpose != null) {
      n = DEFAULTS.get(purpose);
    }
    return n == null ? DEFAULT_OTHER : n;
  }

  /**
   * What {@code request} sends: its own maximum when it carries one (the run's or role's), else {@link
   * #of}; null when no maximum is sent (a setting of 0).
   */
  public Integer forRequest(LlmRequest request) {
    int n = request.maxOutputTokens() != null ? request.maxOutputTokens() : of(request.model(), request.purpose());
    return n > 0 ? n : null;
  }

  private static int tokens(String text) {
    int n;
    try {
      n = Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text.trim() + "' is not a whole number of tokens");
    }
    if (n < 0) {
      throw new IllegalArgumentException("a maximum must be 0 (none sent) or more, was " + n);
    }
    return n;
  }

  @Override
  public String toString() {
    return "defaults" + (everyModel == null ? "" : " " + everyModel)
        + (perPurpose.isEmpty() ? "" : " " + perPurpose) + (perModel.isEmpty() ? "" : " " + perModel)
        + (perModelPurpose.isEmpty() ? "" : " " + perModelPurpose);
  }
}
