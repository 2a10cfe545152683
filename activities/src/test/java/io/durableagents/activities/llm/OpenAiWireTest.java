package io.durableagents.activities.llm;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.durableagents.activities.rules.RulesChatModel;
import io.durableagents.activities.tools.BuiltinTools;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.llm.LlmCallOptions;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.llm.ToolChoice;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestActivityEnvironment;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The LLM activity through the real LangChain4j OpenAI client, against a local stand-in that speaks
 * OpenAI's chat-completions wire format.
 */
class OpenAiWireTest {
  private static final String PATH = "/v1/chat/completions";
  private static final String MODEL = "openai:gpt-test";

  private WireMockServer server;
  private LlmActivitiesImpl activities;

  @BeforeEach
  void setUp() {
    server = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
    server.start();
    LlmSettings settings = LlmSettings.newBuilder()
        .openAiBaseUrl("http://127.0.0.1:" + server.port() + "/v1").openAiApiKey("sk-test-secret").build();
    activities = new LlmActivitiesImpl(
        ChatModelProvider.newBuilder().settings(settings).register("rules", new RulesChatModel()).build(),
        BuiltinTools.registry(Path.of("target")));
  }

  @AfterEach
  void tearDown() {
    server.stop();
  }

  static String completion(String message, String finish) {
    return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-test-2025\","
        + "\"choices\":[{\"index\":0,\"message\":" + message + ",\"finish_reason\":\"" + finish + "\"}],"
        + "\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":10,\"total_tokens\":60}}";
  }

  static String toolCall(String id, String name, String args) {
    return "{\"id\":\"" + id + "\",\"type\":\"function\",\"function\":{\"name\":\"" + name
        + "\",\"arguments\":" + quote(args) + "}}";
  }

  static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  static final String TEXT_OK = completion("{\"role\":\"assistant\",\"content\":\"Hello\"}", "stop");

  private static LlmRequest request(List<String> tools, ToolChoice choice) {
    return new LlmRequest(MODEL, List.of(ChatTurn.system("You are a citizen."), ChatTurn.user("Act.")),
        tools, choice, null, "test");
  }

  @Test
  void anAnswerWithToolCallsComesBackCheckedWithTokenUsage() {
    server.stubFor(post(urlEqualTo(PATH)).willReturn(aResponse().withHeader("Content-Type", "application/json")
        .withBody(completion("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
            + toolCall("call_1", "move_one_step", "{\"direction\":\"North\"}") + ","
            + toolCall("call_2", "teleport", "{}") + ","
            + toolCall("call_3", "move_one_step", "{\"direction\":\"Up\"}") + ","
            + toolCall("call_4", "change_state", "{not json") + "]}", "tool_calls"))));

    LlmResponse r = activities.chat(request(List.of("move_one_step", "change_state"), ToolChoice.REQUIRED));

    assertEquals("gpt-test-2025", r.model());
    assertEquals(50, r.usage().input());
    assertEquals(10, r.usage().output());
    assertEquals(4, r.toolCalls().size());
    ToolCall ok = r.toolCalls().get(0);
    assertTrue(ok.valid());
    assertEquals("call_1", ok.id());
    assertEquals("North", ok.arguments().get("direction").asText());
    assertTrue(r.toolCalls().get(1).error().startsWith("unknown tool 'teleport'"), r.toolCalls().get(1).error());
    assertTrue(r.toolCalls().get(2).error().contains("\"Up\" is not one of North"), r.toolCalls().get(2).error());
    assertTrue(r.toolCalls().get(3).error().startsWith("arguments are not valid JSON"));
    assertEquals("{not json", r.toolCalls().get(3).rawArguments());

    server.verify(1, postRequestedFor(urlEqualTo(PATH))
        .withHeader("Authorization", com.github.tomakehurst.wiremock.client.WireMock.equalTo("Bearer sk-test-secret"))
        .withRequestBody(matchingJsonPath("$.tool_choice", com.github.tomakehurst.wiremock.client.WireMock.equalTo("required")))
        .withRequestBody(matchingJsonPath("$.tools[0].function.name", com.github.tomakehurst.wiremock.client.WireMock.equalTo("move_one_step")))
        .withRequestBody(matchingJsonPath("$.tools[0].function.parameters.properties.direction.enum"))
        .withRequestBody(matchingJsonPath("$.model", com.github.tomakehurst.wiremock.client.WireMock.equalTo("gpt-test"))));
  }

  @Test
  void noToolChoiceIsSentWithoutTools() {
    server.stubFor(post(urlEqualTo(PATH)).willReturn(aResponse().withHeader("Content-Type", "application/json").withBody(TEXT_OK)));
    LlmResponse r = activities.chat(request(List.of(), ToolChoice.NONE));
    assertEquals("Hello", r.text());
    String body = server.getAllServeEvents().get(0).getRequest().getBodyAsString();
    assertFalse(body.contains("tool_choice"), body);
    assertFalse(body.contains("\"tools\""), body);
  }

  @Test
  void rateLimitIsRetryableWithTheProvidersRetryAfter() {
    server.stubFor(post(urlEqualTo(PATH)).willReturn(aResponse().withStatus(429).withHeader("Retry-After", "2")
        .withBody("{\"error\":{\"message\":\"slow down\",\"type\":\"rate_limit\"}}")));
    ApplicationFailure f = assertThrows(ApplicationFailure.class,
        () -> activities.chat(request(List.of(), ToolChoice.PROVIDER_DEFAULT)));
    assertEquals(LlmFailureTypes.RATE_LIMITED, f.getType());
    assertFalse(f.isNonRetryable());
    assertEquals(Duration.ofSeconds(2), f.getNextRetryDelay());
    assertFalse(f.getOriginalMessage().contains("sk-test-secret"));
  }

