package io.durableagents.activities.llm;

import static io.durableagents.activities.llm.OpenAiStandIn.ok;
import static io.durableagents.activities.llm.OpenAiStandIn.text;
import static io.durableagents.activities.llm.OpenAiStandIn.toolCall;
import static io.durableagents.activities.llm.OpenAiStandIn.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.client.WireMock;
import io.durableagents.workflows.TaskQueues;
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
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.testing.TestActivityEnvironment;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The LLM activity through the real LangChain4j OpenAI client, against a local stand-in that speaks
 * OpenAI's chat-completions wire format.
 */
class OpenAiWireTest {
  private static final String MODEL = "openai:gpt-test";
  private static final String KEY = "sk-test-secret-0123456789";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private OpenAiStandIn standIn;
  private LlmActivitiesImpl activities;

  @BeforeEach
  void setUp() {
    standIn = new OpenAiStandIn();
    activities = activitiesFor(LlmSettings.newBuilder().openAiBaseUrl(standIn.baseUrl()).openAiApiKey(KEY).build());
  }

  @AfterEach
  void tearDown() {
    standIn.close();
  }

  private static LlmActivitiesImpl activitiesFor(LlmSettings settings) {
    return new LlmActivitiesImpl(ChatModelProvider.newBuilder().settings(settings).build(),
        CitizenActions.registry(Path.of("target")));
  }

  private static LlmRequest request(List<String> tools, ToolChoice choice) {
    return new LlmRequest(MODEL, List.of(ChatTurn.system("You are a citizen."), ChatTurn.user("Act.")),
        tools, choice, null, "test");
  }

  // ---- answers and tool calls ----

  @Test
  void anAnswerWithToolCallsComesBackWithIdsArgumentsAndTokenUsage() throws Exception {
    standIn.answer(ok(toolCalls(
        toolCall("call_1", "move_one_step", "{\"direction\":\"North\"}"),
        toolCall(null, "change_state", "{\"state\":\"active\"}"))));

    LlmResponse r = activities.chat(request(List.of("move_one_step", "change_state"), ToolChoice.REQUIRED));

    assertEquals("gpt-test-2025", r.model(), "the model name the provider reports");
    assertEquals(50, r.usage().input());
    assertEquals(10, r.usage().output());
    assertEquals("TOOL_EXECUTION", r.finishReason());
    assertEquals(2, r.toolCalls().size());
    ToolCall move = r.toolCalls().get(0);
    assertTrue(move.valid(), move.error());
    assertEquals("call_1", move.id());
    assertEquals("move_one_step", move.name());
    assertEquals(MAPPER.readTree("{\"direction\":\"North\"}"), move.arguments());
    ToolCall state = r.toolCalls().get(1);
    assertTrue(state.valid(), state.error());
    assertEquals("call-2", state.id(), "a missing provider id is made up from the call's position");
    assertEquals("active", state.arguments().get("state").asText());

    JsonNode sent = standIn.onlyRequestBody();
    assertEquals("gpt-test", sent.path("model").asText());
    assertEquals("required", sent.path("tool_choice").asText());
    assertEquals("move_one_step", sent.path("tools").path(0).path("function").path("name").asText());
    JsonNode direction = sent.path("tools").path(0).path("function").path("parameters").path("properties").path("direction");
    assertTrue(direction.path("enum").isArray() && direction.path("enum").size() == 8, direction.toString());
    assertEquals("direction", sent.path("tools").path(0).path("function").path("parameters").path("required").path(0).asText());
    assertEquals("change_state", sent.path("tools").path(1).path("function").path("name").asText());
    assertEquals("system", sent.path("messages").path(0).path("role").asText());
    assertEquals("You are a citizen.", sent.path("messages").path(0).path("content").asText());
    assertEquals("user", sent.path("messages").path(1).path("role").asText());
    assertEquals("Bearer " + KEY, standIn.requests().get(0).getHeader("Authorization"));
  }

