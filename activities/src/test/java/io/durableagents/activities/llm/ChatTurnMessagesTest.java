package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.ToolCall;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The conversation in history as LangChain4j messages, with tool turns as text where a provider needs it. */
class ChatTurnMessagesTest {
  private static final ToolCall CALL = ToolCall.of("c1", "lookup", new ObjectMapper().createObjectNode().put("k", 1));
  private static final ToolCall BROKEN = new ToolCall("c2", "lookup", null, "{oops", "not JSON");
  private static final List<ChatTurn> TURNS = List.of(ChatTurn.user("go"),
      ChatTurn.assistant(null, List.of(CALL, BROKEN)), ChatTurn.toolResult(CALL, "42"));

  @Test
  void toolCallsAndResultsBecomeToolMessagesAndBrokenArgumentsGoBackAsAnEmptyObject() {
    List<ChatMessage> messages = ChatTurnMessages.toMessages(TURNS);
    AiMessage ai = (AiMessage) messages.get(1);
    assertEquals(List.of("{\"k\":1}", "{}"),
        ai.toolExecutionRequests().stream().map(r -> r.arguments()).toList());
    ToolExecutionResultMessage result = (ToolExecutionResultMessage) messages.get(2);
    assertEquals("c1", result.id());
    assertEquals("42", result.text());
  }

  @Test
  void asTextTheCallsAreAnAssistantsLinesAndTheResultAUsersMessage() {
    List<ChatMessage> messages = ChatTurnMessages.toMessages(TURNS, true);
    assertEquals("Called lookup({\"k\":1}) [c1]\nCalled lookup({oops) [c2]", ((AiMessage) messages.get(1)).text());
    assertEquals("Result of lookup [c1]: 42", ((UserMessage) messages.get(2)).singleText());
  }

  @Test
  void aTurnWithoutTextOrRoleIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ChatTurnMessages.toMessages(List.of(ChatTurn.user(null))));
    assertEquals("a user turn has no text", e.getMessage());
  }
}
