package io.durableagents.activities.llm;

import static io.durableagents.activities.llm.OpenAiStandIn.ok;
import static io.durableagents.activities.llm.OpenAiStandIn.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.durableagents.activities.metrics.AgentMetrics;
import io.durableagents.activities.metrics.MetricNames;
import io.durableagents.activities.payload.PayloadGuard;
import io.durableagents.activities.rules.RulesChatModel;
import io.durableagents.workflows.agent.react.ReactPrompts;
import io.durableagents.workflows.agent.rewoo.ReWooPrompts;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.ToolChoice;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The maximum output length on the wire: what LangChain4j's OpenAI client sends for it to an
 * OpenAI-compatible server (a local stand-in), and an answer cut there counted as cut.
 */
class MaxOutputTokensWireTest {
  private static final String MODEL = "openai:smollm2";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private OpenAiStandIn standIn;
  private SimpleMeterRegistry registry;

  @BeforeEach
  void setUp() {
    standIn = new OpenAiStandIn();
    registry = new SimpleMeterRegistry();
  }

  @AfterEach
  void tearDown() {
    standIn.close();
  }

  private LlmActivitiesImpl activities(String variable) {
    LlmSettings settings = LlmSettings.newBuilder().openAiBaseUrl(standIn.baseUrl())
        .maxOutputTokens(LlmMaxOutputTokens.parse(variable)).build();
    return new LlmActivitiesImpl(ChatModelProvider.newBuilder().settings(settings)
        .register("rules", new RulesChatModel()).build(), CitizenActions.registry(Path.of("target")),
        new AgentMetrics(registry), PayloadGuard.defaults());
  }

  private static LlmRequest plan(Integer own) {
    return new LlmRequest(MODEL, List.of(ChatTurn.user("Plan in JSON.")), List.of("calculator"), ToolChoice.NONE,
        null, ReWooPrompts.PLAN_PURPOSE, LlmRequest.ResponseFormat.JSON, null, own);
  }

  private JsonNode lastBody() throws Exception {
    var requests = standIn.requests();
    return MAPPER.readTree(requests.get(requests.size() - 1).getBodyAsString());
  }

  @Test
  void aPlannerCallSendsThePlannersDefaultAsMaxTokens() throws Exception {
    standIn.answer(ok(text("{\"plan\":[{\"id\":\"E1\",\"tool\":\"calculator\",\"args\":{\"expression\":\"1+1\"}}]}")));
    LlmResponse r = activities(null).chat(plan(null));

    JsonNode sent = standIn.onlyRequestBody();
    int planner = LlmMaxOutputTokens.DEFAULTS.get(ReWooPrompts.PLAN_PURPOSE);
    assertEquals(planner, sent.path("max_tokens").asInt(), sent.toString());
    assertFalse(sent.has("max_completion_tokens"), "llama.cpp's server and Ollama's /v1 read max_tokens");
    assertEquals(planner, r.maxOutputTokens(), "the history shows the number sent");
    assertEquals(1, r.toolCalls().size());
    assertFalse(r.wasCut());
  }

  @Test
  void theRunsSettingBeatsTheWorkersWhichBeatsTheDefault() throws Exception {
    standIn.answer(ok(text("Fine.")));
    LlmActivitiesImpl llm = activities("openai:smollm2=200,react-turn=300");

    assertEquals(90, llm.chat(plan(90)).maxOutputTokens());
    assertEquals(90, lastBody().path("max_tokens").asInt());
    assertEquals(200, llm.chat(plan(null)).maxOutputTokens());
    assertEquals(200, lastBody().path("max_tokens").asInt());
    LlmResponse none = llm.chat(plan(0));
    assertNull(none.maxOutputTokens());
    assertFalse(lastBody().has("max_tokens"), "0 sends no maximum: " + lastBody());
  }

