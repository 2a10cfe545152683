package io.durableagents.workflows.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.WorldAction;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.agent.react.ReactPrompts;
import io.durableagents.workflows.llm.ChatTurn.Role;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.durableagents.workflows.task.AgentTaskWorkflowImpl;
import io.durableagents.workflows.tools.ToolActivities;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The calls ReAct makes, in order, and what it returns, with a scripted model and fake tools, through
 * the agent-step and agent-task workflows.
 */
class ReactReasoningTest {
  /** The tools of a task run: two fake external tools. */
  private static final List<String> TASK_TOOLS = List.of("calculator", "lookup");

  private static final String BIG_HEAD = "HEAD-";
  private static final String BIG_TAIL = "-TAIL";

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
    agents.registerWorkflowImplementationTypes(AgentTaskWorkflowImpl.class);
    agents.registerActivitiesImplementations((ToolActivities) this::fakeTool);
    env.newWorker(TaskQueues.LLM).registerActivitiesImplementations(llm);
    env.start();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  /** calculator: "42"; big: 20000 characters; broken: throws; soft_error: an error result. */
  private ToolExecutionResult fakeTool(ToolExecutionRequest request) {
    toolRequests.add(request);
    switch (request.name()) {
      case "broken":
        throw ApplicationFailure.newNonRetryableFailure("backend down", "Boom");
      case "soft_error":
        return new ToolExecutionResult(request.toolCallId(), request.name(), "no such page", true);
      case "big":
        return new ToolExecutionResult(request.toolCallId(), request.name(),
            BIG_HEAD + "x".repeat(20000 - BIG_HEAD.length() - BIG_TAIL.length()) + BIG_TAIL, false);
      default:
        return new ToolExecutionResult(request.toolCallId(), request.name(), "42", false);
    }
  }

