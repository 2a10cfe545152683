package io.durableagents.activities.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.response.ChatResponse;
import io.durableagents.activities.tools.CalculatorTool;
import io.durableagents.activities.tools.FileReaderTool;
import io.durableagents.api.Observation;
import io.durableagents.api.SeededRandom;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinActions;
import io.durableagents.scenarios.epstein.EpsteinAgent;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import io.durableagents.scenarios.epstein.EpsteinWorld;
import io.durableagents.scenarios.grid.GridPosition;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.agent.rewoo.ReWooPrompts;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RulesChatModelTest {
  private final RulesChatModel model = Builtins.rulesModel();
  private final List<ToolSpecification> tools = ToolSpecifications.toolSpecificationsFrom(new EpsteinActions());

  private static final EpsteinParameters P = new EpsteinParameters(10, 10, 2, 1, 5, 0.5, 0.1, 2.3, 4);

  private String reasoningPrompt(EpsteinWorld world, String agentId) {
    Observation o = world.observe(agentId, 3);
    return CotPrompts.reasoningSystem(new EpsteinScenario().roleDescription(world.roleOf(agentId)), o, null,
        world.toolsOf(world.roleOf(agentId)));
  }

  private ChatResponse reason(String prompt) {
    return model.chat(ChatRequest.builder()
        .messages(SystemMessage.from(prompt), UserMessage.from("Decide."))
        .toolSpecifications(tools).toolChoice(ToolChoice.NONE).build());
  }

  private ChatResponse act(String plan, List<ToolSpecification> offered) {
    return model.chat(ChatRequest.builder()
        .messages(SystemMessage.from(CotPrompts.executionSystem()), UserMessage.from(CotPrompts.executionUser(plan)))
        .toolSpecifications(offered).toolChoice(ToolChoice.REQUIRED).build());
  }

  @Test
  void aCitizenWithHighGrievanceAndLowRiskTurnsActiveAndSaysItIsNotAnLlm() {
    // G = 0.9 x 0.5 = 0.45; one cop, no other active: P = 1 - e^-2.3 = 0.9; N = 0.05 x 0.9 = 0.045
    EpsteinWorld world = EpsteinWorld.restore(P, List.of(
        new EpsteinAgent("citizen-0", "citizen", new GridPosition(0, 0), "quiet", 0.9, 0.05, 0),
        new EpsteinAgent("citizen-1", "citizen", new GridPosition(3, 3), "quiet", 0.1, 0.9, 0),
        new EpsteinAgent("cop-0", "cop", new GridPosition(5, 5), "cop", 0, 0, 0)));
    assertTrue(world.wouldBeActive(world.agent("citizen-0")));
    ChatResponse r = reason(reasoningPrompt(world, "citizen-0"));
    String text = r.aiMessage().text();
    assertTrue(text.startsWith(RulesChatModel.DISCLAIMER), text);
    assertTrue(text.contains("Thought 1: grievance 0.450"), text);
    assertTrue(text.contains("Action: change_state({\"state\":\"active\"}); move_one_step({\"direction\":"), text);
    assertFalse(r.aiMessage().hasToolExecutionRequests());
    assertEquals("rules", r.metadata().modelName());
    assertTrue(r.tokenUsage().inputTokenCount() > 0);

    // the citizen with low grievance and high risk aversion stays quiet: no change_state
    String quiet = reason(reasoningPrompt(world, "citizen-1")).aiMessage().text();
    assertFalse(quiet.contains("change_state"), quiet);
    assertTrue(quiet.contains("stay quiet"), quiet);
  }

  @Test
  void aCopArrestsAnActiveCitizenInSight() {
    EpsteinWorld world = EpsteinWorld.restore(P, List.of(
        new EpsteinAgent("citizen-0", "citizen", new GridPosition(1, 1), "active", 0.9, 0.05, 0),
        new EpsteinAgent("citizen-1", "citizen", new GridPosition(3, 3), "quiet", 0.1, 0.9, 0),
        new EpsteinAgent("cop-0", "cop", new GridPosition(0, 0), "cop", 0, 0, 0)));
    String text = reason(reasoningPrompt(world, "cop-0")).aiMessage().text();
    assertTrue(text.contains("arrest_citizen({\"citizen_id\":\"citizen-0\"})"), text);
  }

  @Test
  void theSameRequestGetsTheSameAnswer() {
    EpsteinWorld world = EpsteinWorld.create(EpsteinParameters.DEFAULTS, new SeededRandom(9));
    String prompt = reasoningPrompt(world, "citizen-4");
    assertEquals(reason(prompt).aiMessage().text(), reason(prompt).aiMessage().text());
  }

  @Test
  void theExecutionPassTurnsTheActionLineIntoToolCallsOfOfferedToolsOnly() {
    String plan = RulesChatModel.DISCLAIMER + "\nThought 1: x\nAction: change_state({\"state\":\"active\"}); "
        + "move_one_step({\"direction\":\"North\"})";
    ChatResponse all = act(plan, tools);
    List<ToolExecutionRequest> calls = all.aiMessage().toolExecutionRequests();
    assertEquals(List.of("change_state", "move_one_step"),
        calls.stream().map(ToolExecutionRequest::name).collect(Collectors.toList()));
    assertEquals("{\"direction\":\"North\"}", calls.get(1).arguments());

    List<ToolSpecification> onlyMove = tools.stream().filter(t -> t.name().equals("move_one_step")).toList();
    assertEquals(List.of("move_one_step"), act(plan, onlyMove).aiMessage().toolExecutionRequests()
        .stream().map(ToolExecutionRequest::name).toList());
  }

  @Test
  void aTaskItHasNoRuleForGetsAPlainAnswerNotAnError() {
    ChatResponse r = model.chat(ChatRequest.builder().messages(UserMessage.from("Write a poem.")).build());
    assertTrue(r.aiMessage().text().contains("No rule of mine covers this task"), r.aiMessage().text());
  }

  private final List<ToolSpecification> builtin = ToolSpecifications.toolSpecificationsFrom(new CalculatorTool());

  @Test
  void onATaskItCallsTheCalculatorThenAnswersWithItsResult() {
    ChatResponse call = model.chat(ChatRequest.builder().messages(UserMessage.from("What is 17 * (23 + 4)?"))
        .toolSpecifications(builtin).toolChoice(ToolChoice.AUTO).build());
    ToolExecutionRequest r = call.aiMessage().toolExecutionRequests().get(0);
    assertEquals("calculator", r.name());
    assertEquals("{\"expression\":\"17 * (23 + 4)\"}", r.arguments());

    ChatResponse answer = model.chat(ChatRequest.builder().messages(UserMessage.from("What is 17 * (23 + 4)?"),
            AiMessage.from(List.of(r)), ToolExecutionResultMessage.from(r, "459"))
        .toolSpecifications(builtin).toolChoice(ToolChoice.AUTO).build());
    assertFalse(answer.aiMessage().hasToolExecutionRequests());
    assertTrue(answer.aiMessage().text().endsWith("Answer: 459"), answer.aiMessage().text());
  }

  @Test
  void asAReWooPlannerOnATaskItPlansTheToolsAsJson() {
    ChatResponse plan = model.chat(ChatRequest.builder()
        .messages(UserMessage.from("Read notes.txt and compute 2^10"))
        .toolSpecifications(java.util.stream.Stream.concat(
            ToolSpecifications.toolSpecificationsFrom(new FileReaderTool(java.nio.file.Path.of("."))).stream(),
            builtin.stream()).toList())
        .toolChoice(ToolChoice.NONE).responseFormat(ResponseFormat.JSON).build());
    assertEquals("[{\"id\":\"E1\",\"tool\":\"read_file\",\"args\":{\"path\":\"notes.txt\"}},"
        + "{\"id\":\"E2\",\"tool\":\"calculator\",\"args\":{\"expression\":\"2^10\"}}]",
        plan.aiMessage().text());
  }

  @Test
  void inASimulationWithoutAPlanItCallsItsDecisionsToolsDirectly() {
    EpsteinWorld world = EpsteinWorld.restore(P, List.of(
        new EpsteinAgent("citizen-0", "citizen", new GridPosition(1, 1), "active", 0.9, 0.05, 0),
        new EpsteinAgent("cop-0", "cop", new GridPosition(0, 0), "cop", 0, 0, 0)));
    Observation o = world.observe("cop-0", 3);
    String prompt = "You are a cop.\n" + CotPrompts.STEP_PREFIX + "3):\n" + CotPrompts.SELF_STATE_PREFIX
        + io.durableagents.api.Json.write(o.selfState()) + "\n" + CotPrompts.LOCAL_STATE_PREFIX
        + io.durableagents.api.Json.write(o.localState());
    ChatResponse r = model.chat(ChatRequest.builder().messages(SystemMessage.from(prompt), UserMessage.from("Act."))
        .toolSpecifications(tools).toolChoice(ToolChoice.AUTO).build());
    List<ToolExecutionRequest> calls = r.aiMessage().toolExecutionRequests();
    assertEquals("arrest_citizen", calls.get(0).name());
    assertEquals("{\"citizen_id\":\"citizen-0\"}", calls.get(0).arguments());
    assertEquals("move_one_step", calls.get(1).name());

    // As a ReWOO planner for 3 steps: the arrest, then one move per step.
    ChatResponse plan = model.chat(ChatRequest.builder()
        .messages(SystemMessage.from(prompt + "\n" + ReWooPrompts.PLAN_LENGTH_PREFIX + "3 steps"),
            UserMessage.from("Plan."))
        .toolSpecifications(tools).toolChoice(ToolChoice.NONE).responseFormat(ResponseFormat.JSON).build());
    com.fasterxml.jackson.databind.JsonNode steps = io.durableagents.api.Json.tryParse(plan.aiMessage().text());
    assertEquals(3, steps.size(), plan.aiMessage().text());
    assertEquals("E1", steps.get(0).get("id").asText());
    assertEquals("arrest_citizen", steps.get(0).get("tool").asText());
    assertEquals("move_one_step", steps.get(1).get("tool").asText());
    assertEquals("move_one_step", steps.get(2).get("tool").asText());
  }

  @Test
  void answersAMemoryConsolidationWithARuleBasedSummaryThatKeepsEveryEntry() {
    List<io.durableagents.workflows.memory.MemoryEntry> entries = List.of(
        new io.durableagents.workflows.memory.MemoryEntry(1, "you did: move_one_step North: moved to [1, 2]"),
        new io.durableagents.workflows.memory.MemoryEntry(2, "you did: arrest_citizen: arrested citizen-1, jailed for 3 steps"));
    ChatRequest first = ChatRequest.builder().messages(
        SystemMessage.from(io.durableagents.workflows.memory.MemoryPrompts.consolidationSystem(1500)),
        UserMessage.from(io.durableagents.workflows.memory.MemoryPrompts.consolidationUser(null, entries))).build();
    String summary = Builtins.rulesModel().chat(first).aiMessage().text();
    assertTrue(summary.startsWith(RulesChatModel.RULE_SUMMARY_PREFIX), summary);
    assertTrue(summary.contains("step 1: you did: move_one_step North") && summary.contains("arrested citizen-1"), summary);

    ChatRequest second = ChatRequest.builder().messages(
        SystemMessage.from(io.durableagents.workflows.memory.MemoryPrompts.consolidationSystem(1500)),
        UserMessage.from(io.durableagents.workflows.memory.MemoryPrompts.consolidationUser(summary,
            List.of(new io.durableagents.workflows.memory.MemoryEntry(3, "you took no action"))))).build();
    String next = Builtins.rulesModel().chat(second).aiMessage().text();
    assertTrue(next.startsWith(RulesChatModel.RULE_SUMMARY_PREFIX), next);
    assertEquals(1, next.split(java.util.regex.Pattern.quote(RulesChatModel.RULE_SUMMARY_PREFIX), -1).length - 1,
        "the prefix once: " + next);
    assertTrue(next.contains("arrested citizen-1") && next.contains("step 3: you took no action"), next);
  }

  @Test
  void gradesMemoriesWithOneImportanceLinePerEntryThatTheWorkflowParses() {
    List<io.durableagents.workflows.memory.MemoryEntry> entries = List.of(
        new io.durableagents.workflows.memory.MemoryEntry(4, "you did: move_one_step North: moved to [1, 2]"),
        new io.durableagents.workflows.memory.MemoryEntry(4, "you did: arrest_citizen: arrested citizen-1, jailed for 3 steps"),
        new io.durableagents.workflows.memory.MemoryEntry(4, "you did: change_state: you are now active"),
        new io.durableagents.workflows.memory.MemoryEntry(4, "you did: move_one_step East: blocked, cell [2, 2] is taken by cop-0"),
        new io.durableagents.workflows.memory.MemoryEntry(4, "buyer-2 says: I offer 40"));
    ChatRequest request = ChatRequest.builder().messages(
        SystemMessage.from(io.durableagents.workflows.memory.MemoryPrompts.importanceSystem()),
        UserMessage.from(io.durableagents.workflows.memory.MemoryPrompts.importanceUser(entries))).build();
    String answer = Builtins.rulesModel().chat(request).aiMessage().text();
    assertTrue(answer.startsWith(RulesChatModel.DISCLAIMER), answer);
    assertEquals(List.of(1, 5, 4, 2, 5), io.durableagents.workflows.memory.MemoryPrompts.parseImportance(answer, 5));
    // what real models write parses too; a missing or wild grade falls back or is clamped
    assertEquals(List.of(4, 1, 5, 3), io.durableagents.workflows.memory.MemoryPrompts.parseImportance(
        "Importance: 4\nimportance = 0\n**Importance:** 9", 4));
  }
}
