package io.durableagents.activities.llm;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.util.List;

/**
 * A local stand-in for an OpenAI-compatible server: WireMock on 127.0.0.1 at a free port, answering
 * {@code POST /v1/chat/completions} in OpenAI's chat-completions wire format.
 */
final class OpenAiStandIn implements AutoCloseable {
  static final String PATH = "/v1/chat/completions";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  final WireMockServer server;

  OpenAiStandIn() {
    server = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
    server.start();
  }

  /** The value for OPENAI_BASE_URL. */
  String baseUrl() {
    return "http://127.0.0.1:" + server.port() + "/v1";
  }

  /** A chat completion whose single choice is {@code message}, with 50 input and 10 output tokens. */
  static String completion(String message, String finishReason) {
    return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-test-2025\","
        + "\"choices\":[{\"index\":0,\"message\":" + message + ",\"finish_reason\":\"" + finishReason + "\"}],"
        + "\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":10,\"total_tokens\":60}}";
  }

  /** An assistant message that answers in text. */
  static String text(String content) {
    return completion("{\"role\":\"assistant\",\"content\":" + quote(content) + "}", "stop");
  }

  /** An assistant message that calls tools. */
  static String toolCalls(String... calls) {
    return completion("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
        + String.join(",", calls) + "]}", "tool_calls");
  }

  /** One tool call; a null id leaves the id out, as some OpenAI-compatible servers do. */
  static String toolCall(String id, String name, String arguments) {
    return "{" + (id == null ? "" : "\"id\":\"" + id + "\",") + "\"type\":\"function\",\"function\":{\"name\":\""
        + name + "\",\"arguments\":" + quote(arguments) + "}}";
  }

  static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  static ResponseDefinitionBuilder ok(String body) {
    return aResponse().withHeader("Content-Type", "application/json").withBody(body);
  }

  /** Every call gets {@code response}. */
  void answer(ResponseDefinitionBuilder response) {
    server.stubFor(post(urlEqualTo(PATH)).willReturn(response));
  }

  /** The first call gets {@code first}, every later one {@code then}. */
  void answerFirstThen(ResponseDefinitionBuilder first, ResponseDefinitionBuilder then) {
    server.stubFor(post(urlEqualTo(PATH)).inScenario("first-then").whenScenarioStateIs(Scenario.STARTED)
        .willReturn(first).willSetStateTo("then"));
    server.stubFor(post(urlEqualTo(PATH)).inScenario("first-then").whenScenarioStateIs("then")
        .willReturn(then));
  }

  /** The requests the stand-in received, oldest first. */
  List<LoggedRequest> requests() {
    return server.findAll(com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(urlEqualTo(PATH)));
  }

  /** The JSON body of the only request received. */
  JsonNode onlyRequestBody() throws Exception {
    List<LoggedRequest> requests = requests();
    if (requests.size() != 1) {
      throw new AssertionError("expected 1 request, got " + requests.size());
    }
    return MAPPER.readTree(requests.get(0).getBodyAsString());
  }

  @Override
  public void close() {
    server.stop();
  }
}
