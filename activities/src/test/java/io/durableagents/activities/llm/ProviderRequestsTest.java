package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.durableagents.workflows.llm.ToolChoice;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What of a request's tools, tool choice and JSON mode each provider is sent. */
class ProviderRequestsTest {
  private static final List<ToolSpecification> TOOLS =
      List.of(ToolSpecification.builder().name("lookup").description("Looks up a key.").build());

  private static ChatRequest offered(List<ToolSpecification> specs, ToolChoice choice, ModelProvider provider) {
    ChatRequest.Builder chat = ChatRequest.builder().messages(UserMessage.from("hi"));
    ProviderRequests.offerTools(chat, specs, choice, provider);
    return chat.build();
  }

  @Test
  void noneAndRequiredAreSentWhereTheClientTakesThemAndOllamaGetsNoToolsOrItsDefault() {
    assertEquals(dev.langchain4j.model.chat.request.ToolChoice.NONE,
        offered(TOOLS, ToolChoice.NONE, ModelProvider.OPEN_AI).toolChoice());
    assertTrue(offered(TOOLS, ToolChoice.NONE, ModelProvider.OLLAMA).toolSpecifications().isEmpty());
    ChatRequest required = offered(TOOLS, ToolChoice.REQUIRED, ModelProvider.OLLAMA);
    assertEquals(TOOLS, required.toolSpecifications());
    assertNull(required.toolChoice());
    assertNull(offered(TOOLS, ToolChoice.PROVIDER_DEFAULT, ModelProvider.OPEN_AI).toolChoice());
  }

  @Test
  void noToolChoiceIsEverSentWithoutTools() {
    assertNull(offered(List.of(), ToolChoice.REQUIRED, ModelProvider.OPEN_AI).toolChoice());
  }

  @Test
  void anthropicGetsNoJsonMode() {
    assertTrue(ProviderRequests.supportsJsonMode(ModelProvider.OPEN_AI));
    assertTrue(ProviderRequests.supportsJsonMode(ModelProvider.OTHER));
    assertFalse(ProviderRequests.supportsJsonMode(ModelProvider.ANTHROPIC));
  }
}
