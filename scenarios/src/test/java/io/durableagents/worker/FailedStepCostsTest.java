package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.activities.llm.LlmRetryBudget;
import io.durableagents.activities.llm.LlmSettings;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.worker.MisbehavingOpenAiServer.Behaviour;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.llm.SpentBeforeFailure;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.simulation.LlmCosts;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every LLM call paid for is counted, whether its agent step succeeded or not: a model server (speaking
 * OpenAI's wire format, 50 tokens in and 10 out a call) whose ReWOO plans are all empty, so that every
 * plan is rejected twice and every agent step fails after its two planner calls. The run's totals, its
 * costs by role and strategy, and the failure of a single task all count the calls the server received.
 */
class FailedStepCostsTest {
  private static final EpsteinParameters SMALL = EpsteinParameters.DEFAULTS.withAgents(4, 2);
  private static final String MODEL = "openai:gpt-test";

  private MisbehavingOpenAiServer server;
  private TestWorkflowEnvironment env;

  @BeforeEach
  void start() throws Exception {
    server = new MisbehavingOpenAiServer(Behaviour.EMPTY_CONTENT);
    env = TestWorkers.start(Builtins.plugin()
        .setLlmSettings(LlmSettings.newBuilder().openAiBaseUrl(server.baseUrl())
            .openAiApiKey(MisbehavingOpenAiServer.KEY).retryBudget(LlmRetryBudget.of(Duration.ofSeconds(3)))
            .build())
        .build());
  }

  @AfterEach
  void tearDown() {
    env.close();
    server.close();
  }

  private SimulationResult simulate(SimulationInput input) {
    return env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build()).run(input);
  }

  private static SimulationInput rewooEverywhere() {
    AgentOptions rewoo = AgentOptions.newBuilder().setStrategy(Strategy.REWOO).setModel(MODEL).build();
    return new SimulationInput("epstein", 2, 7, SMALL, rewoo, Map.of(), null);
  }

  private void assertEveryCallCounted(SimulationResult r) {
    assertEquals(12, r.agentSteps(), "6 agents x 2 steps");
    assertEquals(12, r.failedAgentSteps(), "every plan was rejected");
    assertEquals(24, server.requests(), "2 planner calls per agent step");
    assertEquals(server.requests(), r.llmCalls(), "every call the server answered is counted");
    assertEquals(new TokenUsage(50L * 24, 10L * 24), r.usage());
    assertEquals(24L, r.perStep().get(1).llmCalls(), "the per-step running total too");

    LlmCosts costs = r.llmCosts();
    assertEquals(2, costs.byRole().size(), costs.toString());
    for (LlmCosts.RoleCosts c : costs.byRole()) {
      assertEquals("rewoo", c.strategy(), c.toString());
      long agents = c.role().equals("cop") ? 2 : 4;
      assertEquals(2 * agents, c.agentSteps(), c.toString());
      assertEquals(2 * agents, c.failedAgentSteps(), c.toString());
      assertEquals(4 * agents, c.llmCalls(), c.toString());
      assertEquals(4 * agents, c.llmCallsOfFailedSteps(), c.toString());
      assertEquals(new TokenUsage(50 * 4 * agents, 10 * 4 * agents), c.usage(), c.toString());
    }
    assertEquals(1, costs.failures().size(), costs.failures().toString());
    LlmCosts.FailureReason why = costs.failures().get(0);
    assertEquals(12, why.agentSteps());
    assertTrue(why.reason().startsWith("ReWooInvalidPlan: the ReWOO planner made an invalid plan twice: "),
        why.reason());
    assertTrue(why.reason().contains("the plan is empty"), why.reason());
    assertTrue(!why.reason().contains("\n"), why.reason());
  }

  @Test
  void theCallsOfRejectedPlansCountInTheRunsTotalsAndByRole() {
    assertEveryCallCounted(simulate(rewooEverywhere()));
  }

  @Test
  void inGroupStepsToo() {
    assertEveryCallCounted(simulate(rewooEverywhere().withAgentsPerWorkflow(3)));
  }

  @Test
  void aFailedTaskSaysWhatItSpent() {
    AgentTaskWorkflow agent = env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build());
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, () -> agent.run(new AgentTaskInput(
        "What is 17 * 23?", null, AgentOptions.newBuilder().setStrategy(Strategy.REWOO).setModel(MODEL).build())));
    SpentBeforeFailure spent = SpentBeforeFailure.of(e).orElseThrow(() -> new AssertionError("no usage in " + e));
    assertEquals(2, server.requests());
    assertEquals(2, spent.llmCalls());
    assertEquals(new TokenUsage(100, 20), spent.usage());
  }
}