  @Test
  void invalidToolCallsComeBackWithTheirErrorSet() {
    standIn.answer(ok(toolCalls(
        toolCall("c1", "teleport", "{\"to\":\"Mars\"}"),
        toolCall("c2", "change_state", "{not json"),
        toolCall("c3", "move_one_step", "{\"direction\":\"Up\"}"),
        toolCall("c4", "move_one_step", "{\"direction\":\"North\",\"speed\":3}"),
        toolCall("c5", "change_state", "{}"))));

    List<ToolCall> calls =
        activities.chat(request(List.of("move_one_step", "change_state"), ToolChoice.AUTO)).toolCalls();

    assertEquals(5, calls.size());
    calls.forEach(c -> assertFalse(c.valid(), c.id() + " should be invalid"));
    assertEquals("unknown tool 'teleport'; available tools: move_one_step, change_state", calls.get(0).error());
    assertTrue(calls.get(1).error().contains("not valid JSON"), calls.get(1).error());
    assertEquals("{not json", calls.get(1).rawArguments());
    assertNull(calls.get(1).arguments());
    assertTrue(calls.get(2).error().contains("direction: \"Up\" is not one of North, South"), calls.get(2).error());
    assertTrue(calls.get(3).error().contains("speed: unknown argument"), calls.get(3).error());
    assertTrue(calls.get(4).error().contains("state: required but missing"), calls.get(4).error());
    assertEquals(List.of("c1", "c2", "c3", "c4", "c5"), calls.stream().map(ToolCall::id).toList());
  }

  @Test
  void aConversationWithToolResultsIsSentInOpenAisShape() throws Exception {
    standIn.answer(ok(text("Done.")));
    ToolCall call = ToolCall.of("call_9", "calculator", MAPPER.readTree("{\"expression\":\"6*7\"}"));
    LlmResponse r = activities.chat(new LlmRequest(MODEL, List.of(
            ChatTurn.user("What is 6*7?"),
            ChatTurn.assistant(null, List.of(call)),
            ChatTurn.toolResult(call, "42")),
        List.of("calculator"), ToolChoice.AUTO, 0.25, "test"));

    assertEquals("Done.", r.text());
    assertEquals("STOP", r.finishReason());
    JsonNode sent = standIn.onlyRequestBody();
    JsonNode assistant = sent.path("messages").path(1);
    assertEquals("assistant", assistant.path("role").asText());
    assertEquals("call_9", assistant.path("tool_calls").path(0).path("id").asText());
    assertEquals("calculator", assistant.path("tool_calls").path(0).path("function").path("name").asText());
    assertEquals(MAPPER.readTree("{\"expression\":\"6*7\"}"),
        MAPPER.readTree(assistant.path("tool_calls").path(0).path("function").path("arguments").asText()));
    JsonNode tool = sent.path("messages").path(2);
    assertEquals("tool", tool.path("role").asText());
    assertEquals("call_9", tool.path("tool_call_id").asText());
    assertEquals("42", tool.path("content").asText());
    assertEquals("auto", sent.path("tool_choice").asText());
    assertEquals(0.25, sent.path("temperature").asDouble());
  }

