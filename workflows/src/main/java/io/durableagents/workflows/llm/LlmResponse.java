package io.durableagents.workflows.llm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What a model answered.
 *
 * @param model the model that answered, as the provider names it
 * @param text the answer's text (may be null when it only calls tools)
 * @param toolCalls the tool calls, each checked against its schema (see {@link ToolCall#error()})
 * @param usage input and output tokens
 * @param finishReason why the model stopped ({@code STOP}, {@code TOOL_EXECUTION}, {@code LENGTH}, ...)
 * @param latencyMillis how long the provider took
 * @param warnings what the model says the run's owner should know about this call, such as the offline
 *     {@code rules} model having no policy for the agent's role, an empty answer, or an answer cut at
 *     the output limit (empty when none)
 * @param cut true when the answer was cut: by the model's output limit (finish reason {@code LENGTH})
 *     or by the worker's ({@code DURABLE_AGENTS_MAX_OUTPUT_BYTES}); null (omitted) when it was not
 * @param maxOutputTokens the maximum output length in tokens the call sent to the model (the run's,
 *     the worker's or the default of its purpose); null (omitted) when none was sent
 * @param slotWaitMillis how long the call waited for one of its model's slots before it was sent
 *     ({@code DURABLE_AGENTS_LLM_SLOTS}), not part of {@code latencyMillis}; null (omitted) when it did not
 *     wait
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LlmResponse(
    String model,
    String text,
    List<ToolCall> toolCalls,
    TokenUsage usage,
    String finishReason,
    long latencyMillis,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings,
    Boolean cut,
    Integer maxOutputTokens,
    Long slotWaitMillis) {
  /** The finish reason of an answer cut at the model's output limit. */
  public static final String FINISH_LENGTH = "LENGTH";

  /** A response whose call did not wait for a slot. */
  public LlmResponse(String model, String text, List<ToolCall> toolCalls, TokenUsage usage,
      String finishReason, long latencyMillis, List<String> warnings, Boolean cut, Integer maxOutputTokens) {
    this(model, text, toolCalls, usage, finishReason, latencyMillis, warnings, cut, maxOutputTokens, null);
  }

  /** This response, saying that its call waited {@code millis} for a slot (0: it did not). */
  public LlmResponse withSlotWait(long millis) {
    return new LlmResponse(model, text, toolCalls, usage, finishReason, latencyMillis, warnings, cut,
        maxOutputTokens, millis > 0 ? millis : null);
  }

  /** A response with no warnings. */
  public LlmResponse(String model, String text, List<ToolCall> toolCalls, TokenUsage usage,
      String finishReason, long latencyMillis) {
    this(model, text, toolCalls, usage, finishReason, latencyMillis, null, null);
  }

  /** A response that does not say which maximum output length was sent, nor any wait for a slot. */
  public LlmResponse(String model, String text, List<ToolCall> toolCalls, TokenUsage usage,
      String finishReason, long latencyMillis, List<String> warnings, Boolean cut) {
    this(model, text, toolCalls, usage, finishReason, latencyMillis, warnings, cut, null, null);
  }

  /** This response, saying that {@code maxOutputTokens} was sent (null: none). */
  public LlmResponse withMaxOutputTokens(Integer maxOutputTokens) {
    return new LlmResponse(model, text, toolCalls, usage, finishReason, latencyMillis, warnings, cut,
        maxOutputTokens, slotWaitMillis);
  }

  /** A response that was not cut by the worker. */
  public LlmResponse(String model, String text, List<ToolCall> toolCalls, TokenUsage usage,
      String finishReason, long latencyMillis, List<String> warnings) {
    this(model, text, toolCalls, usage, finishReason, latencyMillis, warnings, null);
  }

  /** True when the answer was cut at an output limit (the model's or the worker's). */
  public boolean wasCut() {
    return Boolean.TRUE.equals(cut) || FINISH_LENGTH.equals(finishReason);
  }

  /** True when the model answered nothing: no text (or only blanks) and no tool calls. */
  public boolean answeredNothing() {
    return (text == null || text.isBlank()) && toolCalls.isEmpty();
  }

  public LlmResponse {
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    usage = usage == null ? TokenUsage.ZERO : usage;
  }
}
