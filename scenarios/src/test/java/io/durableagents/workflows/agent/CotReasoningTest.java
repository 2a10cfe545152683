package io.durableagents.workflows.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.WorldAction;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.tools.ToolActivities;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.durableagents.workflows.tools.ToolFailureTypes;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The calls CoT makes and the actions it returns, with a scripted model. */
class CotReasoningTest {
  private TestWorkflowEnvironment env;
  private ScriptedLlm llm;
  private final List<ToolExecutionRequest> toolRequests = Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void setUp() {
    env = TestWorkflowEnvironment.newInstance();
    llm = new ScriptedLlm();
    Worker agents = env.newWorker(TaskQueues.AGENTS);
    agents.registerWorkflowImplementationFactory(
        AgentStepWorkflow.class, () -> new AgentStepWorkflowImpl(Builtins.registry()));
    agents.registerActivitiesImplementations((ToolActivities) request -> {
      toolRequests.add(request);
      return new ToolExecutionResult(request.toolCallId(), request.name(), "42", false);
    });
    env.newWorker(TaskQueues.LLM).registerActivitiesImplementations(llm);
    env.start();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private AgentStepResult run(AgentOptions options, List<String> tools) {
    AgentStepWorkflow wf = env.getWorkflowClient().newWorkflowStub(AgentStepWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("sim/agent-citizen-1/step-3").build());
    Observation obs = new Observation(3,
        Map.of("id", "citizen-1", "role", "citizen", "_hardship", 0.5),
        Map.of("cop-0", Map.of("role", "cop", "position", List.of(1, 1))));
    return wf.step(new AgentStepInput("sim", EpsteinScenario.NAME, "citizen-1", EpsteinScenario.CITIZEN,
        obs, null, tools, EpsteinScenario.WORLD_ACTIONS, options));
  }

  private static JsonNode args(String json) {
    return Json.tryParse(json);
  }

  @Test
  void reasonsWithToolsOffThenExecutesThePlanAsWorldActions() {
    llm.text("Thought 1: ...\nAction: move_one_step({\"direction\":\"North\"})")
        .calls(ToolCall.of("c1", "move_one_step", args("{\"direction\":\"North\"}")),
            ToolCall.of("c2", "change_state", args("{\"state\":\"active\"}")));

    AgentStepResult result = run(AgentOptions.defaults(), EpsteinScenario.CITIZEN_TOOLS);

    assertEquals(2, llm.requests.size());
    LlmRequest reasoning = llm.requests.get(0);
    assertEquals(ToolChoice.NONE, reasoning.toolChoice());
    assertEquals(CotPrompts.REASONING_PURPOSE, reasoning.purpose());
    assertEquals(EpsteinScenario.CITIZEN_TOOLS, reasoning.tools());
    assertEquals("rules", reasoning.model());
    String system = reasoning.messages().get(0).text();
    assertTrue(system.contains("self_state: {\"_hardship\":0.5,\"id\":\"citizen-1\",\"role\":\"citizen\"}"), system);
    assertTrue(system.contains("Thought 4:"), "asks for Mesa-LLM's numbered thoughts");

    LlmRequest execution = llm.requests.get(1);
    assertEquals(ToolChoice.AUTO, execution.toolChoice());
    assertEquals(CotPrompts.EXECUTION_PURPOSE, execution.purpose());
    assertTrue(execution.messages().get(1).text().contains("Action: move_one_step"));

    assertEquals(List.of("move_one_step", "change_state"),
        result.actions().stream().map(WorldAction::tool).toList());
    assertEquals("citizen-1", result.actions().get(0).agentId());
    assertEquals("North", result.actions().get(0).arguments().get("direction").asText());
    assertEquals(2, result.llmCalls());
    assertEquals(0, result.toolCalls());
    assertEquals(25, result.usage().total());
    assertEquals(3, result.plan().step());
    assertEquals(1, result.plan().ttl());
    assertTrue(toolRequests.isEmpty(), "world actions are not run as tool activities");
  }

  @Test
  void emptySelectedToolsMeansNoToolsAndNoExecutionPass() {
    llm.text("Thought 1: nothing to do\nAction: none");
    AgentStepResult result = run(AgentOptions.newBuilder().setSelectedTools(List.of()).build(),
        EpsteinScenario.CITIZEN_TOOLS);
    assertEquals(1, llm.requests.size());
    assertEquals(List.of(), llm.requests.get(0).tools());
    assertEquals(List.of(), result.actions());
    assertEquals(1, result.llmCalls());
  }

  @Test
  void selectedToolsNarrowTheToolsTheModelSees() {
    llm.text("Action: move_one_step({\"direction\":\"East\"})")
        .calls(ToolCall.of("c1", "move_one_step", args("{\"direction\":\"East\"}")));
    run(AgentOptions.newBuilder().setSelectedTools(List.of("move_one_step"))
        .setToolChoice(ToolChoice.REQUIRED).build(), EpsteinScenario.CITIZEN_TOOLS);
    assertEquals(List.of("move_one_step"), llm.requests.get(0).tools());
    assertEquals(List.of("move_one_step"), llm.requests.get(1).tools());
    assertEquals(ToolChoice.REQUIRED, llm.requests.get(1).toolChoice());
  }

  @Test
  void anUnknownSelectedToolFailsTheStepWithATypedError() {
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class,
        () -> run(AgentOptions.newBuilder().setSelectedTools(List.of("fly")).build(),
            EpsteinScenario.CITIZEN_TOOLS));
    ApplicationFailure failure = assertInstanceOf(ApplicationFailure.class, e.getCause());
    assertEquals(ToolFailureTypes.UNKNOWN_SELECTED_TOOL, failure.getType());
    assertTrue(failure.getOriginalMessage().contains("fly"));
    assertTrue(llm.requests.isEmpty(), "no model call is paid for a bad configuration");
  }