  /** Calls the LLM activity once with the production retry policy. */
  @WorkflowInterface
  public interface CallLlm {
    @WorkflowMethod
    List<Long> call(LlmRequest request);
  }

  /** Returns the workflow time before and after the call, and the answer's output tokens. */
  public static class CallLlmImpl implements CallLlm {
    @Override
    public List<Long> call(LlmRequest request) {
      long before = Workflow.currentTimeMillis();
      LlmResponse r = Workflow.newActivityStub(LlmActivities.class, LlmCallOptions.forModel(request.model()))
          .chat(request);
      return List.of(before, Workflow.currentTimeMillis(), r.usage().output());
    }
  }

  private List<Long> runInWorkflow() {
    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
      env.newWorker("llm-test").registerWorkflowImplementationTypes(CallLlmImpl.class);
      env.newWorker(io.durableagents.workflows.TaskQueues.LLM).registerActivitiesImplementations(activities);
      env.start();
      return env.getWorkflowClient().newWorkflowStub(CallLlm.class,
          WorkflowOptions.newBuilder().setTaskQueue("llm-test").build()).call(request(List.of(), ToolChoice.PROVIDER_DEFAULT));
    }
  }

  private void failFirstWith(int status, String retryAfter) {
    var first = aResponse().withStatus(status).withBody("{\"error\":{\"message\":\"try again\"}}");
    if (retryAfter != null) {
      first = first.withHeader("Retry-After", retryAfter);
    }
    server.stubFor(post(urlEqualTo(PATH)).inScenario("retry").whenScenarioStateIs(Scenario.STARTED)
        .willReturn(first).willSetStateTo("second"));
    server.stubFor(post(urlEqualTo(PATH)).inScenario("retry").whenScenarioStateIs("second")
        .willReturn(aResponse().withHeader("Content-Type", "application/json").withBody(TEXT_OK)));
  }

  @Test
  void a429IsRetriedAfterItsRetryAfter() {
    failFirstWith(429, "5");
    List<Long> r = runInWorkflow();
    assertEquals(10L, r.get(2));
    assertEquals(2, server.getAllServeEvents().size());
    assertTrue(r.get(1) - r.get(0) >= 5000, "the retry waited for Retry-After: " + (r.get(1) - r.get(0)) + " ms");
  }

  @Test
  void a500IsRetried() {
    failFirstWith(500, null);
    List<Long> r = runInWorkflow();
    assertEquals(10L, r.get(2));
    assertEquals(2, server.getAllServeEvents().size());
  }

  @Test
  void a401FailsAtOnceWithATypedNonRetryableFailure() {
    server.stubFor(post(urlEqualTo(PATH)).willReturn(aResponse().withStatus(401)
        .withBody("{\"error\":{\"message\":\"Incorrect API key\",\"type\":\"invalid_request_error\"}}")));
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, this::runInWorkflow);
    ActivityFailure activity = assertInstanceOf(ActivityFailure.class, e.getCause());
    ApplicationFailure f = assertInstanceOf(ApplicationFailure.class, activity.getCause());
    assertEquals(LlmFailureTypes.AUTHENTICATION, f.getType());
    assertTrue(f.isNonRetryable());
    assertEquals(1, server.getAllServeEvents().size(), "no retry");
  }

  @Test
  void aSlowCallHeartbeatsWhileItWaits() {
    server.stubFor(post(urlEqualTo(PATH)).willReturn(aResponse().withHeader("Content-Type", "application/json")
        .withBody(TEXT_OK).withFixedDelay(4500)));
    TestActivityEnvironment env = TestActivityEnvironment.newInstance();
    try {
      AtomicInteger beats = new AtomicInteger();
      env.setActivityHeartbeatListener(Object.class, details -> beats.incrementAndGet());
      env.registerActivitiesImplementations(activities);
      LlmActivities stub = env.newActivityStub(LlmActivities.class, ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30)).setHeartbeatTimeout(Duration.ofSeconds(10)).build());
      assertEquals("Hello", stub.chat(request(List.of(), ToolChoice.PROVIDER_DEFAULT)).text());
      assertTrue(beats.get() >= 1, "heartbeats: " + beats.get());
    } finally {
      env.close();
    }
  }

  @Test
  void aProviderWithoutItsKeyIsNotConfigured() {
    ChatModelProvider noKey = ChatModelProvider.newBuilder().settings(LlmSettings.newBuilder().build()).build();
    ApplicationFailure f = assertThrows(ApplicationFailure.class, () -> noKey.get("openai:gpt-4o-mini"));
    assertEquals(LlmFailureTypes.PROVIDER_NOT_CONFIGURED, f.getType());
    assertTrue(f.getOriginalMessage().contains("OPENAI_API_KEY"));
    assertTrue(f.isNonRetryable());
    ApplicationFailure unknown = assertThrows(ApplicationFailure.class, () -> noKey.get("gpt-4"));
    assertTrue(unknown.getOriginalMessage().contains("openai:<model>"), unknown.getOriginalMessage());
  }
}
