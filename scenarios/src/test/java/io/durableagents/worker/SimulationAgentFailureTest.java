package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.activities.llm.LlmRetryBudget;
import io.durableagents.activities.llm.LlmSettings;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.worker.MisbehavingOpenAiServer.Behaviour;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentFailureMode;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationFailureTypes;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code simulate} when one role's model fails for good: with {@code --on-agent-failure skip} (the
 * default) those agents' steps are recorded as failed, they take no action, and the run goes on with
 * the failures counted; with {@code stop} the run ends naming the agent, the step and the cause.
 */
class SimulationAgentFailureTest {
  private static final EpsteinParameters SMALL = EpsteinParameters.DEFAULTS.withAgents(4, 2);

  private TestWorkflowEnvironment env;
  private MisbehavingOpenAiServer server;

  @AfterEach
  void tearDown() {
    if (env != null) {
      env.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private SimulationResult simulate(SimulationInput input) {
    if (env == null) {
      env = TestWorkers.start(Builtins.plugin()
          .registerModel(BrokenChatModel.NAME, new BrokenChatModel()).build());
    }
    return env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build())
        .run(input);
  }

  private static SimulationInput copsBroken(AgentFailureMode mode, Strategy strategy) {
    AgentOptions base = AgentOptions.newBuilder().setStrategy(strategy).setOnAgentFailure(mode).build();
    return new SimulationInput("epstein", 2, 7, SMALL, base,
        Map.of("cop", base.toBuilder().setModel(BrokenChatModel.NAME).build()), null);
  }

  @Test
  void byDefaultAFailedAgentStepIsSkippedAndCounted() {
    SimulationInput input = copsBroken(null, Strategy.COT);
    SimulationResult r = simulate(input);
    assertEquals(2, r.steps(), "the run went on to its last step");
    assertEquals(4, r.failedAgentSteps(), "2 cops x 2 steps");
    assertEquals(12, r.agentSteps());
    assertEquals(2L, r.perStep().get(0).failedAgentSteps());
    assertEquals(4L, r.perStep().get(1).failedAgentSteps());
    assertTrue(r.llmCalls() > 0, "the citizens' calls");
  }

  @Test
  void aRejectedReWooPlanIsSkippedToo() {
    SimulationResult r = simulate(copsBroken(AgentFailureMode.SKIP, Strategy.REWOO));
    assertEquals(4, r.failedAgentSteps());
  }

  @Test
  void inGroupStepsOneAgentsFailureKeepsTheOthersResults() {
    SimulationResult r = simulate(copsBroken(AgentFailureMode.SKIP, Strategy.COT).withAgentsPerWorkflow(3));
    assertEquals(2, r.steps());
    assertEquals(4, r.failedAgentSteps());
  }

  @Test
  void withStopTheRunEndsNamingTheAgentTheStepAndTheCause() {
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class,
        () -> simulate(copsBroken(AgentFailureMode.STOP, Strategy.COT)));
    ApplicationFailure f = assertInstanceOf(ApplicationFailure.class, e.getCause());
    assertEquals(SimulationFailureTypes.AGENT_STEP_FAILED, f.getType());
    assertTrue(f.getOriginalMessage().startsWith("agent cop-"), f.getOriginalMessage());
    assertTrue(f.getOriginalMessage().contains("failed at step 1"), f.getOriginalMessage());
    assertTrue(f.getOriginalMessage().contains("LlmInvalidRequest"), f.getOriginalMessage());
  }

  @Test
  void aGarbageModelServerForOneRoleIsSkippedEndToEnd() throws Exception {
    server = new MisbehavingOpenAiServer(Behaviour.HTML_200);
    env = TestWorkers.start(Builtins.plugin()
        .setLlmSettings(LlmSettings.newBuilder().openAiBaseUrl(server.baseUrl()).openAiApiKey("sk-x-1234")
            .retryBudget(LlmRetryBudget.of(Duration.ofSeconds(3))).build())
        .build());
    AgentOptions base = AgentOptions.defaults();
    SimulationResult r = simulate(new SimulationInput("epstein", 1, 7, SMALL, base,
        Map.of("cop", base.toBuilder().setModel("openai:gpt-test").build()), null));
    assertEquals(2, r.failedAgentSteps());
    assertEquals(1, r.steps());
  }

  @Test
  void aKeyTheProviderRefusesEndsTheRunEvenWhenFailuresAreSkipped() throws Exception {
    server = new MisbehavingOpenAiServer(Behaviour.UNAUTHORIZED);
    env = TestWorkers.start(Builtins.plugin()
        .setLlmSettings(LlmSettings.newBuilder().openAiBaseUrl(server.baseUrl()).openAiApiKey("sk-x-1234")
            .retryBudget(LlmRetryBudget.of(Duration.ofSeconds(3))).build())
        .build());
    AgentOptions base = AgentOptions.defaults();
    // not one agent's bad luck: every cop would fail the same way, so skipping them would only hide it
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class,
        () -> simulate(new SimulationInput("epstein", 2, 7, SMALL, base,
            Map.of("cop", base.toBuilder().setModel("openai:gpt-test").build()), null)));
    ApplicationFailure f = assertInstanceOf(ApplicationFailure.class, e.getCause());
    assertEquals("LlmAuthenticationFailed", f.getType());
    assertTrue(f.getOriginalMessage().endsWith("every agent on this model fails the same way)"),
        f.getOriginalMessage());
    assertTrue(f.getOriginalMessage().contains("Incorrect API key"), f.getOriginalMessage());
  }
}
