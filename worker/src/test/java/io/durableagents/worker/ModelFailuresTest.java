package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.durableagents.activities.llm.LlmMaxOutputTokens;
import io.durableagents.activities.llm.LlmRetryBudget;
import io.durableagents.activities.llm.LlmSettings;
import io.durableagents.worker.MisbehavingOpenAiServer.Behaviour;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.rewoo.ReWooPrompts;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code agent --model openai:...} end to end against a model server that misbehaves in each way a
 * new user met: through the plugin's worker (the real LangChain4j OpenAI client, the LLM activity and
 * its retry policy) on Temporal's test environment, asserting the result or the failure (type and
 * message) that the command line prints.
 */
class ModelFailuresTest {
  /** A short retry budget and call time-out, so that a test waits seconds, not a minute. */
  private static final Duration BUDGET = Duration.ofSeconds(4);

  private MisbehavingOpenAiServer server;
  private TestWorkflowEnvironment env;

  @AfterEach
  void tearDown() {
    if (env != null) {
      env.close();
      env = null;
    }
    if (server != null) {
      server.close();
      server = null;
    }
  }

  private LlmRetryBudget budget = LlmRetryBudget.of(BUDGET);

  private AgentTaskResult run(Behaviour behaviour, Strategy strategy) throws Exception {
    return run(behaviour, AgentOptions.newBuilder().setStrategy(strategy).setModel("openai:gpt-test").build());
  }

