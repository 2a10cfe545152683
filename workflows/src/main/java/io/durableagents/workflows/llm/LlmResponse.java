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
 *     {@code rules} model having no policy for the agent's role (empty when none)
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
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings) {

  /** A response with no warnings. */
  public LlmResponse(String model, String text, List<ToolCall> toolCalls, TokenUsage usage,
      String finishReason, long latencyMillis) {
    this(model, text, toolCalls, usage, finishReason, latencyMillis, null);
  }

  public LlmResponse {
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    usage = usage == null ? TokenUsage.ZERO : usage;
  }
}
