package io.durableagents.activities.llm;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.ToolCall;
import java.util.ArrayList;
import java.util.List;

/**
 * Converts the conversation a workflow keeps in history ({@link ChatTurn} records) to LangChain4j's
 * messages, with tool turns as plain text for providers that refuse them in a request without tools.
 */
final class ChatTurnMessages {
  private ChatTurnMessages() {}

  /** Our history records as LangChain4j messages. */
  static List<ChatMessage> toMessages(List<ChatTurn> turns) {
    return toMessages(turns, false);
  }

  /**
   * Our history records as LangChain4j messages; with {@code toolTurnsAsText}, tool calls and their
   * results become plain assistant and user text, for providers that refuse tool turns in a request
   * without tools.
   */
  static List<ChatMessage> toMessages(List<ChatTurn> turns, boolean toolTurnsAsText) {
    List<ChatMessage> messages = new ArrayList<>();
    for (ChatTurn t : turns) {
      if (t == null || t.role() == null) {
        throw new IllegalArgumentException("a conversation turn has no role");
      }
      if (toolTurnsAsText && t.role() == ChatTurn.Role.ASSISTANT && !t.toolCalls().isEmpty()) {
        StringBuilder text = new StringBuilder(t.text() == null ? "" : t.text());
        for (ToolCall c : t.toolCalls()) {
          text.append(text.length() == 0 ? "" : "\n").append("Called ").append(c.name()).append('(')
              .append(c.argumentsText()).append(") [").append(c.id()).append(']');
        }
        messages.add(AiMessage.from(text.toString()));
        continue;
      }
      if (toolTurnsAsText && t.role() == ChatTurn.Role.TOOL) {
        messages.add(UserMessage.from("Result of " + t.toolName() + " [" + t.toolCallId() + "]: "
            + (t.text() == null ? "" : t.text())));
        continue;
      }
      switch (t.role()) {
        case SYSTEM:
          messages.add(SystemMessage.from(requireText(t)));
          break;
        case USER:
          messages.add(UserMessage.from(requireText(t)));
          break;
        case ASSISTANT:
          List<ToolExecutionRequest> requests = new ArrayList<>();
          for (ToolCall c : t.toolCalls()) {
            // A call whose arguments were not JSON goes back as {}: providers that parse the arguments
            // of earlier calls (Anthropic) would reject the whole conversation; the tool turn that
            // answers it says what was wrong.
            requests.add(ToolExecutionRequest.builder().id(c.id()).name(c.name())
                .arguments(c.arguments() == null ? "{}" : c.arguments().toString()).build());
          }
          boolean hasText = t.text() != null && !t.text().isBlank();
          if (requests.isEmpty()) {
            messages.add(AiMessage.from(t.text() == null ? "" : t.text()));
          } else if (hasText) {
            messages.add(AiMessage.from(t.text(), requests));
          } else {
            messages.add(AiMessage.from(requests));
          }
          break;
        case TOOL:
          if (t.toolCallId() == null) {
            throw new IllegalArgumentException("a tool turn does not name the call it answers");
          }
          messages.add(ToolExecutionResultMessage.from(
              t.toolCallId(), t.toolName(), t.text() == null ? "" : t.text()));
          break;
        default:
          throw new IllegalArgumentException("unknown role " + t.role());
      }
    }
    return messages;
  }

  private static String requireText(ChatTurn t) {
    if (t.text() == null) {
      throw new IllegalArgumentException("a " + t.role().name().toLowerCase() + " turn has no text");
    }
    return t.text();
  }
}