  @Test
  void toolChoiceIsMappedAndNeverSentWithoutTools() throws Exception {
    standIn.answer(ok(text("Hello")));
    activities.chat(request(List.of("calculator"), ToolChoice.NONE));
    activities.chat(request(List.of("calculator"), ToolChoice.PROVIDER_DEFAULT));
    activities.chat(request(List.of(), ToolChoice.REQUIRED));

    List<JsonNode> bodies = standIn.requests().stream().map(r -> {
      try {
        return MAPPER.readTree(r.getBodyAsString());
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }).toList();
    assertEquals("none", bodies.get(0).path("tool_choice").asText());
    assertEquals("calculator", bodies.get(0).path("tools").path(0).path("function").path("name").asText());
    assertTrue(bodies.get(1).has("tools"));
    assertFalse(bodies.get(1).has("tool_choice"), "PROVIDER_DEFAULT leaves the choice to the provider");
    assertFalse(bodies.get(2).has("tools"), bodies.get(2).toString());
    assertFalse(bodies.get(2).has("tool_choice"), "no tool choice without tools");
  }

  @Test
  void aJsonPlannerCallUsesJsonModeAndComesBackAsCheckedPlanSteps() throws Exception {
    standIn.answer(ok(text("{\"plan\":[{\"id\":\"E1\",\"tool\":\"calculator\",\"args\":{\"expression\":\"17*23\"}},"
        + "{\"id\":\"E2\",\"tool\":\"calculator\",\"args\":{\"expression\":\"{{E1}}\"}},"
        + "{\"id\":\"E3\",\"tool\":\"calculator\",\"args\":{\"expression\":7}}]}")));
    LlmResponse r = activities.chat(new LlmRequest(MODEL, List.of(ChatTurn.user("Plan in JSON.")),
        List.of("calculator"), ToolChoice.NONE, null, "rewoo-plan", LlmRequest.ResponseFormat.JSON));

    JsonNode sent = standIn.onlyRequestBody();
    assertEquals("json_object", sent.path("response_format").path("type").asText(), sent.toString());
    assertEquals("none", sent.path("tool_choice").asText());
    assertEquals(3, r.toolCalls().size());
    assertEquals("E1", r.toolCalls().get(0).id());
    assertTrue(r.toolCalls().get(0).valid());
    assertEquals("{{E1|text}}", r.toolCalls().get(1).arguments().get("expression").asText(),
        "a whole-value placeholder for a string parameter passes text");
    assertTrue(r.toolCalls().get(2).error().contains("expression: expected a string"), r.toolCalls().get(2).error());
  }

  @Test
  void aPlanCutAtTheOutputLimitComesBackAsCutWithOnlyItsHeadKept() {
    StringBuilder plan = new StringBuilder("{\"plan\":[");
    for (int i = 1; i <= 3000; i++) {
      plan.append(i == 1 ? "" : ",").append("{\"id\":\"E").append(i)
          .append("\",\"tool\":\"calculator\",\"args\":{\"expression\":\"1+").append(i).append("\"}}");
    }
    String cutByModel = plan.substring(0, 5000);
    standIn.answer(ok(OpenAiStandIn.completion("{\"role\":\"assistant\",\"content\":" + OpenAiStandIn.quote(cutByModel) + "}", "length")));
    LlmRequest planRequest = new LlmRequest(MODEL, List.of(ChatTurn.user("Plan in JSON.")),
        List.of("calculator"), ToolChoice.NONE, null, "rewoo-plan", LlmRequest.ResponseFormat.JSON);
    LlmResponse r = activities.chat(planRequest);
    assertTrue(r.wasCut());
    assertTrue(r.toolCalls().isEmpty());
    assertTrue(r.text().length() < 2100, "only the head is kept: " + r.text().length());
    assertTrue(r.warnings().get(0).contains("finish reason length"), r.warnings().toString());

    // A valid plan over the worker's limit: cut too, and no marker inside what is kept as JSON.
    String whole = plan.append("]}").toString();
    standIn.server.resetAll();
    standIn.answer(ok(text(whole)));
    LlmActivitiesImpl small = new LlmActivitiesImpl(ChatModelProvider.newBuilder().settings(LlmSettings.newBuilder()
        .openAiBaseUrl(standIn.baseUrl()).openAiApiKey(KEY).build()).build(), CitizenActions.registry(Path.of("target")),
        io.durableagents.activities.metrics.AgentMetrics.none(),
        new io.durableagents.activities.payload.PayloadGuard(64 * 1024, io.durableagents.activities.payload.PayloadGuard.Mode.TRUNCATE));
    LlmResponse over = small.chat(planRequest);
    assertTrue(whole.length() > 64 * 1024);
    assertEquals(Boolean.TRUE, over.cut());
    assertTrue(over.text().length() < 2100);
    assertTrue(over.warnings().get(0).contains("DURABLE_AGENTS_MAX_OUTPUT_BYTES"), over.warnings().toString());
  }

  @Test
  void anEmptyAnswerAndACutAnswerCarryWarnings() {
    standIn.answer(ok(OpenAiStandIn.completion("{\"role\":\"assistant\",\"content\":null}", "stop")));
    LlmResponse empty = activities.chat(request(List.of(), ToolChoice.AUTO));
    assertTrue(empty.answeredNothing());
    assertTrue(empty.warnings().get(0).startsWith(LlmActivitiesImpl.EMPTY_WARNING), empty.warnings().toString());
    standIn.server.resetAll();
    standIn.answer(ok(OpenAiStandIn.completion("{\"role\":\"assistant\",\"content\":\"The answer is\"}", "length")));
    LlmResponse cut = activities.chat(request(List.of(), ToolChoice.AUTO));
    assertTrue(cut.wasCut());
    assertEquals("The answer is", cut.text());
    assertTrue(cut.warnings().get(0).startsWith(LlmActivitiesImpl.CUT_WARNING), cut.warnings().toString());
  }

  @Test
  void aPlainCallSendsNoResponseFormat() throws Exception {
    standIn.answer(ok(text("Hello")));
    activities.chat(request(List.of("calculator"), ToolChoice.NONE));
    assertFalse(standIn.onlyRequestBody().has("response_format"));
  }

  @Test
  void aToolThisWorkerDoesNotHaveIsUnknownToolsNotTheProvidersRefusal() {
    ApplicationFailure f = assertThrows(ApplicationFailure.class,
        () -> activities.chat(request(List.of("teleport"), ToolChoice.AUTO)));
    assertEquals(LlmFailureTypes.UNKNOWN_TOOLS, f.getType());
    assertTrue(f.isNonRetryable());
    assertTrue(f.getOriginalMessage().contains("teleport"), f.getOriginalMessage());
    assertEquals(0, standIn.requests().size(), "nothing was sent");
  }

  // ---- failures and retries ----

  @Test
  void a429IsRetriedAfterTheProvidersRetryAfter() {
    standIn.answerFirstThen(
        WireMock.aResponse().withStatus(429).withHeader("Retry-After", "2")
            .withBody("{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}"),
        ok(text("Hello")));

    // The first attempt alone: a retryable failure that carries the provider's delay.
    ApplicationFailure first = firstAttemptFailure();
    assertEquals(LlmFailureTypes.RATE_LIMITED, first.getType());
    assertFalse(first.isNonRetryable());
    assertEquals(Duration.ofSeconds(2), first.getNextRetryDelay());
    assertTrue(first.getOriginalMessage().contains("HTTP 429"), first.getOriginalMessage());

    // Through a workflow with the production retry policy: the second attempt answers.
    standIn.server.resetRequests();
    standIn.server.resetScenarios();
    CallResult r = runInWorkflow();
    assertEquals("Hello", r.text());
    assertEquals(2, standIn.requests().size());
    assertTrue(r.workflowMillis() >= 2000,
        "the retry waited for Retry-After (2 s), not the 1 s initial interval: " + r.workflowMillis() + " ms");
  }

  @Test
  void a500IsRetried() {
    standIn.answerFirstThen(WireMock.aResponse().withStatus(500).withBody("{\"error\":{\"message\":\"oops\"}}"),
        ok(text("Hello")));
    CallResult r = runInWorkflow();
    assertEquals("Hello", r.text());
    assertEquals(2, standIn.requests().size());
  }

  @Test
  void a401FailsAtOnceWithATypedNonRetryableFailureThatHidesTheKey() {
    standIn.answer(WireMock.aResponse().withStatus(401).withBody("{\"error\":{\"message\":"
        + "\"Incorrect API key provided: " + KEY + ". Or sk-test-****6789.\",\"type\":\"invalid_request_error\"}}"));

    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, this::runInWorkflow);

    ActivityFailure activity = assertInstanceOf(ActivityFailure.class, e.getCause());
    ApplicationFailure f = assertInstanceOf(ApplicationFailure.class, activity.getCause());
    assertEquals(LlmFailureTypes.AUTHENTICATION, f.getType());
    assertTrue(f.isNonRetryable());
    assertEquals(1, standIn.requests().size(), "no retry");
    assertTrue(f.getOriginalMessage().contains("HTTP 401"), f.getOriginalMessage());
    assertFalse(f.getOriginalMessage().contains("0123456789"), f.getOriginalMessage());
    assertFalse(f.getOriginalMessage().contains("****6789"), f.getOriginalMessage());
    assertNull(f.getCause(), "the provider's exception (the raw body) is not attached");
  }

