package io.durableagents.workflows.llm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One message of a conversation with a model, as it is stored in history. LangChain4j's own message
 * classes are converted to and from this record at the activity boundary, so that what history holds
 * is ours and stays readable across library upgrades.
 *
 * @param role who speaks
 * @param text the text, or null for an assistant turn that only calls tools
 * @param toolCalls the tool calls of an assistant turn, else empty
 * @param toolCallId for a {@link Role#TOOL} turn: the call it answers
 * @param toolName for a {@link Role#TOOL} turn: the tool that answered
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ChatTurn(
    Role role, String text, List<ToolCall> toolCalls, String toolCallId, String toolName) {

  /** Who speaks a turn. */
  public enum Role {
    SYSTEM,
    USER,
    ASSISTANT,
    TOOL
  }

  public ChatTurn {
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
  }

  public static ChatTurn system(String text) {
    return new ChatTurn(Role.SYSTEM, text, List.of(), null, null);
  }

  public static ChatTurn user(String text) {
    return new ChatTurn(Role.USER, text, List.of(), null, null);
  }

  public static ChatTurn assistant(String text, List<ToolCall> toolCalls) {
    return new ChatTurn(Role.ASSISTANT, text, toolCalls, null, null);
  }

  public static ChatTurn toolResult(ToolCall call, String result) {
    return new ChatTurn(Role.TOOL, result, List.of(), call.id(), call.name());
  }
}
