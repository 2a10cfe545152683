package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.durableagents.activities.tools.BuiltinTools;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.ToolChoice;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One real call; skipped unless OPENAI_API_KEY is set (OPENAI_MODEL picks the model). */
class OpenAiLiveIT {
  @Test
  void aRealModelCallsTheCalculator() {
    assumeTrue(System.getenv("OPENAI_API_KEY") != null, "OPENAI_API_KEY is not set");
    String model = "openai:" + System.getenv().getOrDefault("OPENAI_MODEL", "gpt-4o-mini");
    LlmActivitiesImpl llm = new LlmActivitiesImpl(ChatModelProvider.newBuilder()
        .settings(LlmSettings.fromEnvironment(System.getenv())).build(), BuiltinTools.registry(Path.of(".")));
    LlmResponse r = llm.chat(new LlmRequest(model, List.of(ChatTurn.user("What is 17 * 23? Use the calculator.")),
        List.of("calculator"), ToolChoice.REQUIRED, 0.0, "it"));
    assertTrue(r.toolCalls().stream().anyMatch(c -> c.name().equals("calculator") && c.valid()), r.toString());
    assertTrue(r.usage().input() > 0);
  }
}
