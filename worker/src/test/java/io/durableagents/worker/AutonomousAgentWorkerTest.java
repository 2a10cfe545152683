package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import io.durableagents.activities.spec.AgentSpecLoader;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.autonomous.AgentSpec;
import io.durableagents.workflows.autonomous.AutonomousAgentInput;
import io.durableagents.workflows.autonomous.AutonomousAgentResult;
import io.durableagents.workflows.autonomous.AutonomousAgentWorkflow;
import io.durableagents.workflows.autonomous.Guardrail;
import io.durableagents.workflows.autonomous.ReasoningPattern;
import io.durableagents.workflows.autonomous.SubAgentReport;
import io.durableagents.workflows.autonomous.TodoItem;
import io.durableagents.workflows.autonomous.TodoStatus;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.testing.TestWorkflowEnvironment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The AutonomousAgent workflow through the real plugin: the example specs with the offline rules
 * model, and scripted models for each tool operation, turn sequence and guardrail.
 */
class AutonomousAgentWorkerTest {
  static final Path EXAMPLES = Path.of("..", "examples");

  /** A ChatModel whose answer is a function of the request; records every request. */
  static final class FunctionModel implements ChatModel {
    final List<ChatRequest> requests = Collections.synchronizedList(new ArrayList<>());
    private final Function<ChatRequest, AiMessage> answer;
    private final long sleepMillis;

