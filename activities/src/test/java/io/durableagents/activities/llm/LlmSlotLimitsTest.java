package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LlmSlotLimitsTest {
  @Test
  void aNumberForEveryModelAndEntriesForSome() {
    LlmSlotLimits limits = LlmSlotLimits.parse(" 4, openai:smollm2=1 ,ollama:llama3.2:1b=2");
    assertEquals(1, limits.of("openai:smollm2"));
    assertEquals(2, limits.of("ollama:llama3.2:1b"), "a model name may hold colons");
    assertEquals(4, limits.of("anthropic:claude"));
  }

  @Test
  void unsetOrZeroIsNoLimit() {
    assertTrue(LlmSlotLimits.parse(null).isNone());
    assertTrue(LlmSlotLimits.parse("  ").isNone());
    assertEquals(0, LlmSlotLimits.parse("openai:x=0").of("openai:x"));
    assertTrue(LlmSlotLimits.parse("openai:x=0").isNone());
  }

  @Test
  void aBadValueNamesTheVariableAndTheForms() {
    for (String bad : new String[] {"two", "openai:x=-1", "=3", "mistral:large=2", "openai:x=1.5"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LlmSlotLimits.parse(bad));
      assertTrue(e.getMessage().startsWith(LlmSlotLimits.VARIABLE + "='" + bad + "' is not allowed"), e.getMessage());
      assertTrue(e.getMessage().contains("e.g. openai:smollm2=1"), e.getMessage());
    }
  }
}
