package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LlmSettingsTest {
  @Test
  void defaultsComeFromOnePlace() {
    LlmSettings d = LlmSettings.fromEnvironment(Map.of());
    assertEquals("https://api.openai.com/v1", d.openAiBaseUrl());
    assertEquals(LlmSettings.DEFAULT_ANTHROPIC_BASE_URL, d.anthropicBaseUrl());
    assertEquals("http://localhost:11434", d.ollamaBaseUrl());
    assertEquals(Duration.ofSeconds(60), d.timeout());
    assertEquals(Duration.ofSeconds(60), d.callBudget("openai:gpt-4o-mini"), "the time-out and the budget agree");
    assertNull(d.openAiApiKey());
    assertTrue(d.isOpenAiItself());
    assertEquals(d.toString(), LlmSettings.newBuilder().build().toString());
  }

  @Test
  void readsEveryVariable() {
    LlmSettings s = LlmSettings.fromEnvironment(Map.of(
        "OPENAI_API_KEY", "sk-open-secret", "OPENAI_BASE_URL", "http://localhost:8000/v1",
        "ANTHROPIC_API_KEY", "sk-ant-secret", "ANTHROPIC_BASE_URL", "https://proxy.example.com/anthropic/v1/",
        "OLLAMA_BASE_URL", "http://gpu-box:11434", "DURABLE_AGENTS_LLM_TIMEOUT", "30"));
    assertEquals("sk-open-secret", s.openAiApiKey());
    assertEquals("http://localhost:8000/v1", s.openAiBaseUrl());
    assertFalse(s.isOpenAiItself(), "a vLLM server is not OpenAI");
    assertEquals("sk-ant-secret", s.anthropicApiKey());
    assertEquals("https://proxy.example.com/anthropic/v1/", s.anthropicBaseUrl());
    assertEquals("http://gpu-box:11434", s.ollamaBaseUrl());
    assertEquals(Duration.ofSeconds(30), s.timeout());
  }

  @Test
  void timeoutsInSecondsOrIso8601() {
    assertEquals(Duration.ofSeconds(45), timeout("45s"));
    assertEquals(Duration.ofMillis(2500), timeout("2.5"));
    assertEquals(Duration.ofMinutes(2), timeout("PT2M"));
    assertEquals(Duration.ofSeconds(90), timeout("pt90s"));
    assertEquals(LlmSettings.DEFAULT_TIMEOUT, timeout("  "));
  }

  private static Duration timeout(String value) {
    return LlmSettings.fromEnvironment(Map.of("DURABLE_AGENTS_LLM_TIMEOUT", value)).timeout();
  }

  @Test
  void keysNeverShowInToString() {
    LlmSettings s = LlmSettings.newBuilder().openAiApiKey("sk-open-secret").anthropicApiKey("sk-ant-secret").build();
    assertFalse(s.toString().contains("open-secret"), s.toString());
    assertFalse(s.toString().contains("ant-secret"), s.toString());
    assertTrue(s.toString().contains("openAiApiKey=set"), s.toString());
    assertEquals("key *** and ***", s.redact("key sk-open-secret and sk-ant-secret"));
  }

  @Test
  void badValuesFailFastNamingTheVariableAndWhatIsAllowed() {
    assertRejected("OPENAI_BASE_URL", "localhost:8000", "http://");
    assertRejected("OPENAI_BASE_URL", "ftp://example.com/v1", "http://");
    assertRejected("ANTHROPIC_BASE_URL", "http://", "http://");
    assertRejected("OLLAMA_BASE_URL", "http://exa mple:11434", "http://");
    assertRejected("OLLAMA_BASE_URL", "http://localhost:11434/?x=1", "no query");
    assertRejected("DURABLE_AGENTS_LLM_TIMEOUT", "soon", "ISO-8601");
    assertRejected("DURABLE_AGENTS_LLM_TIMEOUT", "0", "positive");
    assertRejected("DURABLE_AGENTS_LLM_TIMEOUT", "PT-5S", "positive");
  }

  private static void assertRejected(String variable, String value, String allowedHint) {
    String message = assertThrows(IllegalArgumentException.class,
        () -> LlmSettings.fromEnvironment(Map.of(variable, value)), variable + "=" + value).getMessage();
    assertTrue(message.contains(variable), message);
    assertTrue(message.contains(allowedHint), message);
  }

  @Test
  void modelReferences() {
    assertEquals(new ModelReference("openai", "gpt-4o-mini"), ModelReference.parse("openai:gpt-4o-mini"));
    assertEquals(new ModelReference("ollama", "llama3.2:1b"), ModelReference.parse("ollama:llama3.2:1b"));
    assertEquals(new ModelReference("anthropic", "claude-sonnet-4-5"),
        ModelReference.parse(" Anthropic:claude-sonnet-4-5 "));
    ModelReference rules = ModelReference.parse("rules");
    assertTrue(rules.isRegisteredName());
    assertEquals("rules", rules.toString());
    assertEquals("ollama:llama3.2", ModelReference.parse("ollama:llama3.2").toString());
  }

  @Test
  void badModelReferencesNameTheAllowedForms() {
    for (String bad : new String[] {"mistral:large", "openai:", "", "two words", null}) {
      String m = assertThrows(IllegalArgumentException.class, () -> ModelReference.parse(bad), bad).getMessage();
      assertTrue(m.contains("openai:<model>") && m.contains("anthropic:<model>") && m.contains("ollama:<model>")
          && m.contains("rules"), m);
    }
  }

  @Test
  void retryAfterInSecondsOrAsAnHttpDate() {
    assertEquals(Duration.ofSeconds(2), RetryAfterHttpClient.retryAfter("2"));
    assertEquals(Duration.ofMillis(1500), RetryAfterHttpClient.retryAfter(" 1.5 "));
    Duration inAMinute = RetryAfterHttpClient.retryAfter(
        ZonedDateTime.now().plusSeconds(60).format(DateTimeFormatter.RFC_1123_DATE_TIME));
    assertTrue(inAMinute.compareTo(Duration.ofSeconds(55)) > 0 && inAMinute.compareTo(Duration.ofSeconds(61)) < 0,
        String.valueOf(inAMinute));
    assertNull(RetryAfterHttpClient.retryAfter(
        ZonedDateTime.now().minusSeconds(60).format(DateTimeFormatter.RFC_1123_DATE_TIME)), "in the past");
    assertNull(RetryAfterHttpClient.retryAfter("soon"));
    assertNull(RetryAfterHttpClient.retryAfter("-3"));
    assertNull(RetryAfterHttpClient.retryAfter("0"));
    assertNull(RetryAfterHttpClient.retryAfter(null));
  }

  @Test
  void aBudgetShorterThanTheTimeOutIsRaisedToItAndZeroStaysOneAttempt() {
    LlmSettings s = LlmSettings.fromEnvironment(Map.of(LlmSettings.LLM_TIMEOUT, "180",
        LlmRetryBudget.VARIABLE, "60,openai:slow=600,ollama:once=0"));
    assertEquals(Duration.ofSeconds(180), s.callBudget("openai:gpt-4o"), "a first attempt has its whole time-out");
    assertEquals(Duration.ofSeconds(600), s.callBudget("openai:slow"));
    assertEquals(Duration.ZERO, s.callBudget("ollama:once"));
  }
}
