package io.durableagents.activities.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.agent.react.ReactPrompts;
import io.durableagents.workflows.agent.rewoo.ReWooPrompts;
import io.durableagents.workflows.autonomous.AutonomousPrompts;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.memory.MemoryPrompts;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LlmMaxOutputTokensTest {
  private static LlmRequest request(String model, String purpose, Integer own) {
    return new LlmRequest(model, List.of(ChatTurn.user("Hi")), List.of(), ToolChoice.NONE, null, purpose, null,
        null, own);
  }

  @Test
  void everyKindOfCallTheStrategiesMakeHasADefault() {
    for (String purpose : List.of(ReWooPrompts.PLAN_PURPOSE, ReWooPrompts.SOLVE_PURPOSE,
        CotPrompts.REASONING_PURPOSE, CotPrompts.EXECUTION_PURPOSE, CotPrompts.ANSWER_PURPOSE,
        ReactPrompts.TURN_PURPOSE, ReactPrompts.FINAL_PURPOSE, AutonomousPrompts.JUDGE_PURPOSE,
        MemoryPrompts.CONSOLIDATION_PURPOSE, MemoryPrompts.IMPORTANCE_PURPOSE)) {
      Integer n = LlmMaxOutputTokens.DEFAULTS.get(purpose);
      assertTrue(n != null && n > 0 && n < LlmMaxOutputTokens.DEFAULT_OTHER, purpose + ": " + n);
    }
    LlmMaxOutputTokens defaults = LlmMaxOutputTokens.defaults();
    assertEquals(640, defaults.of("openai:smollm2", ReWooPrompts.PLAN_PURPOSE));
    assertEquals(384, defaults.of("openai:smollm2", ReactPrompts.TURN_PURPOSE));
    assertEquals(256, defaults.of("rules", AutonomousPrompts.JUDGE_PURPOSE));
    assertEquals(LlmMaxOutputTokens.DEFAULT_OTHER, defaults.of("openai:smollm2", "something-else"));
    assertEquals(LlmMaxOutputTokens.DEFAULT_OTHER, defaults.of("openai:smollm2", null));
    assertEquals(defaults.of("x", "y"), LlmMaxOutputTokens.parse(" ").of("x", "y"), "blank is the defaults");
  }

  @Test
  void theWorkersEntriesGoFromTheMostSpecificToTheLeast() {
    LlmMaxOutputTokens max = LlmMaxOutputTokens.parse(
        "300, rewoo-plan=900, ollama:qwen3=2048, ollama:qwen3/react-turn=100, openai:meta-llama/Llama-3/rewoo-solve=50");
    assertEquals(100, max.of("ollama:qwen3", "react-turn"), "model/purpose");
    assertEquals(2048, max.of("ollama:qwen3", "rewoo-plan"), "model over purpose");
    assertEquals(900, max.of("openai:gpt-4o-mini", "rewoo-plan"), "purpose over the number for every model");
    assertEquals(300, max.of("openai:gpt-4o-mini", "react-turn"), "the number for every model over the defaults");
    assertEquals(300, max.of("openai:gpt-4o-mini", "unknown"));
    assertEquals(50, max.of("openai:meta-llama/Llama-3", "rewoo-solve"), "a model name with slashes");
    assertEquals(300, max.of("openai:meta-llama/Llama-3", "react-final"));
  }

  @Test
  void theRunsSettingWinsAndZeroSendsNone() {
    LlmMaxOutputTokens max = LlmMaxOutputTokens.parse("ollama:qwen3=2048,rewoo-solve=0");
    assertEquals(77, max.forRequest(request("ollama:qwen3", "rewoo-plan", 77)), "the run's over the worker's");
    assertEquals(2048, max.forRequest(request("ollama:qwen3", "rewoo-plan", null)));
    assertEquals(640, max.forRequest(request("openai:x", "rewoo-plan", null)), "the kind's default");
    assertNull(max.forRequest(request("openai:x", "rewoo-solve", null)), "0 on the worker: none sent");
    assertNull(max.forRequest(request("ollama:qwen3", "rewoo-plan", 0)), "0 for the run: none sent");
  }

  @Test
  void aBadValueFailsNamingTheVariableAndTheForms() {
    for (String bad : List.of("many", "-1", "openai:x=", "=5", "rewoo-plann=5", "nosuch:model=3", "openai:x=1.5")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LlmMaxOutputTokens.parse(bad), bad);
      assertTrue(e.getMessage().startsWith(LlmMaxOutputTokens.VARIABLE + "='" + bad + "' is not allowed"), e.getMessage());
      assertTrue(e.getMessage().contains("rewoo-plan"), "lists the purposes: " + e.getMessage());
    }
  }

  @Test
  void unsetItIsLeftOutOfTheJsonOfOptionsRequestsAndSpecsSoOldHistoriesReadTheSame() throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    String options = json.writeValueAsString(io.durableagents.workflows.agent.AgentOptions.defaults());
    assertTrue(!options.contains("maxOutputTokens"), options);
    assertEquals(300, json.readValue(json.writeValueAsString(io.durableagents.workflows.agent.AgentOptions
        .newBuilder().setMaxOutputTokens(300).build()), io.durableagents.workflows.agent.AgentOptions.class)
        .maxOutputTokens());
    String request = json.writeValueAsString(request("rules", "react-turn", null));
    assertTrue(!request.contains("maxOutputTokens"), request);
    String spec = json.writeValueAsString(new io.durableagents.workflows.autonomous.AgentSpec("a", null, "r",
        "rules", null, null, null, null, List.of(), null, null));
    assertTrue(!spec.contains("maxOutputTokens"), spec);
    io.durableagents.workflows.llm.LlmResponse old = json.readValue("{\"model\":\"rules\",\"text\":\"hi\","
        + "\"latencyMillis\":3}", io.durableagents.workflows.llm.LlmResponse.class);
    assertNull(old.maxOutputTokens(), "a recorded answer from before reads with none");
  }

  @Test
  void theWorkersSettingsReadTheVariable() {
    LlmSettings s = LlmSettings.fromEnvironment(Map.of(LlmMaxOutputTokens.VARIABLE, "openai:smollm2=200"));
    assertEquals(200, s.maxOutputTokens().of("openai:smollm2", ReWooPrompts.PLAN_PURPOSE));
    assertEquals(640, LlmSettings.fromEnvironment(Map.of()).maxOutputTokens().of("openai:smollm2", "rewoo-plan"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LlmSettings.fromEnvironment(Map.of(LlmMaxOutputTokens.VARIABLE, "lots")));
    assertTrue(e.getMessage().contains(LlmMaxOutputTokens.VARIABLE), e.getMessage());
  }
}
