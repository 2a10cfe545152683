package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LlmRetryBudgetTest {
  @Test
  void sixtySecondsForEveryModelByDefault() {
    assertEquals(Duration.ofSeconds(60), LlmRetryBudget.parse(null).of("openai:gpt-4o-mini"));
    assertEquals(Duration.ofSeconds(60), LlmSettings.fromEnvironment(Map.of()).retryBudget().of("rules"));
  }

  @Test
  void aDefaultAndPerModelBudgets() {
    LlmRetryBudget b = LlmRetryBudget.parse("30, openai:gpt-4o=300s, ollama:llama3.2:1b=0");
    assertEquals(Duration.ofSeconds(30), b.of("openai:gpt-4o-mini"));
    assertEquals(Duration.ofSeconds(300), b.of("openai:gpt-4o"));
    assertEquals(Duration.ZERO, b.of("ollama:llama3.2:1b"));
    assertEquals(Duration.ofSeconds(300), LlmSettings.fromEnvironment(
        Map.of(LlmRetryBudget.VARIABLE, "openai:gpt-4o=300")).retryBudget().of("openai:gpt-4o"));
  }

  @Test
  void aBadValueNamesTheVariable() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LlmRetryBudget.parse("soon"));
    assertTrue(e.getMessage().startsWith(LlmRetryBudget.VARIABLE + "='soon'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> LlmRetryBudget.parse("mistral:x=3"));
    assertTrue(e.getMessage().contains("unknown provider"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LlmRetryBudget.parse("-5"));
  }

  @Test
  void theBackoffFollowsTheRetryPolicy() {
    assertEquals(Duration.ofSeconds(1), LlmRetryBudget.backoffAfter(1));
    assertEquals(Duration.ofSeconds(16), LlmRetryBudget.backoffAfter(5));
    assertEquals(Duration.ofSeconds(60), LlmRetryBudget.backoffAfter(10));
  }
}