  private AgentTaskResult run(Behaviour behaviour, AgentOptions options) throws Exception {
    server = new MisbehavingOpenAiServer(behaviour);
    env = TestWorkers.start(DurableAgentsPlugin.newBuilder()
        .setLlmSettings(LlmSettings.newBuilder().openAiBaseUrl(server.baseUrl())
            .openAiApiKey(MisbehavingOpenAiServer.KEY).timeout(Duration.ofSeconds(2))
            .retryBudget(budget).build())
        .build());
    return env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build())
        .run(new AgentTaskInput("What is 17 * 23?", null, options));
  }

  private List<Integer> maxTokensSent() throws Exception {
    List<Integer> sent = new ArrayList<>();
    for (String body : server.bodies()) {
      JsonNode n = new ObjectMapper().readTree(body).path("max_tokens");
      sent.add(n.isMissingNode() ? null : n.asInt());
    }
    return sent;
  }

  private ApplicationFailure failure(Behaviour behaviour) {
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, () -> run(behaviour, Strategy.REACT));
    ActivityFailure activity = assertInstanceOf(ActivityFailure.class, e.getCause());
    return assertInstanceOf(ApplicationFailure.class, activity.getCause());
  }

  @Test
  void anEmptyAnswerIsShownToTheModelOnceAndThenReportedAsEmpty() throws Exception {
    AgentTaskResult r = run(Behaviour.EMPTY_CONTENT, Strategy.REACT);
    assertEquals(AgentTaskResult.EMPTY, r.answerProblem());
    assertFalse(r.answered());
    assertEquals(2, server.requests(), "asked once more after the empty answer");
    assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("empty answer")), r.warnings().toString());
    assertEquals("answer_check", r.turns().get(0).outcomes().get(0).tool());
  }

  @Test
  void aCutAnswerIsReportedAsCut() throws Exception {
    AgentTaskResult r = run(Behaviour.CUT_AT_LENGTH, Strategy.REACT);
    assertEquals(AgentTaskResult.CUT, r.answerProblem());
    assertEquals(2, server.requests(), "asked once more after the cut answer");
    assertTrue(r.warnings().stream().anyMatch(w -> w.contains("finish reason length")), r.warnings().toString());
  }

  @Test
  void aCutAnswerOfChainOfThoughtIsReportedAsCut() throws Exception {
    AgentTaskResult r = run(Behaviour.CUT_AT_LENGTH, Strategy.COT);
    assertEquals(AgentTaskResult.CUT, r.answerProblem());
  }

  @Test
  void aReWooPlanCutAtTheOutputLimitIsRejectedAsCut() {
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class,
        () -> run(Behaviour.CUT_AT_LENGTH, Strategy.REWOO));
    ApplicationFailure f = assertInstanceOf(ApplicationFailure.class, e.getCause());
    assertEquals(io.durableagents.workflows.agent.StrategyFailureTypes.INVALID_PLAN, f.getType());
    assertTrue(f.getOriginalMessage().contains("the plan was cut at the output limit"), f.getOriginalMessage());
    assertFalse(f.getOriginalMessage().contains("Illegal unquoted character"), f.getOriginalMessage());
    assertEquals(2, server.requests(), "the first plan and its correction");
  }

  @Test
  void theReWooPlannerGetsItsDefaultMaximumAndTheRunsOwnWins() throws Exception {
    assertThrows(WorkflowFailedException.class, () -> run(Behaviour.CUT_AT_LENGTH, Strategy.REWOO));
    int planner = LlmMaxOutputTokens.DEFAULTS.get(ReWooPrompts.PLAN_PURPOSE);
    assertEquals(List.of(planner, planner), maxTokensSent(), "both planner calls carry the planner's default");
    tearDown();

    AgentTaskResult r = run(Behaviour.OK, AgentOptions.newBuilder().setStrategy(Strategy.COT)
        .setModel("openai:gpt-test").setMaxOutputTokens(100).build());
    assertTrue(r.answered());
    assertFalse(maxTokensSent().isEmpty());
    assertTrue(maxTokensSent().stream().allMatch(n -> n == 100), "the run's maximum on every call: " + maxTokensSent());
  }

  @Test
  void anEmptyReWooPlanIsRejectedWithAReason() {
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class,
        () -> run(Behaviour.EMPTY_CONTENT, Strategy.REWOO));
    ApplicationFailure f = assertInstanceOf(ApplicationFailure.class, e.getCause());
    assertEquals(io.durableagents.workflows.agent.StrategyFailureTypes.INVALID_PLAN, f.getType());
    assertTrue(f.getOriginalMessage().contains("the plan is empty"), f.getOriginalMessage());
  }

  @Test
  void aCompleteAnswerHasNoProblem() throws Exception {
    AgentTaskResult r = run(Behaviour.OK, Strategy.REACT);
    assertNull(r.answerProblem());
    assertTrue(r.answered());
    assertEquals("Fine.", r.answer());
  }

  @Test
  void anHtmlPageWithHttp200IsAMalformedResponseWithinTheBudget() {
    ApplicationFailure f = failure(Behaviour.HTML_200);
    assertEquals(LlmFailureTypes.MALFORMED_RESPONSE, f.getType());
    assertTrue(f.getOriginalMessage().contains("not a chat completion"), f.getOriginalMessage());
    assertTrue(f.getOriginalMessage().contains("gave up after"), f.getOriginalMessage());
    assertTrue(server.requests() >= 2 && server.requests() < 8, "retried within the budget: " + server.requests());
  }

  @Test
  void byDefaultAGarbageServerIsGivenUpOnWithinAMinute() {
    budget = LlmRetryBudget.defaults();
    ApplicationFailure f = failure(Behaviour.HTML_200);
    assertEquals(LlmFailureTypes.MALFORMED_RESPONSE, f.getType());
    // Attempts at 0, 1, 3, 7, 15 and 31 s (time skipped); the next would wait 32 s more, past 60 s.
    assertEquals(6, server.requests(), f.getOriginalMessage());
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("gave up after 6 attempts in (\\d+) s")
        .matcher(f.getOriginalMessage());
    assertTrue(m.find(), f.getOriginalMessage());
    assertTrue(Integer.parseInt(m.group(1)) <= 60, f.getOriginalMessage());
    assertTrue(f.getOriginalMessage().contains("retry budget of 60 s"), f.getOriginalMessage());
  }

  /** The line the command line prints of a failure (Failures.runFailure): its first. */
  private static String firstLine(String message) {
    int nl = message.strip().indexOf('\n');
    return nl < 0 ? message.strip() : message.strip().substring(0, nl);
  }

  @Test
  void aGarbageAnswerSaysHowManyAttemptsWereMadeOnTheLineThatIsPrinted() {
    for (Behaviour garbage : java.util.List.of(Behaviour.HTML_200, Behaviour.NOT_JSON_BODY)) {
      ApplicationFailure f = failure(garbage);
      assertEquals(LlmFailureTypes.MALFORMED_RESPONSE, f.getType(), garbage.name());
      assertTrue(firstLine(f.getOriginalMessage()).contains("(gave up after "), garbage + ": " + f.getOriginalMessage());
      assertFalse(f.getOriginalMessage().contains("\n"), garbage + ": one line: " + f.getOriginalMessage());
      tearDown();
    }
  }

  @Test
  void aServerThatNeverAnswersIsGivenUpOnWithinTheBudgetTheLastAttemptIncluded() throws Exception {
    // 3 s per attempt, 5 s in all: attempt 1 times out at 3 s, attempt 2 starts at 4 s (after 1 s of
    // backoff) and may wait only the 1 s left, not its whole 3 s.
    budget = LlmRetryBudget.of(Duration.ofSeconds(5));
    server = new MisbehavingOpenAiServer(Behaviour.NO_ANSWER);
    env = TestWorkers.start(DurableAgentsPlugin.newBuilder()
        .setLlmSettings(LlmSettings.newBuilder().openAiBaseUrl(server.baseUrl())
            .openAiApiKey(MisbehavingOpenAiServer.KEY).timeout(Duration.ofSeconds(3))
            .retryBudget(budget).build())
        .build());
    AgentTaskWorkflow agent = env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build());
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, () -> agent.run(new AgentTaskInput(
        "What is 17 * 23?", null, AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel("openai:gpt-test").build())));
    long end = System.nanoTime();
    ApplicationFailure f = assertInstanceOf(ApplicationFailure.class, e.getCause().getCause());
    assertEquals(LlmFailureTypes.TIMED_OUT, f.getType());
    String line = firstLine(f.getOriginalMessage());
    assertEquals(2, server.requests(), line);
    assertTrue(line.contains("left of the retry budget of 5 s"), line);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("gave up after 2 attempts in (\\d+) s").matcher(line);
    assertTrue(m.find(), line);
    assertTrue(Integer.parseInt(m.group(1)) <= 6, "the budget of 5 s bounds the call, not 4 s + a 3 s time-out: " + line);
    long lastAttemptMillis = (end - server.arrivals().get(1)) / 1_000_000;
    assertTrue(lastAttemptMillis < 2_500, "the last attempt waited " + lastAttemptMillis + " ms, not its 3 s time-out");
  }

  @Test
  void aBudgetShorterThanTheTimeOutIsRaisedToItAndTheFailureSaysSo() throws Exception {
    // 3 s per attempt, a budget of 1 s: raised to 3 s, so the first attempt has its whole time-out and
    // no attempt outlives the budget; the line names the limit that ended the call and both variables.
    budget = LlmRetryBudget.of(Duration.ofSeconds(1));
    server = new MisbehavingOpenAiServer(Behaviour.NO_ANSWER);
    env = TestWorkers.start(DurableAgentsPlugin.newBuilder()
        .setLlmSettings(LlmSettings.newBuilder().openAiBaseUrl(server.baseUrl())
            .openAiApiKey(MisbehavingOpenAiServer.KEY).timeout(Duration.ofSeconds(3))
            .retryBudget(budget).build())
        .build());
    AgentTaskWorkflow agent = env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build());
    long start = System.nanoTime();
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, () -> agent.run(new AgentTaskInput(
        "What is 17 * 23?", null, AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel("openai:gpt-test").build())));
    long millis = (System.nanoTime() - start) / 1_000_000;
    ApplicationFailure f = assertInstanceOf(ApplicationFailure.class, e.getCause().getCause());
    assertEquals(LlmFailureTypes.TIMED_OUT, f.getType());
    String line = firstLine(f.getOriginalMessage());
    assertEquals(1, server.requests(), line);
    assertTrue(line.startsWith("no answer within DURABLE_AGENTS_LLM_TIMEOUT=3 s (the per-attempt time-out)"), line);
    assertTrue(line.contains("(gave up after 1 attempt in 3 s: the retry budget of 3 s for openai:gpt-test "
        + "(DURABLE_AGENTS_LLM_RETRY_BUDGET=1 s, raised to DURABLE_AGENTS_LLM_TIMEOUT) was spent)"), line);
    assertTrue(millis >= 2_900 && millis < 8_000, "one attempt of its whole time-out: " + millis + " ms");
  }

  @Test
  void aBudgetOfZeroIsOneAttemptWithItsWholeTimeOut() {
    budget = LlmRetryBudget.of(Duration.ZERO);
    ApplicationFailure f = failure(Behaviour.NO_ANSWER);
    assertEquals(1, server.requests(), f.getOriginalMessage());
    String line = firstLine(f.getOriginalMessage());
    assertTrue(line.startsWith("no answer within DURABLE_AGENTS_LLM_TIMEOUT=2 s (the per-attempt time-out)"), line);
    assertTrue(line.contains("the retry budget of 0 s for openai:gpt-test (DURABLE_AGENTS_LLM_RETRY_BUDGET) allows no retry"),
        line);
  }

  @Test
  void aTimeOutAndASpentBudgetEachNameTheirVariable() {
    // 2 s per attempt, a budget of 4 s: the first attempt ends at the time-out, the second at the budget.
    ApplicationFailure f = failure(Behaviour.NO_ANSWER);
    assertEquals(LlmFailureTypes.TIMED_OUT, f.getType());
    assertEquals(2, server.requests(), f.getOriginalMessage());
    String line = firstLine(f.getOriginalMessage());
    assertTrue(line.startsWith("no answer within the "), line);
    assertTrue(line.contains("s left of the retry budget of 4 s for openai:gpt-test (DURABLE_AGENTS_LLM_RETRY_BUDGET)"), line);
    assertTrue(line.contains("(gave up after 2 attempts in "), line);
  }

  @Test
  void anAnswerWithNoChoicesIsAMalformedResponse() {
    ApplicationFailure f = failure(Behaviour.NO_CHOICES);
    assertEquals(LlmFailureTypes.MALFORMED_RESPONSE, f.getType());
    assertTrue(f.getOriginalMessage().contains("no choices"), f.getOriginalMessage());
  }

  @Test
  void aConnectionClosedMidBodyIsTransientAndEndsWithinTheBudget() {
    ApplicationFailure f = failure(Behaviour.CLOSED_MID_BODY);
    assertEquals(LlmFailureTypes.TRANSIENT, f.getType());
    assertTrue(f.getOriginalMessage().contains("gave up after"), f.getOriginalMessage());
  }

  @Test
  void noAnswerAtAllIsATimeOut() {
    ApplicationFailure f = failure(Behaviour.NO_ANSWER);
    assertEquals(LlmFailureTypes.TIMED_OUT, f.getType());
    assertTrue(f.getOriginalMessage().contains("gave up after"), f.getOriginalMessage());
  }

  @Test
  void a401IsAnAuthenticationFailureWithTheKeyMasked() {
    ApplicationFailure f = failure(Behaviour.UNAUTHORIZED);
    assertEquals(LlmFailureTypes.AUTHENTICATION, f.getType());
    assertFalse(f.getOriginalMessage().contains("0123456789"), f.getOriginalMessage());
    assertEquals(1, server.requests(), "not retried");
  }

  @Test
  void a404IsModelNotFound() {
    ApplicationFailure f = failure(Behaviour.MODEL_NOT_FOUND);
    assertEquals(LlmFailureTypes.MODEL_NOT_FOUND, f.getType());
    assertTrue(f.getOriginalMessage().contains("does not exist"), f.getOriginalMessage());
  }

  @Test
  void a400ContextLengthIsAnInvalidRequestWithTheProvidersMessage() {
    ApplicationFailure f = failure(Behaviour.CONTEXT_TOO_LONG);
    assertEquals(LlmFailureTypes.INVALID_REQUEST, f.getType());
    assertTrue(f.getOriginalMessage().contains("maximum context length"), f.getOriginalMessage());
  }

  @Test
  void a429ForeverIsRateLimitedAndEndsWithinTheBudget() {
    ApplicationFailure f = failure(Behaviour.RATE_LIMITED);
    assertEquals(LlmFailureTypes.RATE_LIMITED, f.getType());
    assertTrue(f.getOriginalMessage().contains("gave up after"), f.getOriginalMessage());
    assertTrue(server.requests() < 8, "gave up before the 8 attempts: " + server.requests());
  }
}
