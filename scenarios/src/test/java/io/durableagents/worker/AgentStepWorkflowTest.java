package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
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
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** CoT through the real LLM activity and LangChain4j's ChatModel interface, with a scripted model. */
class AgentStepWorkflowTest {
  private final ScriptedChatModel model = new ScriptedChatModel();
  private final TestWorkflowEnvironment env =
      TestWorkers.start(Builtins.plugin().registerModel("scripted", model).build());

  @AfterEach
  void tearDown() {
    env.close();
  }

  private AgentStepResult step(AgentOptions options) {
    EpsteinWorld world = EpsteinWorld.create(EpsteinParameters.DEFAULTS, new SeededRandom(1));
    AgentStepInput in = new AgentStepInput("sim-x", EpsteinScenario.NAME, "citizen-2", "citizen",
        world.observe("citizen-2", 1), null, EpsteinScenario.CITIZEN_TOOLS, EpsteinScenario.WORLD_ACTIONS,
        options);
    return env.getWorkflowClient().newWorkflowStub(AgentStepWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build()).step(in);
  }

  private static List<String> names(List<ToolSpecification> specs) {
    return specs == null ? List.of() : specs.stream().map(ToolSpecification::name).toList();
  }

  @Test
  void cotReasonsWithToolChoiceNoneThenExecutesWithTheAgentsToolChoice() {
    model.then(AiMessage.from("Thought 1: grievance is high.\nThought 4: rebel.\n"
            + "Action: change_state({\"state\":\"active\"})"))
        .then(AiMessage.from(ToolExecutionRequest.builder().id("call_1").name("change_state")
            .arguments("{\"state\":\"active\"}").build()));

    AgentStepResult result = step(AgentOptions.newBuilder().setModel("scripted")
        .setToolChoice(io.durableagents.workflows.llm.ToolChoice.REQUIRED).build());

    assertEquals(2, model.requests.size());
    ChatRequest reasoning = model.requests.get(0);
    assertEquals(ToolChoice.NONE, reasoning.toolChoice());
    assertEquals(List.of("change_state", "move_one_step"), names(reasoning.toolSpecifications()));
    assertTrue(reasoning.messages().get(0).toString().contains("_risk_aversion"));
    ChatRequest execution = model.requests.get(1);
    assertEquals(ToolChoice.REQUIRED, execution.toolChoice());
    assertTrue(execution.messages().toString().contains("Action: change_state"));

    assertEquals(1, result.actions().size());
    assertEquals("change_state", result.actions().get(0).tool());
    assertEquals("active", result.actions().get(0).arguments().get("state").asText());
    assertEquals("call_1", result.actions().get(0).toolCallId());
    assertEquals(2, result.llmCalls());
    assertEquals(240, result.usage().total());
    assertTrue(result.reasoning().startsWith("Thought 1"));
  }

  @Test
  void argumentsThatBreakTheSchemaAreSentBackForCorrection() {
    model.then(AiMessage.from("Action: move_one_step({\"direction\":\"Up\"})"))
        .then(AiMessage.from(ToolExecutionRequest.builder().id("call_1").name("move_one_step")
            .arguments("{\"direction\":\"Up\"}").build()))
        .then(AiMessage.from(ToolExecutionRequest.builder().id("call_2").name("move_one_step")
            .arguments("{\"direction\":\"North\"}").build()));

    AgentStepResult result = step(AgentOptions.newBuilder().setModel("scripted").build());

    assertEquals(3, model.requests.size());
    String correction = model.requests.get(2).messages().toString();
    assertTrue(correction.contains("rejected"), correction);
    assertEquals(1, result.actions().size());
    assertEquals("North", result.actions().get(0).arguments().get("direction").asText());
  }
}
