package io.durableagents.activities.llm;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.ToolChoice;
import io.temporal.failure.ApplicationFailure;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Anthropic and Ollama are wired through the same activity: a text answer and an error each. */
class OtherProvidersWireTest {
  private WireMockServer server;
  private LlmActivitiesImpl activities;

  @BeforeEach
  void setUp() {
    server = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
    server.start();
    String base = "http://127.0.0.1:" + server.port();
    LlmSettings settings = LlmSettings.newBuilder().anthropicBaseUrl(base + "/v1/")
        .anthropicApiKey("ant-secret").ollamaBaseUrl(base).build();
    activities = new LlmActivitiesImpl(ChatModelProvider.newBuilder().settings(settings).build(),
        CitizenActions.registry(Path.of("target")));
  }

  @AfterEach
  void tearDown() {
    server.stop();
  }

  private LlmResponse ask(String model) {
    return activities.chat(new LlmRequest(model, List.of(ChatTurn.system("Be brief."), ChatTurn.user("Hi")),
        List.of(), ToolChoice.PROVIDER_DEFAULT, null, "test"));
  }

  @Test
  void anthropic() {
    server.stubFor(post(urlEqualTo("/v1/messages")).willReturn(aResponse()
        .withHeader("Content-Type", "application/json")
        .withBody("{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\","
            + "\"content\":[{\"type\":\"text\",\"text\":\"Hello\"}],\"stop_reason\":\"end_turn\","
            + "\"usage\":{\"input_tokens\":12,\"output_tokens\":3}}")));
    LlmResponse r = ask("anthropic:claude-test");
    assertEquals("Hello", r.text());
    assertEquals(12, r.usage().input());
    assertEquals(3, r.usage().output());
    server.verify(postRequestedFor(urlEqualTo("/v1/messages")).withHeader("x-api-key", equalTo("ant-secret")));
  }

  @Test
  void anthropicRateLimitCarriesRetryAfter() {
    server.stubFor(post(urlEqualTo("/v1/messages")).willReturn(aResponse().withStatus(429)
        .withHeader("Retry-After", "3").withBody("{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\"}}")));
    ApplicationFailure f = assertThrows(ApplicationFailure.class, () -> ask("anthropic:claude-test"));
    assertEquals(LlmFailureTypes.RATE_LIMITED, f.getType());
    assertEquals(java.time.Duration.ofSeconds(3), f.getNextRetryDelay());
  }

