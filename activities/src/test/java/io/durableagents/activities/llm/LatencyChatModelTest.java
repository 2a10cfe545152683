package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.durableagents.activities.rules.RulesChatModel;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.temporal.failure.ApplicationFailure;
import org.junit.jupiter.api.Test;

/** {@code <model>+<n>ms}: the same answers as the model, after the delay. */
class LatencyChatModelTest {
  private final ChatModelProvider models =
      ChatModelProvider.newBuilder().register("rules", new RulesChatModel()).build();

  @Test
  void aDelayedReferenceAnswersLikeItsModelAfterTheDelay() {
    ChatModel slow = models.get("rules+120ms");
    assertInstanceOf(LatencyChatModel.class, slow);
    assertSame(slow, models.get("rules+120ms"), "built once");
    ChatRequest request = ChatRequest.builder().messages(UserMessage.from("What is 2 * 21?")).build();
    long t0 = System.nanoTime();
    String delayed = slow.chat(request).aiMessage().text();
    long millis = (System.nanoTime() - t0) / 1_000_000;
    assertTrue(millis >= 120, "answered after " + millis + " ms");
    assertEquals(models.get("rules").chat(request).aiMessage().text(), delayed);
  }

  @Test
  void aDelayedUnknownModelFailsLikeTheModel() {
    ApplicationFailure f = assertThrows(ApplicationFailure.class, () -> models.get("nobody+5ms"));
    assertEquals(LlmFailureTypes.PROVIDER_NOT_CONFIGURED, f.getType());
  }
}