  @Test
  void statusCodesMapToFailureTypes() {
    assertEquals(LlmFailureTypes.MODEL_NOT_FOUND, failureFor(404).getType());
    assertTrue(failureFor(404).isNonRetryable());
    assertEquals(LlmFailureTypes.INVALID_REQUEST, failureFor(400).getType());
    assertEquals(LlmFailureTypes.AUTHENTICATION, failureFor(403).getType());
    ApplicationFailure unavailable = failureFor(503);
    assertEquals(LlmFailureTypes.TRANSIENT, unavailable.getType());
    assertFalse(unavailable.isNonRetryable());
    assertNull(unavailable.getNextRetryDelay(), "no Retry-After, no delay: the retry policy decides");
  }

  private ApplicationFailure failureFor(int status) {
    standIn.server.resetAll();
    standIn.answer(WireMock.aResponse().withStatus(status).withBody("{\"error\":{\"message\":\"no\"}}"));
    return assertThrows(ApplicationFailure.class, () -> activities.chat(request(List.of(), ToolChoice.AUTO)));
  }

  @Test
  void aServerThatIsNotThereIsATransientFailure() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    LlmActivitiesImpl nowhere = activitiesFor(LlmSettings.newBuilder()
        .openAiBaseUrl("http://127.0.0.1:" + closedPort + "/v1").build());
    ApplicationFailure f = assertThrows(ApplicationFailure.class,
        () -> nowhere.chat(request(List.of(), ToolChoice.AUTO)));
    assertEquals(LlmFailureTypes.TRANSIENT, f.getType());
    assertFalse(f.isNonRetryable());
    assertTrue(f.getOriginalMessage().contains("ConnectException"), f.getOriginalMessage());
  }

  // ---- heartbeats and cancellation ----

  @Test
  void aSlowCallHeartbeatsWhileItWaits() {
    standIn.answer(ok(text("Hello")).withFixedDelay(4500));
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
  void aCancelledCallStopsWaitingForTheModel() throws Exception {
    standIn.answer(ok(text("too late")).withFixedDelay(30_000));
    TestActivityEnvironment env = TestActivityEnvironment.newInstance();
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try {
      CountDownLatch firstBeat = new CountDownLatch(1);
      env.setActivityHeartbeatListener(Object.class, details -> firstBeat.countDown());
      env.registerActivitiesImplementations(activities);
      LlmActivities stub = env.newActivityStub(LlmActivities.class, ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofMinutes(1)).setHeartbeatTimeout(Duration.ofSeconds(3)).build());
      Future<LlmResponse> call = caller.submit(() -> stub.chat(request(List.of(), ToolChoice.PROVIDER_DEFAULT)));

      assertTrue(firstBeat.await(10, TimeUnit.SECONDS), "the waiting call heartbeats");
      env.requestCancelActivity();

      // Well before the stand-in's 30 s answer: the heartbeat saw the cancellation and aborted the call.
      ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(15, TimeUnit.SECONDS));
      assertInstanceOf(CanceledFailure.class, e.getCause());
    } finally {
      caller.shutdownNow();
      env.close();
    }
  }

  // ---- configuration ----

  @Test
  void anOpenAiCompatibleServerNeedsNoKeyAndGetsNone() {
    standIn.answer(ok(text("Hello")));
    LlmActivitiesImpl keyless = activitiesFor(LlmSettings.newBuilder().openAiBaseUrl(standIn.baseUrl()).build());
    assertEquals("Hello", keyless.chat(request(List.of(), ToolChoice.AUTO)).text());
    assertFalse(standIn.requests().get(0).containsHeader("Authorization"));
  }

  @Test
  void aProviderWithoutItsKeyIsNotConfigured() {
    ChatModelProvider noKeys = ChatModelProvider.newBuilder().settings(LlmSettings.newBuilder().build()).build();
    ApplicationFailure openAi = assertThrows(ApplicationFailure.class, () -> noKeys.get("openai:gpt-4o-mini"));
    assertEquals(LlmFailureTypes.PROVIDER_NOT_CONFIGURED, openAi.getType());
    assertTrue(openAi.isNonRetryable());
    assertTrue(openAi.getOriginalMessage().contains("OPENAI_API_KEY"), openAi.getOriginalMessage());
    ApplicationFailure anthropic = assertThrows(ApplicationFailure.class, () -> noKeys.get("anthropic:claude-x"));
    assertEquals(LlmFailureTypes.PROVIDER_NOT_CONFIGURED, anthropic.getType());
    assertTrue(anthropic.getOriginalMessage().contains("ANTHROPIC_API_KEY"), anthropic.getOriginalMessage());
    ApplicationFailure unknown = assertThrows(ApplicationFailure.class, () -> noKeys.get("gpt-4"));
    assertEquals(LlmFailureTypes.PROVIDER_NOT_CONFIGURED, unknown.getType());
    assertTrue(unknown.getOriginalMessage().contains("openai:<model>"), unknown.getOriginalMessage());
    assertInstanceOf(dev.langchain4j.model.ollama.OllamaChatModel.class, noKeys.get("ollama:llama3.2"),
        "Ollama needs no key");
  }

  @Test
  void oneClientPerReferenceAndRegisteredModelsWin() {
    ChatModelProvider models = ChatModelProvider.newBuilder()
        .settings(LlmSettings.newBuilder().openAiApiKey(KEY).build())
        .register("openai:special", new dev.langchain4j.model.chat.ChatModel() {})
        .build();
    assertTrue(models.get("openai:gpt-4o-mini") == models.get("openai:gpt-4o-mini"), "cached");
    assertFalse(models.get("openai:special") instanceof dev.langchain4j.model.openai.OpenAiChatModel);
  }

  // ---- the workflow side ----

  /** What the test workflow saw: the answer's text and how much workflow time the call took. */
  public record CallResult(String text, long workflowMillis) {}

  /** Calls the LLM activity once with the production options ({@link LlmCallOptions}). */
  @WorkflowInterface
  public interface CallLlm {
    @WorkflowMethod
    CallResult call(LlmRequest request);
  }

  public static class CallLlmImpl implements CallLlm {
    @Override
    public CallResult call(LlmRequest request) {
      long before = Workflow.currentTimeMillis();
      LlmResponse r = Workflow.newActivityStub(LlmActivities.class, LlmCallOptions.forModel(request.model()))
          .chat(request);
      return new CallResult(r.text(), Workflow.currentTimeMillis() - before);
    }
  }

  private CallResult runInWorkflow() {
    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
      env.newWorker("llm-test").registerWorkflowImplementationTypes(CallLlmImpl.class);
      env.newWorker(TaskQueues.LLM).registerActivitiesImplementations(activities);
      env.start();
      return env.getWorkflowClient().newWorkflowStub(CallLlm.class,
              WorkflowOptions.newBuilder().setTaskQueue("llm-test").build())
          .call(request(List.of(), ToolChoice.PROVIDER_DEFAULT));
    }
  }

  /** Runs one attempt of the activity (no retries) and returns the failure it ended with. */
  private ApplicationFailure firstAttemptFailure() {
    TestActivityEnvironment env = TestActivityEnvironment.newInstance();
    try {
      env.registerActivitiesImplementations(activities);
      LlmActivities stub = env.newActivityStub(LlmActivities.class, ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build()).build());
      ActivityFailure e = assertThrows(ActivityFailure.class, () -> stub.chat(request(List.of(), ToolChoice.AUTO)));
      return assertInstanceOf(ApplicationFailure.class, e.getCause());
    } finally {
      env.close();
    }
  }
}
