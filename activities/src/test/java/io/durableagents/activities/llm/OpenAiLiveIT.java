package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.llm.ToolChoice;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One real call to OpenAI (or to the OpenAI-compatible server in {@code OPENAI_BASE_URL}); skipped
 * unless {@code OPENAI_API_KEY} is set. {@code OPENAI_MODEL} picks the model (default gpt-4o-mini).
 * Surefire runs {@code *Test} classes only; run this one by name:
 *
 * <pre>{@code
 * OPENAI_API_KEY=sk-... mvn -pl activities test -Dtest=OpenAiLiveIT
 * }</pre>
 */
class OpenAiLiveIT {
  @Test
  void aRealModelCallsTheCalculator() {
    assumeTrue(System.getenv("OPENAI_API_KEY") != null, "OPENAI_API_KEY is not set");
    String model = "openai:" + System.getenv().getOrDefault("OPENAI_MODEL", "gpt-4o-mini");
    LlmActivitiesImpl llm = new LlmActivitiesImpl(ChatModelProvider.newBuilder()
        .settings(LlmSettings.fromEnvironment(System.getenv())).build(), CitizenActions.registry(Path.of(".")));

    LlmResponse r = llm.chat(new LlmRequest(model, List.of(ChatTurn.user("What is 17 * 23? Use the calculator.")),
        List.of("calculator"), ToolChoice.REQUIRED, 0.0, "it"));

    ToolCall call = r.toolCalls().stream().filter(c -> c.name().equals("calculator")).findFirst()
        .orElseThrow(() -> new AssertionError("no calculator call in " + r));
    assertTrue(call.valid(), call.error());
    assertTrue(call.arguments().path("expression").isTextual(), call.toString());
    assertFalse(call.id().isBlank());
    assertTrue(r.usage().input() > 0 && r.usage().output() > 0, r.usage().toString());
    assertFalse(r.model().isBlank());
  }
}
