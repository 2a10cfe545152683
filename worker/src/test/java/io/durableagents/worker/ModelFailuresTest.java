package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.activities.llm.LlmRetryBudget;
import io.durableagents.activities.llm.LlmSettings;
import io.durableagents.worker.MisbehavingOpenAiServer.Behaviour;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.task.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
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
    }
    if (server != null) {
      server.close();
    }
  }

  private LlmRetryBudget budget = LlmRetryBudget.of(BUDGET);

  private AgentTaskResult run(Behaviour behaviour, Strategy strategy) throws Exception {
    server = new MisbehavingOpenAiServer(behaviour);
    env = TestWorkers.start(DurableAgentsPlugin.newBuilder()
        .setLlmSettings(LlmSettings.newBuilder().openAiBaseUrl(server.baseUrl())
            .openAiApiKey(MisbehavingOpenAiServer.KEY).timeout(Duration.ofSeconds(2))
            .retryBudget(budget).build())
        .build());
    return env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build())
        .run(new AgentTaskInput("What is 17 * 23?", null,
            AgentOptions.newBuilder().setStrategy(strategy).setModel("openai:gpt-test").build()));
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