    FunctionModel(long sleepMillis, Function<ChatRequest, AiMessage> answer) {
      this.answer = answer;
      this.sleepMillis = sleepMillis;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
      requests.add(request);
      if (sleepMillis > 0) {
        try {
          Thread.sleep(sleepMillis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      AiMessage a = answer.apply(request);
      return ChatResponse.builder().aiMessage(a).modelName("function-1").tokenUsage(new TokenUsage(100, 20))
          .finishReason(a.hasToolExecutionRequests() ? FinishReason.TOOL_EXECUTION : FinishReason.STOP).build();
    }
  }

  private FunctionModel model;
  private TestWorkflowEnvironment env;

  private void start(FunctionModel m) {
    model = m;
    DurableAgentsPlugin.Builder plugin = DurableAgentsPlugin.newBuilder();
    if (m != null) {
      plugin.registerModel("scripted", m);
    }
    env = TestWorkers.start(plugin.build());
  }

  @AfterEach
  void tearDown() {
    if (env != null) {
      env.close();
    }
  }

  private AutonomousAgentResult run(String id, AgentSpec spec, String prompt) {
    return stub(id).run(AutonomousAgentInput.root(spec, prompt));
  }

  private AutonomousAgentWorkflow stub(String id) {
    return env.getWorkflowClient().newWorkflowStub(AutonomousAgentWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
  }

  static ToolExecutionRequest call(String id, String tool, String args) {
    return ToolExecutionRequest.builder().id(id).name(tool).arguments(args).build();
  }

  static AiMessage calls(ToolExecutionRequest... calls) {
    return AiMessage.from("working", List.of(calls));
  }

  static ChatMessage last(ChatRequest r) {
    return r.messages().get(r.messages().size() - 1);
  }

  static String lastUser(ChatRequest r) {
    for (int i = r.messages().size() - 1; i >= 0; i--) {
      if (r.messages().get(i) instanceof UserMessage u) {
        return u.singleText();
      }
    }
    return "";
  }

  static List<String> toolResults(ChatRequest r) {
    List<String> out = new ArrayList<>();
    for (ChatMessage m : r.messages()) {
      if (m instanceof ToolExecutionResultMessage t) {
        out.add(t.toolName() + " => " + t.text());
      }
    }
    return out;
  }

  private static AgentSpec spec(ReasoningPattern pattern, AgentSpec.Todo todo, AgentSpec.Spawn spawn,
      AgentSpec.Guardrails guardrails) {
    return new AgentSpec("t", null, "You test.", "scripted", null, new AgentSpec.Think(false, 3), todo, spawn,
        List.of("calculator"), new AgentSpec.Reasoning(pattern, false, 0, null, null), guardrails);
  }

  // ---------------------------------------------------------------- offline examples

  @Test
  void todoDrivenExampleRunsOfflineAndTheQueryShowsTheList() {
    start(null);
    AutonomousAgentResult r = run("auto-todo", AgentSpecLoader.load(EXAMPLES.resolve("todo-calculator.yaml")),
        "What is 17 * 23 and 120 / 4?");
    assertEquals("todo_driven", r.pattern());
    assertEquals("completed", r.status(), r.toString());
    assertNull(r.endedBy());
    assertEquals(3, r.todos().size());
    assertTrue(r.todos().stream().allMatch(t -> t.status() == TodoStatus.COMPLETED), r.todos().toString());
    assertEquals(List.of("t1", "t2"), r.todos().get(2).dependsOn());
    assertTrue(r.answer().contains("391") && r.answer().contains("30"), r.answer());
    assertEquals(1, r.thoughts().size());
    assertEquals(2, r.toolCalls(), "two calculator activities");
    List<TodoItem> queried = env.getWorkflowClient()
        .newWorkflowStub(AutonomousAgentWorkflow.class, "auto-todo").todos();
    assertEquals(r.todos(), queried);
  }

  @Test
  void planExecuteExampleFinalizesThenExecutes() {
    start(null);
    AutonomousAgentResult r = run("auto-plan", AgentSpecLoader.load(EXAMPLES.resolve("plan-execute.yaml")),
        "What is 6 * 7 and 2 ^ 10?");
    assertEquals("plan_execute", r.pattern());
    assertEquals("completed", r.status());
    assertTrue(r.answer().contains("42") && r.answer().contains("1024"), r.answer());
    assertTrue(r.todos().stream().allMatch(t -> t.status().terminal()));
  }

  @Test
  void researchLeadSpawnsSubAgentsAwaitsThemAndIsJudged() {
    start(null);
    AutonomousAgentResult r = run("auto-lead", AgentSpecLoader.load(EXAMPLES.resolve("research-lead.yaml")),
        "What is 17 * 23, 120 / 4 and 2 ^ 10?");
    assertEquals("reflexion", r.pattern());
    assertEquals(3, r.subAgents().size());
    for (SubAgentReport s : r.subAgents()) {
      assertEquals("completed", s.status(), s.toString());
      assertTrue(s.usage().total() > 0);
    }
    assertTrue(r.answer().contains("391") && r.answer().contains("1024"), r.answer());
    assertEquals(1, r.reflectionRounds());
    assertEquals(1, r.verdicts().size());
    assertTrue(r.verdicts().get(0).allPassed());
    assertEquals(List.of("correctness", "completeness"),
        r.verdicts().get(0).criteriaResults().stream().map(c -> c.criterion()).toList());
    long children = r.subAgents().stream().mapToLong(s -> s.totalUsage().total()).sum();
    assertEquals(r.usage().total() + children, r.totalUsage().total(), "rolled up");
    assertEquals(r.subAgents().get(0).answer(),
        env.getWorkflowClient().newUntypedWorkflowStub("auto-lead/task-1").getResult(AutonomousAgentResult.class)
            .answer(), "a sub-agent is a child workflow with a known id");
  }

  // ---------------------------------------------------------------- scripted tool operations

  @Test
  void everyTodoOperationAndThinkThroughTheModel() {
    start(new FunctionModel(0, r -> {
      int n = toolResults(r).size();
      switch (n) {
        case 0:
          return calls(call("c1", "think", "{\"thought\":\"plan\"}"),
              call("c2", "add_todo", "{\"description\":\"A\",\"priority\":\"high\"}"),
              call("c3", "batch_add_todos", "{\"items\":[{\"description\":\"B\"},{\"description\":\"C\",\"depends_on\":[\"0\",\"t1\"]}]}"));
        case 3:
          return calls(call("c4", "batch_add_todos", "{\"items\":[{\"description\":\"X\",\"depends_on\":[\"1\"]},{\"description\":\"Y\",\"depends_on\":[\"0\"]}]}"),
              call("c5", "update_todo", "{\"id\":\"t1\",\"status\":\"in_progress\",\"notes\":\"started\"}"),
              call("c6", "get_next_todo", "{}"),
              call("c7", "remove_todo", "{\"id\":\"t2\"}"),
              call("c8", "list_todos", "{\"status_filter\":\"in_progress\"}"));
        default:
          return calls(call("c9", "finish_task", "{\"summary\":\"all done\",\"status\":\"blocked\"}"));
      }
    }));
    AutonomousAgentResult r = run("auto-ops", spec(ReasoningPattern.REACT, new AgentSpec.Todo(30), null,
        AgentSpec.Guardrails.DEFAULTS), "Do it");
    List<String> results = toolResults(model.requests.get(2));
    assertTrue(results.get(0).startsWith("think => Thoughts (1):\n1. plan"), results.get(0));
    assertTrue(results.get(1).startsWith("add_todo => Added t1."), results.get(1));
    assertTrue(results.get(2).contains("[ ] t3 (medium) C <- t2, t1"), results.get(2));
    assertTrue(results.get(3).contains("error: rejected: the dependencies make a cycle"), results.get(3));
    assertTrue(results.get(4).contains("[>] t1 (high) A -- started"), results.get(4));
    assertTrue(results.get(5).contains("Next: [ ] t2 (medium) B"), results.get(5));
    assertTrue(results.get(6).startsWith("remove_todo => Removed t2."), results.get(6));
    assertTrue(results.get(7).contains("Todo list (1 in_progress of 2)"), results.get(7));
    assertEquals("all done", r.answer());
    assertEquals("blocked", r.status());
    assertEquals(List.of("t1"), r.todos().get(1).dependsOn(), "t2 was removed from t3's dependencies");
    assertEquals(3, r.iterations());
  }

  // ---------------------------------------------------------------- turn sequences

  @Test
  void todoDrivenContinuesUntilEveryItemIsTerminal() {
    start(new FunctionModel(0, r -> {
      String user = lastUser(r);
      boolean afterTool = last(r) instanceof ToolExecutionResultMessage;
      if (afterTool) {
        return AiMessage.from("turn over");
      }
      if (user.startsWith("Before starting")) {
        return calls(call("a", "batch_add_todos", "{\"items\":[{\"description\":\"A\"},{\"description\":\"B\"}]}"));
      }
      // a continuation: complete one more item
      long done = toolResults(r).stream().filter(t -> t.startsWith("update_todo")).count();
      return calls(call("u", "update_todo", "{\"id\":\"t" + (done + 1) + "\",\"status\":\"completed\"}"));
    }));
    AutonomousAgentResult r = run("auto-todo-seq", spec(ReasoningPattern.TODO_DRIVEN, new AgentSpec.Todo(30),
        null, AgentSpec.Guardrails.DEFAULTS), "Do two things");
    List<String> users = model.requests.stream().filter(q -> last(q) instanceof UserMessage)
        .map(AutonomousAgentWorkerTest::lastUser).map(u -> u.substring(0, 20)).toList();
    assertEquals(List.of("Before starting, cre", "Check your todo list", "Check your todo list"), users,
        r.toString());
    assertEquals("completed", r.status());
    assertNull(r.endedBy());
    assertEquals(6, r.iterations());
  }

  @Test
  void planExecuteRejectsAnEmptyPlanThenMovesToExecution() {
    start(new FunctionModel(0, r -> {
      List<String> results = toolResults(r);
      boolean afterTool = last(r) instanceof ToolExecutionResultMessage;
      String user = lastUser(r);
      if (user.startsWith("PHASE 2")) {
        return afterTool ? AiMessage.from("executed")
            : calls(call("u", "update_todo", "{\"id\":\"t1\",\"status\":\"completed\"}"));
      }
      if (results.isEmpty()) {
        return calls(call("f", "finalize_plan", "{}"));
      }
      if (results.size() == 1) {
        return calls(call("a", "add_todo", "{\"description\":\"only step\"}"));
      }
      return calls(call("f2", "finalize_plan", "{}"));
    }));
    AutonomousAgentResult r = run("auto-plan-seq", spec(ReasoningPattern.PLAN_EXECUTE, new AgentSpec.Todo(30),
        null, AgentSpec.Guardrails.DEFAULTS), "Plan it");
    assertTrue(toolResults(model.requests.get(1)).get(0).contains("error: the plan is empty"));
    assertTrue(lastUser(model.requests.get(0)).startsWith("PHASE 1 - PLANNING"));
    assertTrue(model.requests.stream().anyMatch(q -> lastUser(q).startsWith("PHASE 2 - EXECUTION")));
    assertEquals("executed", r.answer());
    assertEquals(TodoStatus.COMPLETED, r.todos().get(0).status());
  }

  @Test
  void reflexionRoundsOverDimensionsWithTheJudgeFeedbackAndVerdicts() {
    List<String> judged = Collections.synchronizedList(new ArrayList<>());
    start(new FunctionModel(0, r -> {
      String user = lastUser(r);
      if (user.startsWith("You are a strict judge.")) {
        judged.add(String.valueOf(r.parameters().temperature()));
        boolean second = judged.size() >= 2;
        return AiMessage.from("{\"results\":[{\"criterion\":\"correctness\",\"passed\":true,\"reason\":\"ok\"},"
            + "{\"criterion\":\"completeness\",\"passed\":" + second + ",\"reason\":\"misses B\"}]}");
      }
      return AiMessage.from("answer " + model.requests.size());
    }));
    AgentSpec spec = new AgentSpec("t", null, "r", "scripted", null, null, null, null, List.of(),
        new AgentSpec.Reasoning(ReasoningPattern.REFLEXION, false, 3, null, List.of("correctness", "completeness")),
        AgentSpec.Guardrails.DEFAULTS);
    AutonomousAgentResult r = run("auto-reflexion", spec, "Explain");
    List<String> prompts = model.requests.stream().map(AutonomousAgentWorkerTest::lastUser)
        .filter(u -> u.startsWith("REFLECTION")).toList();
    assertEquals(3, prompts.size());
    assertTrue(prompts.get(0).startsWith("REFLECTION (1/3) -- CORRECTNESS: "));
    assertTrue(prompts.get(1).startsWith("REFLECTION (2/3) -- COMPLETENESS: ")
        && prompts.get(1).contains("- completeness: misses B"), prompts.get(1));
    assertTrue(prompts.get(2).startsWith("REFLECTION (3/3) -- CLARITY [VERIFIED]: "), prompts.get(2));
    assertEquals(List.of(1, 2, 3), r.verdicts().stream().map(v -> v.round()).toList());
    assertFalse(r.verdicts().get(0).allPassed());
    assertTrue(r.verdicts().get(1).allPassed());
    assertEquals(List.of("0.0", "0.0", "0.0"), judged, "the judge runs at temperature 0");
    assertEquals(3, r.reflectionRounds());
  }

  @Test
  void theJudgeIsDisabledAfterTwoConsecutiveFailures() {
    start(new FunctionModel(0, r -> lastUser(r).startsWith("You are a strict judge.")
        ? AiMessage.from("I think it is fine") : AiMessage.from("answer")));
    AgentSpec spec = new AgentSpec("t", null, "r", "scripted", null, null, null, null, List.of(),
        new AgentSpec.Reasoning(ReasoningPattern.REFLEXION, false, 3, null, List.of("correctness")),
        AgentSpec.Guardrails.DEFAULTS);
    AutonomousAgentResult r = run("auto-judge-off", spec, "Explain");
    long judgeCalls = model.requests.stream().filter(q -> lastUser(q).startsWith("You are a strict judge.")).count();
    assertEquals(2, judgeCalls, "two failures, then no judge for round 3");
    assertEquals(List.of(), r.verdicts());
    assertEquals(3, r.reflectionRounds());
  }

  // ---------------------------------------------------------------- guardrails

  @Test
  void maxIterationsEndsTheRunWithAForcedAnswer() {
    start(new FunctionModel(0, r -> r.toolSpecifications() == null || r.toolSpecifications().isEmpty()
        ? AiMessage.from("what I have") : calls(call("t", "think", "{\"thought\":\"again " + r.messages().size() + "\"}"))));
    AutonomousAgentResult r = run("auto-iter", spec(ReasoningPattern.REACT, null, null,
        new AgentSpec.Guardrails(4, null, null)), "Loop");
    assertEquals(Guardrail.MAX_ITERATIONS, r.endedBy());
    assertEquals("stopped", r.status());
    assertEquals("what I have", r.answer());
    assertEquals(4, r.iterations());
    assertEquals(5, r.llmCalls(), "4 turns and the forced answer");
    assertEquals(3, r.thoughts().size(), "the ring buffer holds max_thoughts");
  }

  @Test
  void theTokenBudgetEndsTheRun() {
    start(new FunctionModel(0, r -> calls(call("t", "think", "{\"thought\":\"more " + r.messages().size() + "\"}"))));
    AutonomousAgentResult r = run("auto-budget", spec(ReasoningPattern.REACT, null, null,
        new AgentSpec.Guardrails(50, 300L, null)), "Spend");
    assertEquals(Guardrail.TOKEN_BUDGET, r.endedBy());
    assertTrue(r.totalUsage().total() <= 300, r.totalUsage().toString());
    assertEquals(2, r.llmCalls(), "120 tokens a call: a third would not fit");
  }

  @Test
  void theTimeoutIsAWorkflowTimerThatEndsTheRunCleanly() {
    start(new FunctionModel(1500, r -> calls(call("t", "think", "{\"thought\":\"slow " + r.messages().size() + "\"}"))));
    AutonomousAgentResult r = run("auto-timeout", spec(ReasoningPattern.REACT, null, null,
        new AgentSpec.Guardrails(50, null, 2)), "Take your time");
    assertEquals(Guardrail.TIMEOUT, r.endedBy());
    assertEquals("stopped", r.status());
    assertTrue(r.thoughts().size() >= 1, "what was done so far is kept");
  }

  // ---------------------------------------------------------------- spawn

  @Test
  void maxDepthHoldsAcrossNestedSpawns() {
    start(null);
    AgentSpec leaf = new AgentSpec("leaf", null, "r", "rules", null, null, null, null, List.of("calculator"),
        null, null);
    AgentSpec level2 = nester("level2", leaf, 9);
    AgentSpec level1 = nester("level1", level2, 9);
    AgentSpec root = nester("root", level1, 2);
    AutonomousAgentResult r = run("auto-depth", root, "What is 2 + 3?");
    SubAgentReport first = r.subAgents().get(0);
    SubAgentReport second = first.subAgents().get(0);
    assertEquals(List.of(), second.subAgents(), "depth 2 may not spawn when the root's max_depth is 2");
    assertTrue(second.answer().contains("max_depth (2) reached"), second.answer());
    assertTrue(r.answer().contains("max_depth (2) reached"), r.answer());
  }

  private static AgentSpec nester(String name, AgentSpec child, int maxDepth) {
    return new AgentSpec(name, null, "r", "rules", null, null, null,
        new AgentSpec.Spawn(2, maxDepth, 60, List.of(new AgentSpec.SubAgent("helper", "helps", child))),
        List.of(), null, null);
  }

  @Test
  void spawnPollAwaitAnyCancelAndMaxConcurrent() {
    start(new FunctionModel(0, r -> {
      String user = lastUser(r);
      if (user.startsWith("child")) {
        // both still running at the third spawn; two still running when the parent cancels it
        sleep(user.equals("child two") ? 3000 : 1000);
        return AiMessage.from("child answer to " + user);
      }
      int n = toolResults(r).size();
      switch (n) {
        case 0:
          return calls(call("s1", "spawn_agent", "{\"agent_name\":\"helper\",\"prompt\":\"child one\"}"),
              call("s2", "spawn_agent", "{\"agent_name\":\"helper\",\"prompt\":\"child two\"}"),
              call("s3", "spawn_agent", "{\"agent_name\":\"helper\",\"prompt\":\"child three\"}"),
              call("s4", "spawn_agent", "{\"agent_name\":\"nobody\",\"prompt\":\"x\"}"));
        case 4:
          return calls(call("p", "poll_tasks", "{}"), call("c", "cancel_task", "{\"task_id\":\"task-2\"}"));
        case 6:
          return calls(call("a", "await_any", "{\"task_ids\":[\"task-1\"]}"));
        case 7:
          return calls(call("w", "await_tasks", "{\"task_ids\":[\"task-1\",\"task-2\"]}"));
        default:
          return AiMessage.from("done");
      }
    }));
    AgentSpec child = new AgentSpec("helper", null, "r", "scripted", null, null, null, null, List.of(), null, null);
    AgentSpec root = new AgentSpec("root", null, "r", "scripted", null, null, null,
        new AgentSpec.Spawn(2, 3, 60, List.of(new AgentSpec.SubAgent("helper", "helps", child))),
        List.of(), null, null);
    AutonomousAgentResult r = run("auto-spawn", root, "Delegate");
    List<String> results = toolResults(model.requests.stream()
        .filter(q -> lastUser(q).equals("Delegate")).reduce((a, b) -> b).orElseThrow());
    assertTrue(results.get(0).startsWith("spawn_agent => Spawned task-1"), results.get(0));
    assertTrue(results.get(2).contains("error: max_concurrent (2)"), results.get(2));
    assertTrue(results.get(3).contains("error: no sub-agent 'nobody'"), results.get(3));
    assertTrue(results.get(4).startsWith("poll_tasks => Tasks (2):"), results.get(4));
    assertTrue(results.get(5).contains("task-2 cancelled"), results.get(5));
    assertTrue(results.get(6).contains("task-1 (helper) completed: child answer to child one"), results.get(6));
    assertTrue(results.get(7).contains("task-2 (helper) cancelled"), results.get(7));
    assertEquals(List.of("completed", "cancelled"), r.subAgents().stream().map(SubAgentReport::status).toList());
    assertEquals("done", r.answer());
  }

  @Test
  void aSubAgentPastItsTimeoutEndsAsTimeoutWithItsTokensAndTheBudgetIsPassedDown() {
    start(new FunctionModel(0, r -> {
      String user = lastUser(r);
      if (user.equals("slow child")) {
        sleep(1500);
        return calls(call("t", "think", "{\"thought\":\"still " + r.messages().size() + "\"}"));
      }
      int n = toolResults(r).size();
      return n == 0 ? calls(call("s", "spawn_agent", "{\"agent_name\":\"helper\",\"prompt\":\"slow child\"}"))
          : n == 1 ? calls(call("w", "await_tasks", "{\"task_ids\":[\"task-1\"]}"))
          : AiMessage.from("gave up on it");
    }));
    AgentSpec child = new AgentSpec("helper", null, "r", "scripted", null, new AgentSpec.Think(false, 50), null,
        null, List.of(), null, null);
    AgentSpec root = new AgentSpec("root", null, "r", "scripted", null, null, null,
        new AgentSpec.Spawn(2, 3, 2, List.of(new AgentSpec.SubAgent("helper", "helps", child))),
        List.of(), null, new AgentSpec.Guardrails(10, 100_000L, null));
    AutonomousAgentResult r = run("auto-child-timeout", root, "Delegate");
    SubAgentReport sub = r.subAgents().get(0);
    assertEquals("timeout", sub.status(), sub.toString());
    assertTrue(sub.usage().total() > 0, "a timed-out sub-agent still reports what it used");
    assertEquals(r.usage().plus(sub.totalUsage()), r.totalUsage());
    AutonomousAgentInput childInput = DefaultDataConverter.newDefaultInstance().fromPayload(
        env.getWorkflowClient().fetchHistory("auto-child-timeout/task-1").getEvents().get(0)
            .getWorkflowExecutionStartedEventAttributes().getInput().getPayloads(0),
        AutonomousAgentInput.class, AutonomousAgentInput.class);
    assertEquals(1, childInput.depth());
    assertEquals(3, childInput.maxDepth());
    assertEquals(2, childInput.timeoutSeconds());
    assertEquals(100_000L - 120, childInput.tokenBudget(), "what was left at the spawn: one call of 120 tokens");
    assertEquals("gave up on it", r.answer());
  }

  @Test
  void aFailedSubAgentsCallsCountInItsParentsTotal() {
    start(new FunctionModel(0, r -> {
      if (lastUser(r).equals("failing child")) {
        if (toolResults(r).isEmpty()) {
          return calls(call("t", "think", "{\"thought\":\"first\"}"));
        }
        throw new dev.langchain4j.exception.InvalidRequestException("This model's maximum context length is 8 tokens.");
      }
      int n = toolResults(r).size();
      return n == 0 ? calls(call("s", "spawn_agent", "{\"agent_name\":\"helper\",\"prompt\":\"failing child\"}"))
          : n == 1 ? calls(call("w", "await_tasks", "{\"task_ids\":[\"task-1\"]}"))
          : AiMessage.from("it failed");
    }));
    AgentSpec child = new AgentSpec("helper", null, "r", "scripted", null, new AgentSpec.Think(false, 50), null,
        null, List.of(), null, null);
    AgentSpec root = new AgentSpec("root", null, "r", "scripted", null, null, null,
        new AgentSpec.Spawn(2, 3, 30, List.of(new AgentSpec.SubAgent("helper", "helps", child))),
        List.of(), null, new AgentSpec.Guardrails(10, 100_000L, null));
    AutonomousAgentResult r = run("auto-child-failed", root, "Delegate");
    SubAgentReport sub = r.subAgents().get(0);
    assertEquals("failed", sub.status(), sub.toString());
    assertEquals(new io.durableagents.workflows.llm.TokenUsage(100, 20), sub.usage(),
        "its one completed call was paid for: " + sub);
    assertEquals(r.usage().plus(sub.totalUsage()), r.totalUsage());
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
