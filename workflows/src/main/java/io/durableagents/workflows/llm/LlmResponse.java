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
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LlmResponse(
    String model,
    String text,
    List<ToolCall> toolCalls,
    TokenUsage usage,
    String finishReason,
    long latencyMillis) {

  public LlmResponse {
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    usage = usage == null ? TokenUsage.ZERO : usage;
  }
}