  @Test
  void toolChoiceNoneSkipsTheExecutionPass() {
    llm.text("Action: move_one_step({\"direction\":\"East\"})");
    AgentStepResult result = run(AgentOptions.newBuilder().setToolChoice(ToolChoice.NONE).build(),
        EpsteinScenario.CITIZEN_TOOLS);
    assertEquals(1, llm.requests.size());
    assertEquals(List.of(), result.actions());
  }

  @Test
  void rejectedCallsGoBackToTheModelAsObservationsItCanCorrect() {
    llm.text("Action: move_one_step({\"direction\":\"Up\"})")
        .calls(new ToolCall("c1", "move_one_step", args("{\"direction\":\"Up\"}"), null,
            "direction: 'Up' is not one of North, South, ..."))
        .calls(ToolCall.of("c2", "move_one_step", args("{\"direction\":\"North\"}")));

    AgentStepResult result = run(AgentOptions.defaults(), EpsteinScenario.CITIZEN_TOOLS);

    assertEquals(3, llm.requests.size());
    List<ChatTurn> correction = llm.requests.get(2).messages();
    ChatTurn toolTurn = correction.stream().filter(t -> t.role() == ChatTurn.Role.TOOL).findFirst().orElseThrow();
    assertEquals("c1", toolTurn.toolCallId());
    assertTrue(toolTurn.text().startsWith("rejected: direction"), toolTurn.text());
    assertEquals(1, result.actions().size());
    assertEquals("North", result.actions().get(0).arguments().get("direction").asText());
    assertEquals(1, result.toolOutcomes().size());
    assertTrue(result.toolOutcomes().get(0).error());
  }

  @Test
  void correctionsAreBounded() {
    ToolCall bad = new ToolCall("c1", "teleport", args("{}"), null, "unknown tool 'teleport'");
    llm.text("Action: teleport({})").calls(bad).calls(bad);
    AgentStepResult result = run(AgentOptions.defaults(), EpsteinScenario.CITIZEN_TOOLS);
    assertEquals(3, llm.requests.size(), "1 reasoning + 1 execution + maxCorrections (1)");
    assertEquals(List.of(), result.actions());
    assertEquals(2, result.toolOutcomes().size());
  }

  @Test
  void externalToolsRunAsActivitiesWithAnIdempotencyKey() {
    llm.text("Action: calculator({\"expression\":\"6*7\"})")
        .calls(ToolCall.of("c9", "calculator", args("{\"expression\":\"6*7\"}")));
    AgentStepResult result = run(AgentOptions.defaults(), List.of("move_one_step", "calculator"));
    assertEquals(1, toolRequests.size());
    assertEquals("sim/agent-citizen-1/step-3/3/c9", toolRequests.get(0).idempotencyKey());
    assertEquals(1, result.toolCalls());
    assertEquals("42", result.toolOutcomes().get(0).output());
    assertEquals(List.of(), result.actions());
  }
}
