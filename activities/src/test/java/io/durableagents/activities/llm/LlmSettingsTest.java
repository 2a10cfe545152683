package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LlmSettingsTest {
  @Test
  void defaultsAndValues() {
    LlmSettings d = LlmSettings.fromEnvironment(Map.of());
    assertEquals("https://api.openai.com/v1", d.openAiBaseUrl());
    assertEquals(Duration.ofSeconds(120), d.timeout());
    LlmSettings s = LlmSettings.fromEnvironment(Map.of("OPENAI_BASE_URL", "http://localhost:8000/v1",
        "OPENAI_API_KEY", "sk-secret", "DURABLE_AGENTS_LLM_TIMEOUT", "30"));
    assertEquals(Duration.ofSeconds(30), s.timeout());
    assertFalse(s.isOpenAiItself());
    assertFalse(s.toString().contains("sk-secret"), s.toString());
    assertEquals(Duration.ofMinutes(2), LlmSettings.fromEnvironment(Map.of("DURABLE_AGENTS_LLM_TIMEOUT", "PT2M")).timeout());
  }

  @Test
  void badValuesNameTheVariable() {
    String url = assertThrows(IllegalArgumentException.class,
        () -> LlmSettings.fromEnvironment(Map.of("OPENAI_BASE_URL", "localhost:8000"))).getMessage();
    assertTrue(url.contains("OPENAI_BASE_URL") && url.contains("http://"), url);
    String timeout = assertThrows(IllegalArgumentException.class,
        () -> LlmSettings.fromEnvironment(Map.of("DURABLE_AGENTS_LLM_TIMEOUT", "soon"))).getMessage();
    assertTrue(timeout.contains("DURABLE_AGENTS_LLM_TIMEOUT"), timeout);
  }

  @Test
  void modelReferences() {
    assertEquals(new ModelReference("ollama", "llama3.2"), ModelReference.parse("ollama:llama3.2"));
    assertEquals(new ModelReference(null, "rules"), ModelReference.parse("rules"));
    String m = assertThrows(IllegalArgumentException.class, () -> ModelReference.parse("mistral:x")).getMessage();
    assertTrue(m.contains(ModelReference.ALLOWED), m);
  }
}