  @Test
  void ollama() {
    server.stubFor(post(urlEqualTo("/api/chat")).willReturn(aResponse()
        .withHeader("Content-Type", "application/json")
        .withBody("{\"model\":\"llama-test\",\"created_at\":\"2026-01-01T00:00:00Z\","
            + "\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"},\"done\":true,"
            + "\"done_reason\":\"stop\",\"prompt_eval_count\":12,\"eval_count\":3}")));
    LlmResponse r = ask("ollama:llama-test");
    assertEquals("Hello", r.text());
    assertEquals(15, r.usage().total());
  }

  private static final String OLLAMA_TEXT = "{\"model\":\"llama-test\",\"created_at\":\"2026-01-01T00:00:00Z\","
      + "\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"},\"done\":true,\"done_reason\":\"stop\"}";

  private com.fasterxml.jackson.databind.JsonNode lastBody() throws Exception {
    var events = server.getAllServeEvents();
    return new com.fasterxml.jackson.databind.ObjectMapper().readTree(events.get(0).getRequest().getBodyAsString());
  }

  @Test
  void ollamaGetsTheMaximumOutputLengthAsNumPredict() throws Exception {
    server.stubFor(post(urlEqualTo("/api/chat")).willReturn(aResponse()
        .withHeader("Content-Type", "application/json").withBody(OLLAMA_TEXT)));
    LlmResponse r = activities.chat(new LlmRequest("ollama:llama-test", List.of(ChatTurn.user("Hi")),
        List.of(), ToolChoice.NONE, null, "rewoo-plan"));
    assertEquals(LlmMaxOutputTokens.DEFAULTS.get("rewoo-plan"), lastBody().path("options").path("num_predict").asInt(),
        lastBody().toString());
    assertEquals(LlmMaxOutputTokens.DEFAULTS.get("rewoo-plan"), r.maxOutputTokens());
  }

  @Test
  void anthropicGetsTheMaximumOutputLengthAsMaxTokens() throws Exception {
    server.stubFor(post(urlEqualTo("/v1/messages")).willReturn(aResponse()
        .withHeader("Content-Type", "application/json")
        .withBody("{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\","
            + "\"content\":[{\"type\":\"text\",\"text\":\"Hello\"}],\"stop_reason\":\"max_tokens\","
            + "\"usage\":{\"input_tokens\":12,\"output_tokens\":3}}")));
    LlmResponse r = activities.chat(new LlmRequest("anthropic:claude-test", List.of(ChatTurn.user("Hi")),
        List.of(), ToolChoice.NONE, null, "react-turn"));
    assertEquals(LlmMaxOutputTokens.DEFAULTS.get("react-turn"), lastBody().path("max_tokens").asInt(),
        lastBody().toString());
    assertTrue(r.wasCut(), "Anthropic's stop reason max_tokens is a cut answer");
  }

  @Test
  void ollamaTakesNoToolChoiceSoNoneDropsTheTools() throws Exception {
    server.stubFor(post(urlEqualTo("/api/chat")).willReturn(aResponse()
        .withHeader("Content-Type", "application/json").withBody(OLLAMA_TEXT)));
    LlmResponse r = activities.chat(new LlmRequest("ollama:llama-test", List.of(ChatTurn.user("Hi")),
        List.of("calculator"), ToolChoice.NONE, null, "test"));
    assertEquals("Hello", r.text());
    assertTrue(lastBody().path("tools").isEmpty(), "no tools offered: " + lastBody());
  }

  @Test
  void ollamaGetsTheToolsWhenTheyAreRequired() throws Exception {
    server.stubFor(post(urlEqualTo("/api/chat")).willReturn(aResponse()
        .withHeader("Content-Type", "application/json").withBody(OLLAMA_TEXT)));
    activities.chat(new LlmRequest("ollama:llama-test", List.of(ChatTurn.user("Hi")),
        List.of("calculator"), ToolChoice.REQUIRED, null, "test"));
    assertEquals("calculator", lastBody().path("tools").path(0).path("function").path("name").asText(),
        lastBody().toString());
  }

  @Test
  void anthropicGetsToolChoiceNone() throws Exception {
    server.stubFor(post(urlEqualTo("/v1/messages")).willReturn(aResponse()
        .withHeader("Content-Type", "application/json")
        .withBody("{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\","
            + "\"content\":[{\"type\":\"text\",\"text\":\"Hello\"}],\"stop_reason\":\"end_turn\","
            + "\"usage\":{\"input_tokens\":12,\"output_tokens\":3}}")));
    activities.chat(new LlmRequest("anthropic:claude-test", List.of(ChatTurn.user("Hi")),
        List.of("calculator"), ToolChoice.NONE, null, "test"));
    assertEquals("none", lastBody().path("tool_choice").path("type").asText(), lastBody().toString());
    assertEquals("calculator", lastBody().path("tools").path(0).path("name").asText());
  }

  @Test
  void anthropicGetsEarlierToolTurnsAsTextWhenTheCallOffersNoTools() throws Exception {
    server.stubFor(post(urlEqualTo("/v1/messages")).willReturn(aResponse()
        .withHeader("Content-Type", "application/json")
        .withBody("{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\","
            + "\"content\":[{\"type\":\"text\",\"text\":\"391\"}],\"stop_reason\":\"end_turn\","
            + "\"usage\":{\"input_tokens\":12,\"output_tokens\":3}}")));
    io.durableagents.workflows.llm.ToolCall call = io.durableagents.workflows.llm.ToolCall.of("toolu_1", "calculator",
        new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"expression\":\"17*23\"}"));
    activities.chat(new LlmRequest("anthropic:claude-test", List.of(ChatTurn.user("What is 17*23?"),
        ChatTurn.assistant(null, List.of(call)), ChatTurn.toolResult(call, "391"),
        ChatTurn.user("Answer now.")), List.of(), ToolChoice.NONE, null, "react-final"));
    String body = lastBody().toString();
    assertTrue(!body.contains("tool_use") && !body.contains("tool_result"), body);
    assertTrue(body.contains("Called calculator({\\\"expression\\\":\\\"17*23\\\"}) [toolu_1]"), body);
    assertTrue(body.contains("Result of calculator [toolu_1]: 391"), body);
  }

  @Test
  void ollamaGetsJsonFormatForAPlanner() throws Exception {
    server.stubFor(post(urlEqualTo("/api/chat")).willReturn(aResponse()
        .withHeader("Content-Type", "application/json").withBody(OLLAMA_TEXT)));
    activities.chat(new LlmRequest("ollama:llama-test", List.of(ChatTurn.user("Plan in JSON.")),
        List.of("calculator"), ToolChoice.NONE, null, "rewoo-plan", LlmRequest.ResponseFormat.JSON));
    assertEquals("json", lastBody().path("format").asText(), lastBody().toString());
  }

  @Test
  void anthropicGetsNoJsonModeItWouldRejectAndThePlanIsStillRead() throws Exception {
    server.stubFor(post(urlEqualTo("/v1/messages")).willReturn(aResponse()
        .withHeader("Content-Type", "application/json")
        .withBody("{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\","
            + "\"content\":[{\"type\":\"text\",\"text\":\"[{\\\"id\\\":\\\"E1\\\",\\\"tool\\\":\\\"calculator\\\","
            + "\\\"args\\\":{\\\"expression\\\":\\\"2+2\\\"}}]\"}],\"stop_reason\":\"end_turn\","
            + "\"usage\":{\"input_tokens\":12,\"output_tokens\":3}}")));
    LlmResponse r = activities.chat(new LlmRequest("anthropic:claude-test", List.of(ChatTurn.user("Plan in JSON.")),
        List.of("calculator"), ToolChoice.NONE, null, "rewoo-plan", LlmRequest.ResponseFormat.JSON));
    assertTrue(!lastBody().has("response_format") && !lastBody().has("output_format"), lastBody().toString());
    assertEquals(1, r.toolCalls().size());
    assertEquals("E1", r.toolCalls().get(0).id());
    assertTrue(r.toolCalls().get(0).valid(), r.toolCalls().get(0).error());
  }

  @Test
  void ollamaUnknownModelFailsAtOnce() {
    server.stubFor(post(urlEqualTo("/api/chat")).willReturn(aResponse().withStatus(404)
        .withBody("{\"error\":\"model 'nope' not found\"}")));
    ApplicationFailure f = assertThrows(ApplicationFailure.class, () -> ask("ollama:nope"));
    assertEquals(LlmFailureTypes.MODEL_NOT_FOUND, f.getType());
    assertTrue(f.isNonRetryable());
  }
}
