package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ToolChoice;
import io.durableagents.api.SeededRandom;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import io.durableagents.scenarios.epstein.EpsteinWorld;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.AgentStepWorkflow;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.StrategyFailureTypes;
import io.durableagents.workflows.agent.rewoo.ReWooStepResult;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * ReWOO through the plugin, the real LLM activity (JSON mode, plan steps checked against the real
 * tools' schemas) and the real calculator, with a scripted LangChain4j model; and a simulation step
 * with the offline rules model.
 */
class ReWooWorkerTest {
  private final ScriptedChatModel model = new ScriptedChatModel();
  private final TestWorkflowEnvironment env =
      TestWorkers.start(Builtins.plugin().registerModel("scripted", model).build());

  @AfterEach
  void tearDown() {
    env.close();
  }

  private static AgentOptions rewoo(String model) {
    return AgentOptions.newBuilder().setStrategy(Strategy.REWOO).setModel(model).build();
  }

  private AgentTaskResult task(String workflowId, String task) {
    return env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(workflowId).build())
        .run(new AgentTaskInput(task, null, rewoo("scripted")));
  }

  private static List<String> names(List<ToolSpecification> specs) {
    return specs == null ? List.of() : specs.stream().map(ToolSpecification::name).toList();
  }

  private long toolActivities(String workflowId) {
    return env.getWorkflowClient().fetchHistory(workflowId).getEvents().stream()
        .filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
        .filter(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName().equals("ToolExecute"))
        .count();
  }

  @Test
  void aPlanWithAWholeValuePlaceholderRunsOnTheRealCalculatorInTwoLlmCalls() {
    model.then(AiMessage.from("{\"plan\":["
            + "{\"id\":\"E1\",\"tool\":\"calculator\",\"args\":{\"expression\":\"17 * 23\"}},"
            + "{\"id\":\"E2\",\"tool\":\"calculator\",\"args\":{\"expression\":\"{{E1}}\"}},"
            + "{\"id\":\"E3\",\"tool\":\"calculator\",\"args\":{\"expression\":\"{{E2}} + 9\"}}]}"))
        .then(AiMessage.from("17 * 23 + 9 = 400"));

    AgentTaskResult result = task("rewoo-task-1", "What is 17 * 23 + 9?");

    assertEquals(2, model.requests.size());
    ChatRequest planner = model.requests.get(0);
    assertEquals(ResponseFormat.JSON, planner.responseFormat());
    assertEquals(ToolChoice.NONE, planner.toolChoice());
    assertEquals(List.of("calculator", "read_file"), names(planner.toolSpecifications()));
    ChatRequest solver = model.requests.get(1);
    assertNull(solver.responseFormat());
    assertEquals(List.of(), names(solver.toolSpecifications()));
    assertTrue(solver.messages().toString().contains("p1-E3 calculator: 400"), solver.messages().toString());

    assertEquals(List.of("391", "391", "400"),
        result.stepResults().stream().map(ReWooStepResult::output).toList(),
        "the whole-value placeholder passed E1's text to the string parameter: " + result.stepResults());
    assertEquals("17 * 23 + 9 = 400", result.answer());
    assertEquals(2, result.llmCalls());
    assertEquals(3, result.toolCalls());
    assertEquals(3, toolActivities("rewoo-task-1"));
  }

  @Test
  void anArgumentOfTheWrongTypeIsRejectedBeforeAnyToolRunsAndCorrectedOnce() {
    model.then(AiMessage.from("[{\"id\":\"E1\",\"tool\":\"calculator\",\"args\":{\"expression\":42}}]"))
        .then(AiMessage.from("[{\"id\":\"E1\",\"tool\":\"calculator\",\"args\":{\"expression\":\"6 * 7\"}}]"))
        .then(AiMessage.from("42"));

    AgentTaskResult result = task("rewoo-task-2", "What is 6 * 7?");

    String correction = model.requests.get(1).messages().toString();
    assertTrue(correction.contains("expression: expected a string, got number 42"), correction);
    assertEquals(1, result.toolCalls());
    assertEquals("42", result.stepResults().get(0).output());
    assertEquals(3, result.llmCalls());
  }

  @Test
  void aPlanThatBreaksTheSchemaTwiceFailsTypedWithNoToolRun() {
    String bad = "[{\"id\":\"E1\",\"tool\":\"calculator\",\"args\":{\"expression\":42,\"precision\":2}}]";
    model.then(AiMessage.from(bad)).then(AiMessage.from(bad));

    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, () -> task("rewoo-task-3", "42?"));

    ApplicationFailure failure = assertInstanceOf(ApplicationFailure.class, e.getCause());
    assertEquals(StrategyFailureTypes.INVALID_PLAN, failure.getType());
    assertTrue(failure.getOriginalMessage().contains("expression: expected a string"), failure.getOriginalMessage());
    assertTrue(failure.getOriginalMessage().contains("precision: unknown argument"), failure.getOriginalMessage());
    assertEquals(2, model.requests.size());
    assertEquals(0, toolActivities("rewoo-task-3"));
  }

  @Test
  void theRulesModelPlansForTheTtlAndTheNextStepReusesThePlan() {
    EpsteinWorld world = EpsteinWorld.create(EpsteinParameters.DEFAULTS, new SeededRandom(1));
    AgentOptions options = rewoo("rules").toBuilder().setTtl(3).build();
    AgentStepInput first = new AgentStepInput("sim-r", EpsteinScenario.NAME, "citizen-2", "citizen",
        world.observe("citizen-2", 1), null, EpsteinScenario.CITIZEN_TOOLS, EpsteinScenario.WORLD_ACTIONS,
        options);
    AgentStepResult s1 = env.getWorkflowClient().newWorkflowStub(AgentStepWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build()).step(first);

    assertEquals(1, s1.llmCalls());
    assertTrue(s1.planMade());
    assertFalse(s1.plan().steps().isEmpty());
    assertTrue(s1.plan().steps().size() <= 3, s1.plan().llmPlan());
    assertEquals(1, s1.actions().size());
    assertEquals("1-E1", s1.actions().get(0).toolCallId());
    assertTrue(s1.plan().steps().size() > 1, "the rules model plans ahead for the TTL: " + s1.plan().llmPlan());

    AgentStepInput second = new AgentStepInput("sim-r", EpsteinScenario.NAME, "citizen-2", "citizen",
        world.observe("citizen-2", 2), s1.plan(), EpsteinScenario.CITIZEN_TOOLS,
        EpsteinScenario.WORLD_ACTIONS, options);
    AgentStepResult s2 = env.getWorkflowClient().newWorkflowStub(AgentStepWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build()).step(second);
    assertTrue(s2.planStepReused(), s2.reasoning());
    assertEquals(0, s2.llmCalls());
    assertEquals("1-E2", s2.actions().get(0).toolCallId());
  }

  @Test
  void aSimulationWithTtl3MakesFewerLlmCallsThanAgentSteps() {
    SimulationInput input = new SimulationInput("epstein", 4, 5, EpsteinParameters.DEFAULTS.withAgents(4, 2),
        rewoo("rules").toBuilder().setTtl(3).build(), null, null);
    SimulationResult result = env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("sim-rewoo").build())
        .run(input);

    assertTrue(result.planCounts().planStepsReused() > 0, result.planCounts().toString());
    assertEquals(result.llmCalls(), result.planCounts().plansMade(),
        "one planner call per plan made (the rules model's plans are valid): " + result.planCounts());
    assertTrue(result.llmCalls() < result.agentSteps(), result.llmCalls() + " LLM calls for "
        + result.agentSteps() + " agent steps");
  }
}