  private AgentTaskResult task(AgentOptions options, List<String> tools) {
    AgentTaskWorkflow wf = env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("task-1").build());
    return wf.run(new AgentTaskInput("What is 17 * 23?", tools,
        options.toBuilder().setStrategy(Strategy.REACT).build()));
  }

  private AgentTaskResult task(AgentOptions options) {
    return task(options, TASK_TOOLS);
  }

  private AgentStepResult step(AgentOptions options, List<String> tools) {
    AgentStepWorkflow wf = env.getWorkflowClient().newWorkflowStub(AgentStepWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS)
            .setWorkflowId("sim/agent-citizen-1/step-3").build());
    Observation obs = new Observation(3,
        Map.of("id", "citizen-1", "role", "citizen", "_hardship", 0.5),
        Map.of("cop-0", Map.of("role", "cop", "position", List.of(1, 1))));
    return wf.step(new AgentStepInput("sim", EpsteinScenario.NAME, "citizen-1", EpsteinScenario.CITIZEN,
        obs, new Plan(2, "Thought: stay put\nAction: none", 1), tools, EpsteinScenario.WORLD_ACTIONS,
        options.toBuilder().setStrategy(Strategy.REACT).build()));
  }

  private static AgentOptions defaults() {
    return AgentOptions.defaults();
  }

  private static JsonNode args(String json) {
    return Json.tryParse(json);
  }

  private static ToolCall call(String id, String tool, String json) {
    return ToolCall.of(id, tool, args(json));
  }

  private static List<Role> roles(LlmRequest request) {
    return request.messages().stream().map(ChatTurn::role).toList();
  }

  private static ChatTurn last(LlmRequest request) {
    return request.messages().get(request.messages().size() - 1);
  }

  private static List<String> withFinish(List<String> tools) {
    List<String> all = new ArrayList<>(tools);
    all.add(ReactPrompts.FINISH_TOOL);
    return all;
  }

  @Test
  void aFinishCallEndsTheRunWithItsAnswer() {
    llm.thoughtAndCalls("I know this one.", call("c1", "finish", "{\"answer\":\"391\"}"));

    AgentTaskResult result = task(defaults());

    assertEquals(List.of(ReactPrompts.TURN_PURPOSE), llm.purposes());
    LlmRequest turn = llm.requests.get(0);
    assertEquals(ToolChoice.AUTO, turn.toolChoice(), "PROVIDER_DEFAULT is not the options' default, AUTO is");
    assertEquals(List.of("calculator", "lookup", "finish"), turn.tools());
    assertEquals(List.of(Role.SYSTEM, Role.USER), roles(turn));
    assertEquals("What is 17 * 23?", turn.messages().get(1).text());
    assertTrue(turn.messages().get(0).text().contains("call finish"), turn.messages().get(0).text());

    assertEquals("391", result.answer());
    assertEquals("react", result.strategy());
    assertNull(result.forcedFinish());
    assertEquals(1, result.turns().size());
    assertEquals("I know this one.", result.turns().get(0).thought());
    assertEquals(1, result.llmCalls());
    assertEquals(0, result.toolCalls());
    assertEquals(10, result.usage().total());
    assertNull(result.plan());
    assertEquals(List.of(), result.stepResults());
    assertEquals(0, result.replans());
    assertTrue(toolRequests.isEmpty(), "finish is handled by the workflow, never run as a tool");
  }

  @Test
  void aPlainAnswerWithoutToolCallsEndsTheRun() {
    llm.text("17 * 23 is 391.");

    AgentTaskResult result = task(defaults());

    assertEquals(1, llm.requests.size());
    assertEquals("17 * 23 is 391.", result.answer());
    assertNull(result.forcedFinish());
    assertEquals(1, result.turns().size());
    assertEquals(List.of(), result.turns().get(0).outcomes());
  }

  @Test
  void toolsRunInParallelAndTheirResultsAreTheNextObservation() {
    llm.thoughtAndCalls("Two sums at once.",
            call("c1", "calculator", "{\"expression\":\"17*23\"}"),
            call("c2", "lookup", "{\"q\":\"391\"}"))
        .thoughtAndCalls("Both came back.", call("c3", "finish", "{\"answer\":\"391\"}"));

    AgentTaskResult result = task(defaults());

    assertEquals(List.of("react-turn", "react-turn"), llm.purposes());
    LlmRequest second = llm.requests.get(1);
    assertEquals(List.of(Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.TOOL, Role.TOOL), roles(second));
    ChatTurn assistant = second.messages().get(2);
    assertEquals("Two sums at once.", assistant.text());
    assertEquals(List.of("c1", "c2"), assistant.toolCalls().stream().map(ToolCall::id).toList());
    assertEquals("c1", second.messages().get(3).toolCallId());
    assertEquals("calculator", second.messages().get(3).toolName());
    assertEquals("42", second.messages().get(3).text());
    assertEquals("c2", second.messages().get(4).toolCallId());

    assertEquals(2, toolRequests.size());
    assertEquals(List.of("task-1/0/c1", "task-1/0/c2"),
        toolRequests.stream().map(ToolExecutionRequest::idempotencyKey).sorted().toList());
    assertEquals("391", result.answer());
    assertEquals(2, result.turns().size());
    assertEquals(List.of("calculator", "lookup"),
        result.turns().get(0).outcomes().stream().map(ToolOutcome::tool).toList());
    assertEquals(List.of(), result.turns().get(1).outcomes());
    assertEquals(2, result.toolCalls());
    assertEquals(2, result.llmCalls());
  }

  @Test
  void atTheBoundTheModelIsAskedOnceMoreWithToolsOff() {
    llm.thoughtAndCalls("one", call("c1", "calculator", "{\"expression\":\"1\"}"))
        .thoughtAndCalls("two", call("c2", "calculator", "{\"expression\":\"2\"}"))
        .thoughtAndCalls("three", call("c3", "calculator", "{\"expression\":\"3\"}"))
        .text("My best answer: 391.");

    AgentTaskResult result = task(defaults().toBuilder().setMaxIterations(3).build());

    assertEquals(List.of("react-turn", "react-turn", "react-turn", "react-final"), llm.purposes());
    assertEquals(4, result.llmCalls(), "maxIterations + 1");
    LlmRequest forced = llm.requests.get(3);
    assertEquals(List.of(), forced.tools());
    assertEquals(ToolChoice.NONE, forced.toolChoice());
    assertEquals(Role.USER, last(forced).role());
    assertTrue(last(forced).text().contains("max iterations (3) reached"), last(forced).text());
    assertEquals(Role.TOOL, forced.messages().get(forced.messages().size() - 2).role(),
        "the last turn's calls are answered before the forced finish");

    assertEquals("max iterations (3) reached", result.forcedFinish());
    assertTrue(result.forced());
    assertEquals("My best answer: 391.", result.answer());
    assertEquals(3, result.turns().size());
    assertEquals(3, result.toolCalls());
  }

  @Test
  void theSameCallRepeatedForcesAFinishAndIsNotRunAgain() {
    // The same arguments in another key order are the same call.
    llm.thoughtAndCalls("look", call("c1", "lookup", "{\"q\":\"x\",\"page\":1}"))
        .thoughtAndCalls("again", call("c2", "lookup", "{\"page\":1,\"q\":\"x\"}"))
        .thoughtAndCalls("and again", call("c3", "lookup", "{\"q\":\"x\",\"page\":1}"))
        .text("It is x.");

    AgentTaskResult result = task(defaults());

    assertEquals(List.of("react-turn", "react-turn", "react-turn", "react-final"), llm.purposes());
    assertEquals(2, toolRequests.size(), "the third identical call is not run");
    assertTrue(result.forcedFinish().startsWith("repeated action (lookup"), result.forcedFinish());
    ToolOutcome refused = result.turns().get(2).outcomes().get(0);
    assertTrue(refused.error());
    assertTrue(refused.output().startsWith("not run: you called lookup with the same arguments 3 times"),
        refused.output());
    assertEquals("It is x.", result.answer());
    assertEquals(ToolChoice.NONE, llm.requests.get(3).toolChoice());
  }

  @Test
  void rejectedAndFailedCallsAreObservationsTheModelRecoversFrom() {
    llm.thoughtAndCalls("Try everything.",
            new ToolCall("c1", "teleport", args("{}"), null, "unknown tool 'teleport'; available tools: calculator"),
            new ToolCall("c2", "calculator", args("{\"expr\":\"1\"}"), null,
                "the arguments of calculator do not fit its schema: expression: required but missing"),
            call("c3", "broken", "{}"),
            call("c4", "soft_error", "{\"page\":7}"))
        .thoughtAndCalls("Corrected.", call("c5", "calculator", "{\"expression\":\"17*23\"}"))
        .thoughtAndCalls("Done.", call("c6", "finish", "{\"answer\":\"391\"}"));

    AgentTaskResult result =
        task(defaults(), List.of("calculator", "broken", "soft_error"));

    assertEquals(3, llm.requests.size());
    List<ChatTurn> seen = llm.requests.get(1).messages();
    assertEquals(List.of(Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.TOOL, Role.TOOL, Role.TOOL, Role.TOOL),
        roles(llm.requests.get(1)));
    assertTrue(seen.get(3).text().startsWith("unknown tool 'teleport'"), seen.get(3).text());
    assertTrue(seen.get(4).text().contains("expression: required but missing"), seen.get(4).text());
    assertEquals("tool failed: backend down", seen.get(5).text());
    assertEquals("no such page", seen.get(6).text());

    List<ToolOutcome> first = result.turns().get(0).outcomes();
    assertEquals(List.of("teleport", "calculator", "broken", "soft_error"),
        first.stream().map(ToolOutcome::tool).toList());
    assertTrue(first.stream().allMatch(ToolOutcome::error));
    // The first turn's two tools run in parallel: their order is the scheduler's.
    assertEquals(List.of("broken", "soft_error"),
        toolRequests.subList(0, 2).stream().map(ToolExecutionRequest::name).sorted().toList());
    assertEquals("calculator", toolRequests.get(2).name());
    assertEquals(3, result.toolCalls(), "rejected calls never reach the tool activity");
    assertFalse(result.turns().get(1).outcomes().get(0).error());
    assertEquals("391", result.answer());
    assertNull(result.forcedFinish());
  }

  @Test
  void aLongObservationIsCompressedInTheConversationAndTheResult() {
    llm.thoughtAndCalls("Read it.", call("c1", "big", "{}"))
        .thoughtAndCalls("Got it.", call("c2", "finish", "{\"answer\":\"long\"}"));

    AgentTaskResult result = task(defaults().toBuilder().setMaxObservationChars(200).build(),
        List.of("big"));

    String inConversation = last(llm.requests.get(1)).text();
    assertTrue(inConversation.length() <= 200, "length " + inConversation.length());
    assertTrue(inConversation.startsWith(BIG_HEAD), inConversation);
    assertTrue(inConversation.endsWith(BIG_TAIL), inConversation);
    Matcher note =
        Pattern.compile("\\n\\[\\.\\.\\. (\\d+) characters cut of 20000 \\.\\.\\.\\]\\n")
            .matcher(inConversation);
    assertTrue(note.find(), inConversation);
    int cut = Integer.parseInt(note.group(1));
    assertEquals(20000, inConversation.length() - note.group().length() + cut,
        "kept plus cut is the whole observation");
    assertEquals(inConversation, result.turns().get(0).outcomes().get(0).output(),
        "the result keeps the compressed text, not the 20000 characters");
  }

  @Test
  void theTextFormatOffersNoToolsAndParsesTheActionLine() {
    llm.text("Thought: I need the product.\nAction: calculator[{\"expression\": \"17 * 23\"}]\n"
            + "Observation: 999 (made up by the model)")
        .text("Thought: The tool said 42.\nAction: finish[391]");

    AgentTaskResult result = task(defaults().toBuilder().setActionFormat(ActionFormat.TEXT).build());

    LlmRequest first = llm.requests.get(0);
    assertEquals(List.of(), first.tools(), "no tools are offered to the provider");
    assertEquals(ToolChoice.NONE, first.toolChoice());
    String system = first.messages().get(0).text();
    assertTrue(system.contains("Tools: calculator, lookup, finish."), system);
    assertTrue(system.contains("Action: tool_name[{"), system);

    LlmRequest second = llm.requests.get(1);
    assertEquals(List.of(Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.USER), roles(second));
    assertFalse(second.messages().get(2).text().contains("made up"),
        "a made-up observation never enters the conversation");
    assertEquals("Observation: 42", last(second).text());

    assertEquals(1, toolRequests.size());
    assertEquals("calculator", toolRequests.get(0).name());
    assertEquals("17 * 23", toolRequests.get(0).arguments().get("expression").asText());
    assertEquals("391", result.answer());
    assertEquals("I need the product.", result.turns().get(0).thought());
    assertNull(result.forcedFinish());
  }

  @Test
  void aTextActionThatCannotBeParsedOrNamesAnUnknownToolIsAnObservation() {
    llm.text("Thought: hmm\nAction: xyz")
        .text("Action: teleport[{}]")
        .text("Action: finish[ok]");

    AgentTaskResult result = task(defaults().toBuilder().setActionFormat(ActionFormat.TEXT).build());

    assertEquals(3, llm.requests.size());
    assertEquals("Observation: could not parse the action 'xyz': expected tool[json arguments] or "
        + "finish[answer]", last(llm.requests.get(1)).text());
    assertEquals("Observation: unknown tool 'teleport'; available tools: calculator, lookup, finish",
        last(llm.requests.get(2)).text());
    assertTrue(toolRequests.isEmpty());
    assertTrue(result.turns().get(0).outcomes().get(0).error());
    assertEquals(ReactPrompts.UNPARSED_ACTION, result.turns().get(0).outcomes().get(0).tool());
    assertEquals("teleport", result.turns().get(1).outcomes().get(0).tool());
    assertEquals("ok", result.answer());
  }

  @Test
  void theTokenBudgetStopsTheLoopAndSkipsAFinalCallThatWouldNotFit() {
    // 10 tokens a call: after 2 calls, 20 used + 10 estimated > 25.
    llm.thoughtAndCalls("first", call("c1", "calculator", "{\"expression\":\"1\"}"))
        .thoughtAndCalls("second", call("c2", "calculator", "{\"expression\":\"2\"}"));

    AgentTaskResult result = task(defaults().toBuilder().setTokenBudget(25L).build());

    assertEquals(2, llm.requests.size(), "no third turn and no forced-finish call");
    assertEquals("token budget (25 tokens) reached: 20 used, and the next call would take about 10",
        result.forcedFinish());
    assertEquals("second", result.answer(), "the last thought stands in for the answer");
    assertEquals(20, result.usage().total());
  }

  @Test
  void theForcedFinishCallIsMadeWhenItFitsTheBudget() {
    llm.answer("first", new TokenUsage(5, 5), call("c1", "calculator", "{\"expression\":\"1\"}"))
        .answer("final", new TokenUsage(5, 5));

    AgentTaskResult result = task(defaults().toBuilder().setTokenBudget(20L).setMaxIterations(1).build());

    assertEquals(List.of("react-turn", "react-final"), llm.purposes());
    assertEquals("max iterations (1) reached", result.forcedFinish());
    assertEquals("final", result.answer());
  }

  @Test
  void repeatedCallIdsAreMadeUniqueForTheIdempotencyKey() {
    llm.thoughtAndCalls("a", call("call-1", "calculator", "{\"expression\":\"1\"}"))
        .thoughtAndCalls("b", call("call-1", "calculator", "{\"expression\":\"2\"}"))
        .text("done");

    task(defaults());

    assertEquals(List.of("task-1/0/call-1", "task-1/0/call-1-t2"),
        toolRequests.stream().map(ToolExecutionRequest::idempotencyKey).toList());
    ChatTurn renamed = llm.requests.get(2).messages().get(4);
    assertEquals(Role.ASSISTANT, renamed.role());
    assertEquals("call-1-t2", renamed.toolCalls().get(0).id());
    assertEquals("call-1-t2", last(llm.requests.get(2)).toolCallId());
  }

  @Test
  void worldActionsEndASimulationStepAndAreReturnedNotRun() {
    List<String> tools = List.of("change_state", "move_one_step", "calculator");
    llm.thoughtAndCalls("Let me weigh the risk.", call("c1", "calculator", "{\"expression\":\"0.5*0.8\"}"))
        .thoughtAndCalls("Grievance is high: rebel and move away.",
            call("c2", "change_state", "{\"state\":\"active\"}"),
            call("c3", "calculator", "{\"expression\":\"1+1\"}"),
            call("c4", "move_one_step", "{\"direction\":\"North\"}"));

    AgentStepResult result = step(defaults(), tools);

    assertEquals(List.of("react-turn", "react-turn"), llm.purposes());
    LlmRequest first = llm.requests.get(0);
    assertEquals(withFinish(tools), first.tools());
    assertEquals(ToolChoice.AUTO, first.toolChoice());
    String system = first.messages().get(0).text();
    List<String> lines = List.of(system.split("\n"));
    assertTrue(lines.contains(CotPrompts.STEP_PREFIX + "3):"), system);
    assertTrue(lines.contains(CotPrompts.SELF_STATE_PREFIX
        + "{\"_hardship\":0.5,\"id\":\"citizen-1\",\"role\":\"citizen\"}"), system);
    assertTrue(lines.contains(CotPrompts.LOCAL_STATE_PREFIX
        + "{\"cop-0\":{\"position\":[1,1],\"role\":\"cop\"}}"), system);
    assertTrue(lines.stream().noneMatch(l -> l.startsWith("Action: ")),
        "no Action: line, not even from the previous plan: " + system);
    assertTrue(system.contains("> Action: none"), "the previous plan is quoted: " + system);
    assertTrue(system.startsWith(new EpsteinScenario().roleDescription(EpsteinScenario.CITIZEN)));
    assertEquals(new EpsteinScenario().stepPrompt(EpsteinScenario.CITIZEN), first.messages().get(1).text());

    assertEquals(List.of("change_state", "move_one_step"),
        result.actions().stream().map(WorldAction::tool).toList());
    assertEquals("citizen-1", result.actions().get(1).agentId());
    assertEquals("c4", result.actions().get(1).toolCallId());
    assertEquals("North", result.actions().get(1).arguments().get("direction").asText());
    assertEquals(List.of("calculator", "calculator"),
        toolRequests.stream().map(ToolExecutionRequest::name).toList(),
        "external tools of the last turn still run; world actions never do");
    assertEquals(2, result.toolOutcomes().size());
    assertEquals(2, result.toolCalls());
    assertEquals(2, result.llmCalls());
    assertEquals("Let me weigh the risk.\nGrievance is high: rebel and move away.", result.reasoning());
    assertEquals(new Plan(3, result.reasoning(), 1), result.plan());
    assertNull(result.forcedFinish());
  }

  @Test
  void aStepInTheTextFormatPassesParsedWorldActionsThrough() {
    llm.text("Thought: rebel.\nAction: change_state[{\"state\":\"active\"}]; "
        + "move_one_step({\"direction\":\"North\"})");

    AgentStepResult result = step(defaults().toBuilder().setActionFormat(ActionFormat.TEXT).build(),
        EpsteinScenario.CITIZEN_TOOLS);

    assertEquals(1, llm.requests.size());
    assertEquals(List.of(), llm.requests.get(0).tools());
    String system = llm.requests.get(0).messages().get(0).text();
    assertTrue(List.of(system.split("\n")).contains(CotPrompts.STEP_PREFIX + "3):"), system);
    assertEquals(List.of("change_state", "move_one_step"),
        result.actions().stream().map(WorldAction::tool).toList());
    assertEquals("active", result.actions().get(0).arguments().get("state").asText());
    assertEquals("North", result.actions().get(1).arguments().get("direction").asText());
    assertTrue(toolRequests.isEmpty());
    assertEquals("rebel.", result.reasoning());
  }

  @Test
  void aStepThatIsForcedReturnsNoActionAndSaysWhy() {
    llm.thoughtAndCalls("think", call("c1", "calculator", "{\"expression\":\"1\"}"))
        .text("I stay quiet.");

    AgentStepResult result = step(defaults().toBuilder().setMaxIterations(1).build(),
        List.of("change_state", "move_one_step", "calculator"));

    assertEquals(List.of("react-turn", "react-final"), llm.purposes());
    assertEquals("max iterations (1) reached", result.forcedFinish());
    assertEquals(List.of(), result.actions());
    assertEquals("think\nI stay quiet.", result.reasoning());
  }
}