  @Test
  void anAnswerCutAtMaxTokensIsCutAndCounted() {
    standIn.answer(ok(OpenAiStandIn.completion("{\"role\":\"assistant\",\"content\":\"Thought: I will\"}", "length")));
    LlmActivitiesImpl llm = activities(null);
    LlmResponse cut = llm.chat(new LlmRequest(MODEL, List.of(ChatTurn.user("Act.")), List.of(), ToolChoice.NONE,
        null, ReactPrompts.TURN_PURPOSE));
    assertTrue(cut.wasCut());
    assertEquals(Boolean.TRUE, cut.cut());
    assertTrue(cut.warnings().get(0).startsWith(LlmActivitiesImpl.CUT_WARNING), cut.warnings().toString());
    assertTrue(cut.warnings().get(0).contains("at 384 tokens for react-turn: " + LlmMaxOutputTokens.VARIABLE
        + " raises it"), "the warning names the limit and what raises it: " + cut.warnings());
    assertEquals(384, cut.maxOutputTokens());

    LlmResponse cutPlan = llm.chat(plan(120));
    assertTrue(cutPlan.wasCut());
    assertTrue(cutPlan.warnings().get(0).contains("at 120 tokens for rewoo-plan: the run's --max-output-tokens"),
        cutPlan.warnings().toString());
    assertTrue(cutPlan.toolCalls().isEmpty(), "a cut plan has no steps");

    Counter turns = registry.find(MetricNames.LLM_CUT_ANSWERS)
        .tags("model", MODEL, "purpose", ReactPrompts.TURN_PURPOSE, "by", "model").counter();
    Counter plans = registry.find(MetricNames.LLM_CUT_ANSWERS)
        .tags("model", MODEL, "purpose", ReWooPrompts.PLAN_PURPOSE, "by", "model").counter();
    assertEquals(1.0, turns == null ? 0 : turns.count());
    assertEquals(1.0, plans == null ? 0 : plans.count());
  }

  @Test
  void anAnswerThatEndsIsNotCounted() {
    standIn.answer(ok(text("Done.")));
    activities(null).chat(plan(null));
    assertNull(registry.find(MetricNames.LLM_CUT_ANSWERS).counter());
  }

  @Test
  void openAisOwnApiGetsMaxCompletionTokensAndTheRestOfTheRequestStays() throws Exception {
    standIn.answer(ok(text("Fine.")));
    LlmSettings openAi = LlmSettings.newBuilder().openAiApiKey("sk-test").build();
    assertTrue(openAi.isOpenAiItself());
    dev.langchain4j.model.chat.request.ChatRequest.Builder chat = dev.langchain4j.model.chat.request.ChatRequest
        .builder().messages(dev.langchain4j.data.message.UserMessage.from("Hi")).temperature(0.3);
    ProviderRequests.offerTools(chat, CitizenActions.registry(Path.of("target")).specifications(List.of("calculator")),
        ToolChoice.AUTO, dev.langchain4j.model.ModelProvider.OPEN_AI);
    ProviderRequests.maxOutputTokens(chat, 640, "openai:gpt-5-mini", dev.langchain4j.model.ModelProvider.OPEN_AI, openAi);
    // the real client, sending to the stand-in what it would send to api.openai.com
    dev.langchain4j.model.openai.OpenAiChatModel.builder().baseUrl(standIn.baseUrl()).apiKey("sk-test")
        .modelName("gpt-5-mini").build().chat(chat.build());

    JsonNode sent = standIn.onlyRequestBody();
    assertEquals(640, sent.path("max_completion_tokens").asInt(), sent.toString());
    assertFalse(sent.has("max_tokens"), "OpenAI's reasoning models reject max_tokens: " + sent);
    assertEquals(0.3, sent.path("temperature").asDouble(), 1e-9);
    assertEquals("calculator", sent.path("tools").path(0).path("function").path("name").asText(), sent.toString());
    assertEquals("auto", sent.path("tool_choice").asText());

    // any other OpenAI-compatible server, or a model registered by name, gets max_tokens
    dev.langchain4j.model.chat.request.ChatRequest.Builder local = dev.langchain4j.model.chat.request.ChatRequest
        .builder().messages(dev.langchain4j.data.message.UserMessage.from("Hi"));
    ProviderRequests.maxOutputTokens(local, 640, "support-bot", dev.langchain4j.model.ModelProvider.OPEN_AI, openAi);
    assertEquals(640, local.build().parameters().maxOutputTokens());
  }

  @Test
  void theRulesModelIgnoresTheMaximum() {
    LlmResponse r = activities("rules=5").chat(new LlmRequest("rules",
        List.of(ChatTurn.system("You are a citizen."), ChatTurn.user("Act.")), List.of(), ToolChoice.NONE, null,
        ReactPrompts.TURN_PURPOSE));
    assertEquals(5, r.maxOutputTokens());
    assertFalse(r.wasCut());
  }
}
