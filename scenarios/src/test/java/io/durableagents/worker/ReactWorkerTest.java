package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ToolChoice;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import io.durableagents.scenarios.epstein.EpsteinWorld;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.ActionFormat;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.AgentStepWorkflow;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * ReAct through the real plugin: the LLM activity over LangChain4j's ChatModel (a scripted one), the
 * real tool registry with its calculator and the finish control tool.
 */
class ReactWorkerTest {
  private final ScriptedChatModel model = new ScriptedChatModel();
  private final TestWorkflowEnvironment env =
      TestWorkers.start(Builtins.plugin().registerModel("scripted", model).build());

  @AfterEach
  void tearDown() {
    env.close();
  }

  private AgentTaskResult run(AgentOptions.Builder options) {
    return env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build())
        .run(new AgentTaskInput("What is 17 * 23?", null,
            options.setStrategy(Strategy.REACT).setModel("scripted").build()));
  }

  private static ToolExecutionRequest call(String id, String tool, String arguments) {
    return ToolExecutionRequest.builder().id(id).name(tool).arguments(arguments).build();
  }

  private static List<String> names(List<ToolSpecification> specs) {
    return specs == null ? List.of() : specs.stream().map(ToolSpecification::name).toList();
  }

  private static ChatMessage last(ChatRequest request) {
    return request.messages().get(request.messages().size() - 1);
  }

  @Test
  void theCalculatorRunsAndAFinishCallAnswers() {
    model.then(AiMessage.from("I will compute it.", List.of(call("call_1", "calculator", "{\"expression\":\"17*23\"}"))))
        .then(AiMessage.from(call("call_2", "finish", "{\"answer\":\"17 * 23 = 391\"}")));

    AgentTaskResult result = run(AgentOptions.newBuilder());

    assertEquals(2, model.requests.size());
    ChatRequest first = model.requests.get(0);
    assertEquals(List.of("calculator", "read_file", "finish"), names(first.toolSpecifications()));
    assertEquals(ToolChoice.AUTO, first.toolChoice());
    ToolSpecification finish = first.toolSpecifications().get(2);
    assertEquals(List.of("answer"), List.copyOf(finish.parameters().required()));

    ChatRequest second = model.requests.get(1);
    assertEquals(ToolChoice.AUTO, second.toolChoice());
    ToolExecutionResultMessage observation =
        assertInstanceOf(ToolExecutionResultMessage.class, last(second));
    assertEquals("call_1", observation.id());
    assertEquals("391", observation.text(), "the real calculator's answer");

    assertEquals("17 * 23 = 391", result.answer());
    assertEquals("react", result.strategy());
    assertNull(result.forcedFinish());
    assertEquals(2, result.turns().size());
    ToolOutcome outcome = result.turns().get(0).outcomes().get(0);
    assertEquals("calculator", outcome.tool());
    assertEquals("391", outcome.output());
    assertEquals("I will compute it.", result.turns().get(0).thought());
    assertEquals(1, result.toolCalls(), "finish is never a tool activity");
    assertEquals(2, result.llmCalls());
    assertEquals(240, result.usage().total());
  }

  @Test
  void aFinishCallThatBreaksItsSchemaIsSentBackForCorrection() {
    model.then(AiMessage.from(call("call_1", "finish", "{}")))
        .then(AiMessage.from(call("call_2", "finish", "{\"answer\":\"391\"}")));

    AgentTaskResult result = run(AgentOptions.newBuilder());

    assertEquals(2, model.requests.size());
    ToolExecutionResultMessage rejected = assertInstanceOf(ToolExecutionResultMessage.class, last(model.requests.get(1)));
    assertTrue(rejected.text().contains("answer: required but missing"), rejected.text());
    assertTrue(result.turns().get(0).outcomes().get(0).error());
    assertEquals("391", result.answer());
  }

  @Test
  void theTextFormatOffersNoToolsAndArgumentErrorsComeBackFromTheToolActivity() {
    model.then(AiMessage.from("Thought: compute.\nAction: calculator[{\"expr\": \"17*23\"}]"))
        .then(AiMessage.from("Thought: fix the argument.\nAction: calculator[{\"expression\": \"17*23\"}]"))
        .then(AiMessage.from("Thought: done.\nAction: finish[391]"));

    AgentTaskResult result = run(AgentOptions.newBuilder().setActionFormat(ActionFormat.TEXT));

    assertEquals(3, model.requests.size());
    assertEquals(List.of(), names(model.requests.get(0).toolSpecifications()));
    assertNull(model.requests.get(0).toolChoice(), "no tool choice is sent without tools");
    String observation = ((UserMessage) last(model.requests.get(1))).singleText();
    assertTrue(observation.startsWith("Observation: the arguments of calculator do not fit its schema"),
        observation);
    assertEquals("Observation: 391", ((UserMessage) last(model.requests.get(2))).singleText());
    assertEquals("391", result.answer());
    assertEquals(2, result.toolCalls());
  }

  @Test
  void theOfflineRulesModelPlaysAReactStepInTheTextFormat() {
    EpsteinWorld world = EpsteinWorld.create(EpsteinParameters.DEFAULTS, new SeededRandom(1));
    AgentStepInput in = new AgentStepInput("sim-r", EpsteinScenario.NAME, "citizen-2", "citizen",
        world.observe("citizen-2", 1), null, EpsteinScenario.CITIZEN_TOOLS, EpsteinScenario.WORLD_ACTIONS,
        AgentOptions.newBuilder().setStrategy(Strategy.REACT).setActionFormat(ActionFormat.TEXT).build());

    AgentStepResult result = env.getWorkflowClient().newWorkflowStub(AgentStepWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build()).step(in);

    assertEquals(1, result.llmCalls(), "the rules model's world actions end the step");
    // The seeded world's citizen-2 stays quiet and moves: the rules model writes move_one_step({...}).
    assertEquals(List.of("move_one_step"), result.actions().stream().map(WorldAction::tool).toList());
    assertTrue(result.actions().get(0).arguments().has("direction"));
    assertTrue(result.reasoning().contains("rule-based policy"), result.reasoning());
  }
}
