package io.durableagents.workflows.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.agent.rewoo.ReWooPrompts;
import io.durableagents.workflows.agent.rewoo.ReWooStepResult;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.simulation.SimulationWorkflowImpl;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.durableagents.workflows.task.AgentTaskWorkflowImpl;
import io.durableagents.workflows.tools.ToolActivities;
import io.durableagents.workflows.tools.ToolExecutionRequest;
import io.durableagents.workflows.tools.ToolExecutionResult;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ReWOO's calls and results with a scripted model and a fake tool activity: the exact call sequence,
 * parallel levels, skips and re-plans, plan corrections, the typed failure, and the plan TTL in
 * simulations.
 */
class ReWooReasoningTest {
  private TestWorkflowEnvironment env;
  private ScriptedLlm llm;
  private final List<ToolExecutionRequest> toolRequests = Collections.synchronizedList(new ArrayList<>());
  /** What the fake tool answers; by default {@code 42}. */
  private volatile Function<ToolExecutionRequest, ToolExecutionResult> tool =
      r -> ok(r, "42");

  @BeforeEach
  void setUp() {
    env = TestWorkflowEnvironment.newInstance();
    llm = new ScriptedLlm();
    Worker agents = env.newWorker(TaskQueues.AGENTS);
    agents.registerWorkflowImplementationFactory(
        AgentStepWorkflow.class, () -> new AgentStepWorkflowImpl(Builtins.registry()));
    agents.registerWorkflowImplementationTypes(AgentTaskWorkflowImpl.class);
    agents.registerActivitiesImplementations((ToolActivities) request -> {
      toolRequests.add(request);
      return tool.apply(request);
    });
    env.newWorker(TaskQueues.LLM).registerActivitiesImplementations(llm);
    env.start();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private static ToolExecutionResult ok(ToolExecutionRequest r, String output) {
    return new ToolExecutionResult(r.toolCallId(), r.name(), output, false);
  }

  private static String step(String id, String tool, String args) {
    return "{\"id\":\"" + id + "\",\"tool\":\"" + tool + "\",\"args\":" + args + "}";
  }

  private static String plan(String... steps) {
    return "{\"plan\":[" + String.join(",", steps) + "]}";
  }

  private AgentTaskResult task(String task, AgentOptions options) {
    AgentTaskWorkflow wf = env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("task-1").build());
    return wf.run(new AgentTaskInput(task, null, options));
  }

  private static AgentOptions rewoo() {
    return AgentOptions.newBuilder().setStrategy(Strategy.REWOO).build();
  }

  private List<String> toolCallIds() {
    synchronized (toolRequests) {
      return toolRequests.stream().map(ToolExecutionRequest::toolCallId).toList();
    }
  }

  // ---------------------------------------------------------------- tasks

  @Test
  void aThreeStepTaskCostsTwoLlmCallsAndThreeToolCalls() {
    llm.plan(plan(
            step("E1", "calculator", "{\"expression\":\"17*23\"}"),
            step("E2", "read_file", "{\"path\":\"extra.txt\"}"),
            step("E3", "calculator", "{\"expression\":\"{{E1}} + {{E2}}\"}")))
        .text("17 * 23 + 9 = 400");
    tool = r -> {
      String in = r.arguments().path("expression").asText(r.arguments().path("path").asText());
      switch (in) {
        case "17*23": return ok(r, "391");
        case "extra.txt": return ok(r, "9");
        case "391 + 9": return ok(r, "400");
        default: return new ToolExecutionResult(r.toolCallId(), r.name(), "unexpected " + in, true);
      }
    };

    AgentTaskResult result = task("What is 17 * 23 plus the number in extra.txt?", rewoo());

    assertEquals(2, llm.requests.size());
    LlmRequest planner = llm.requests.get(0);
    assertEquals(ReWooPrompts.PLAN_PURPOSE, planner.purpose());
    assertEquals(ToolChoice.NONE, planner.toolChoice());
    assertEquals(LlmRequest.ResponseFormat.JSON, planner.responseFormat());
    assertEquals(AgentTaskInput.DEFAULT_TOOLS, planner.tools(), "the tools reach the planner natively");
    assertTrue(planner.messages().get(0).text().contains("{\"plan\": ["), "asks for the object form");
    LlmRequest solver = llm.requests.get(1);
    assertEquals(ReWooPrompts.SOLVE_PURPOSE, solver.purpose());
    assertEquals(List.of(), solver.tools());
    assertNull(solver.responseFormat());
    String solverInput = solver.messages().get(1).text();
    assertTrue(solverInput.contains("p1-E1 calculator: 391"), solverInput);
    assertTrue(solverInput.contains("p1-E3 calculator: 400"), solverInput);

    assertEquals(3, toolRequests.size());
    assertEquals(Set.of("p1-E1", "p1-E2"), Set.copyOf(toolCallIds().subList(0, 2)));
    assertEquals("p1-E3", toolCallIds().get(2));
    assertEquals("391 + 9", toolRequests.get(2).arguments().get("expression").asText());
    assertEquals("task-1/0/p1-E3", toolRequests.get(2).idempotencyKey());

    assertEquals("17 * 23 + 9 = 400", result.answer());
    assertEquals("rewoo", result.strategy());
    assertEquals(2, result.llmCalls());
    assertEquals(3, result.toolCalls());
    assertEquals(0, result.replans());
    assertEquals(List.of("p1-E1", "p1-E2", "p1-E3"),
        result.stepResults().stream().map(ReWooStepResult::stepId).toList());
    assertTrue(result.stepResults().stream().allMatch(ReWooStepResult::succeeded));
    assertEquals(3, result.plan().steps().size());
    assertEquals(45, result.usage().total(), "planner 30 + solver 15, from the script");
  }

  @Test
  void independentStepsOfALevelRunInParallel() {
    llm.plan(plan(
            step("E1", "calculator", "{\"expression\":\"1+1\"}"),
            step("E2", "calculator", "{\"expression\":\"2+2\"}"),
            step("E3", "calculator", "{\"expression\":\"{{E1}} * {{E2}}\"}")))
        .text("8");
    CountDownLatch bothRunning = new CountDownLatch(2);
    tool = r -> {
      String e = r.arguments().path("expression").asText();
      if (e.equals("1+1") || e.equals("2+2")) {
        bothRunning.countDown();
        try {
          // Only a call that overlaps the other one gets past this: no sleep, a meeting point.
          if (!bothRunning.await(20, TimeUnit.SECONDS)) {
            return new ToolExecutionResult(r.toolCallId(), r.name(), "ran alone", true);
          }
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
        }
        return ok(r, e.equals("1+1") ? "2" : "4");
      }
      return ok(r, "8");
    };

    AgentTaskResult result = task("2 * 4?", rewoo());

    assertTrue(result.stepResults().stream().allMatch(ReWooStepResult::succeeded), result.stepResults().toString());
    assertEquals("2 * 4", toolRequests.get(2).arguments().get("expression").asText());
    assertEquals(3, result.toolCalls());
  }

  @Test
  void aFailedStepSkipsItsDependantsAndTriggersOneReplan() {
    llm.plan(plan(
            step("E1", "calculator", "{\"expression\":\"boom\"}"),
            step("E2", "calculator", "{\"expression\":\"{{E1}} * 2\"}"),
            step("E3", "read_file", "{\"path\":\"notes.txt\"}")))
        .plan(plan(step("E1", "calculator", "{\"expression\":\"21 * 2\"}")))
        .text("42");
    tool = r -> "boom".equals(r.arguments().path("expression").asText())
        ? new ToolExecutionResult(r.toolCallId(), r.name(), "cannot evaluate 'boom'", true)
        : ok(r, "42");

    AgentTaskResult result = task("What is 21 * 2?", rewoo());

    assertEquals(List.of(ReWooPrompts.PLAN_PURPOSE, ReWooPrompts.PLAN_PURPOSE, ReWooPrompts.SOLVE_PURPOSE),
        llm.requests.stream().map(LlmRequest::purpose).toList());
    List<ChatTurn> replan = llm.requests.get(1).messages();
    assertEquals(ChatTurn.Role.ASSISTANT, replan.get(2).role(), "the failed plan is part of the conversation");
    String why = replan.get(3).text();
    assertTrue(why.contains("p1-E1 (calculator) failed: cannot evaluate 'boom'"), why);
    assertTrue(why.contains("p1-E2 calculator: skipped: E1 failed: cannot evaluate 'boom'"), why);
    assertTrue(why.contains("p1-E3 read_file: 42"), why);

    assertEquals(Set.of("p1-E1", "p1-E3", "p2-E1"), Set.copyOf(toolCallIds()), "E2 never ran; new ids for plan 2");
    assertEquals(3, toolRequests.size());
    assertEquals(1, result.replans());
    List<ReWooStepResult> steps = result.stepResults();
    assertEquals(List.of("p1-E1", "p1-E2", "p1-E3", "p2-E1"), steps.stream().map(ReWooStepResult::stepId).toList());
    assertEquals("cannot evaluate 'boom'", steps.get(0).error());
    assertFalse(steps.get(0).skipped());
    assertTrue(steps.get(1).skipped());
    assertEquals("skipped: E1 failed: cannot evaluate 'boom'", steps.get(1).error());
    assertTrue(steps.get(2).succeeded());
    assertEquals("42", steps.get(3).output());
    String solverInput = llm.requests.get(2).messages().get(1).text();
    assertTrue(solverInput.contains("p1-E1 calculator: failed: cannot evaluate 'boom'"), solverInput);
    assertTrue(solverInput.contains("p1-E2 calculator: skipped: E1 failed"), solverInput);
    assertTrue(solverInput.contains("p2-E1 calculator: 42"), solverInput);
    assertEquals(3, result.llmCalls());
  }

  @Test
  void noReplanWhenReplansAreOff() {
    llm.plan(plan(step("E1", "calculator", "{\"expression\":\"boom\"}"))).text("unknown");
    tool = r -> new ToolExecutionResult(r.toolCallId(), r.name(), "cannot evaluate 'boom'", true);
    AgentTaskResult result = task("?", rewoo().toBuilder().setReplanOnFailure(0).build());
    assertEquals(2, result.llmCalls());
    assertEquals(0, result.replans());
  }

  @Test
  void anInvalidPlanIsSentBackOnceAndTheCorrectedPlanRuns() {
    llm.plan(plan(step("E1", "teleport", "{\"to\":\"Mars\"}")))
        .plan(plan(step("E1", "calculator", "{\"expression\":\"6*7\"}")))
        .text("42");

    AgentTaskResult result = task("6 * 7?", rewoo());

    assertEquals(3, llm.requests.size());
    List<ChatTurn> retry = llm.requests.get(1).messages();
    assertEquals(ChatTurn.Role.ASSISTANT, retry.get(2).role());
    assertTrue(retry.get(2).text().contains("teleport"));
    assertTrue(retry.get(3).text().contains("unknown tool 'teleport'; available tools: calculator, read_file"),
        retry.get(3).text());
    assertEquals(LlmRequest.ResponseFormat.JSON, llm.requests.get(1).responseFormat());
    assertEquals(List.of("p1-E1"), toolCallIds());
    assertEquals("6*7", toolRequests.get(0).arguments().get("expression").asText());
    assertEquals("42", result.answer());
  }

  @Test
  void anInvalidPlanTwiceEndsTheRunWithATypedFailureListingEveryError() {
    String badTypes = plan(step("E1", "calculator", "{\"expression\":7}"), step("E2", "calculator",
        "{\"expression\":\"{{E3}}\"}"));
    llm.plan("I would use the calculator.")
        .plan(badTypes, new ToolCall("E1", "calculator", Json.tryParse("{\"expression\":7}"), null,
                "the arguments of calculator do not fit its schema: expression: expected a string, got number 7"),
            ToolCall.of("E2", "calculator", Json.tryParse("{\"expression\":\"{{E3}}\"}")));

    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, () -> task("7?", rewoo()));

    ApplicationFailure failure = assertInstanceOf(ApplicationFailure.class, e.getCause());
    assertEquals(StrategyFailureTypes.INVALID_PLAN, failure.getType());
    assertTrue(failure.isNonRetryable());
    String message = failure.getOriginalMessage();
    assertTrue(message.contains("expression: expected a string, got number 7"), message);
    assertTrue(message.contains("E2 references E3, which is not a step of the plan"), message);
    assertTrue(message.contains("the plan is not JSON"), message);
    assertEquals(2, llm.requests.size(), "never an endless retry");
    assertTrue(toolRequests.isEmpty(), "no tool runs for an invalid plan");
  }

  @Test
  void anEmptySolverAnswerIsAskedForOnceMoreThenReportedAsEmpty() {
    llm.plan(plan(step("E1", "calculator", "{\"expression\":\"6*7\"}"))).text("").text(" ");
    tool = r -> ok(r, "42");
    AgentTaskResult result = task("6*7?", rewoo());
    assertEquals(3, llm.requests.size(), "planner, solver, solver again");
    assertTrue(llm.requests.get(2).messages().get(llm.requests.get(2).messages().size() - 1).text()
        .contains("Your answer was empty"));
    assertEquals(AgentTaskResult.EMPTY, result.answerProblem());
  }

  @Test
  void aSolverThatCorrectsItselfGivesACompleteAnswer() {
    llm.plan(plan(step("E1", "calculator", "{\"expression\":\"6*7\"}"))).text("").text("42");
    tool = r -> ok(r, "42");
    AgentTaskResult result = task("6*7?", rewoo());
    assertEquals("42", result.answer());
    assertTrue(result.answered());
  }

  @Test
  void aCutPlanIsRejectedAsCutNotAsBadJsonAndTheModelIsToldToShortenIt() {
    llm.cutPlan("{\"plan\":[{\"id\":\"E1\",\"tool\":\"calcul").cutPlan("[{\"id\":\"E1\"");

    WorkflowFailedException e = assertThrows(WorkflowFailedException.class, () -> task("7?", rewoo()));

    ApplicationFailure failure = assertInstanceOf(ApplicationFailure.class, e.getCause());
    assertEquals(StrategyFailureTypes.INVALID_PLAN, failure.getType());
    String message = failure.getOriginalMessage();
    assertTrue(message.contains("the plan was cut at the output limit"), message);
    assertFalse(message.contains("not JSON"), message);
    assertTrue(llm.requests.get(1).messages().get(llm.requests.get(1).messages().size() - 1).text()
        .contains("write a shorter plan"), "the correction asks for a shorter plan");
  }

  // ---------------------------------------------------------------- simulations

  private AgentStepResult simStep(String role, Observation obs, Plan plan, AgentOptions options) {
    AgentStepWorkflow wf = env.getWorkflowClient().newWorkflowStub(AgentStepWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS)
            .setWorkflowId("sim/agent-x/step-" + obs.step()).build());
    List<String> tools = new ArrayList<>(EpsteinScenario.COP.equals(role)
        ? EpsteinScenario.COP_TOOLS : EpsteinScenario.CITIZEN_TOOLS);
    tools.add("read_file");
    return wf.step(new AgentStepInput("sim", EpsteinScenario.NAME, "agent-x", role, obs, plan, tools,
        EpsteinScenario.WORLD_ACTIONS, options));
  }

  private static Observation observation(int step, Map<String, Map<String, Object>> local) {
    Map<String, Object> self = new LinkedHashMap<>();
    self.put("id", "agent-x");
    self.put("position", List.of(1, 1));
    return new Observation(step, self, local);
  }

  private static AgentOptions ttl(int ttl) {
    return rewoo().toBuilder().setTtl(ttl).build();
  }

  @Test
  void aPlanWithTtl3RunsOneStepPerSimulationStepWithNoLlmCallOnTheLaterSteps() {
    llm.plan("[" + step("E1", "change_state", "{\"state\":\"active\"}") + ","
            + step("E2", "move_one_step", "{\"direction\":\"North\"}") + ","
            + step("E3", "move_one_step", "{\"direction\":\"East\"}") + ","
            + step("E4", "move_one_step", "{\"direction\":\"South\"}") + "]")
        .plan("[" + step("E1", "move_one_step", "{\"direction\":\"West\"}") + "]");
    List<String> actionIds = new ArrayList<>();

    AgentStepResult s1 = simStep(EpsteinScenario.CITIZEN, observation(1, Map.of()), null, ttl(3));
    assertEquals(1, s1.llmCalls());
    assertTrue(s1.planMade());
    assertFalse(s1.planStepReused());
    assertEquals("change_state", s1.actions().get(0).tool());
    assertEquals(1, s1.plan().step());
    assertEquals(3, s1.plan().ttl());
    assertEquals(1, s1.plan().nextStep());
    assertTrue(s1.plan().llmPlan().contains("\"E4\""));
    s1.actions().forEach(a -> actionIds.add(a.toolCallId()));

    LlmRequest planner = llm.requests.get(0);
    assertEquals(ReWooPrompts.PLAN_PURPOSE, planner.purpose());
    assertEquals(ToolChoice.NONE, planner.toolChoice());
    assertEquals(LlmRequest.ResponseFormat.JSON, planner.responseFormat());
    List<String> lines = List.of(planner.messages().get(0).text().split("\n"));
    assertTrue(lines.contains(CotPrompts.STEP_PREFIX + "1):"), lines.toString());
    assertTrue(lines.contains(CotPrompts.SELF_STATE_PREFIX + "{\"id\":\"agent-x\",\"position\":[1,1]}"));
    assertTrue(lines.contains(CotPrompts.LOCAL_STATE_PREFIX + "{}"));
    assertTrue(lines.contains(ReWooPrompts.PLAN_LENGTH_PREFIX + "3 steps"), "min(ttl 3, maxPlanSteps 8)");
    assertTrue(lines.stream().noneMatch(l -> l.startsWith(CotPrompts.ACTION_PREFIX)));

    AgentStepResult s2 = simStep(EpsteinScenario.CITIZEN, observation(2, Map.of()), s1.plan(), ttl(3));
    assertEquals(0, s2.llmCalls());
    assertEquals(1, llm.requests.size(), "no LLM call on a reused step");
    assertTrue(s2.planStepReused());
    assertFalse(s2.planMade());
    assertEquals("North", s2.actions().get(0).arguments().get("direction").asText());
    assertEquals("1-E2", s2.actions().get(0).toolCallId());
    s2.actions().forEach(a -> actionIds.add(a.toolCallId()));

    AgentStepResult s3 = simStep(EpsteinScenario.CITIZEN, observation(3, Map.of()), s2.plan(), ttl(3));
    assertEquals(0, s3.llmCalls());
    assertEquals("East", s3.actions().get(0).arguments().get("direction").asText());
    s3.actions().forEach(a -> actionIds.add(a.toolCallId()));

    // TTL over: E4 never runs, a new plan is made.
    AgentStepResult s4 = simStep(EpsteinScenario.CITIZEN, observation(4, Map.of()), s3.plan(), ttl(3));
    assertEquals(1, s4.llmCalls());
    assertTrue(s4.planMade());
    assertEquals("West", s4.actions().get(0).arguments().get("direction").asText());
    s4.actions().forEach(a -> actionIds.add(a.toolCallId()));

    assertEquals(List.of("1-E1", "1-E2", "1-E3", "4-E1"), actionIds, "each planned call exactly once");
    assertEquals(2, llm.requests.size());
  }

  @Test
  void anExternalToolRunsOnceWhenItsStepComesAndItsOutputFillsALaterWorldAction() {
    llm.plan("[" + step("E1", "read_file", "{\"path\":\"orders.txt\"}") + ","
        + step("E2", "arrest_citizen", "{\"citizen_id\":\"{{E1.target}}\"}") + "]");
    tool = r -> ok(r, "{\"target\":\"citizen-7\"}");
    Map<String, Map<String, Object>> sevenActive =
        Map.of("citizen-7", Map.of("role", "citizen", "state", "active"));

    AgentStepResult s1 = simStep(EpsteinScenario.COP, observation(1, sevenActive), null, ttl(2));
    assertEquals(List.of("1-E1"), toolCallIds());
    assertEquals(List.of(), s1.actions());
    assertEquals("{\"target\":\"citizen-7\"}", s1.toolOutcomes().get(0).output());

    AgentStepResult s2 = simStep(EpsteinScenario.COP, observation(2, sevenActive), s1.plan(), ttl(2));
    assertEquals(0, s2.llmCalls());
    assertEquals(0, s2.toolCalls());
    assertEquals(1, toolRequests.size(), "the planned tool ran exactly once");
    assertEquals("citizen-7", s2.actions().get(0).arguments().get("citizen_id").asText());
    assertEquals("1-E2", s2.actions().get(0).toolCallId());
  }

  @Test
  void aWorldActionsOutcomeReachesALaterStepFromTheNextObservation() {
    llm.plan("[" + step("E1", "move_one_step", "{\"direction\":\"North\"}") + ","
        + step("E2", "read_file", "{\"path\":\"log for {{E1}}\"}") + ","
        + step("E3", "read_file", "{\"path\":\"{{E1}}\"}") + "]");
    AgentStepResult s1 = simStep(EpsteinScenario.CITIZEN, observation(1, Map.of()), null, ttl(3));

    Observation seen = observation(2, Map.of());
    Map<String, Object> self = new LinkedHashMap<>(seen.selfState());
    self.put(SimulationWorkflowImpl.LAST_ACTION_RESULTS, List.of("move_one_step: moved to [1, 0]"));
    AgentStepResult s2 = simStep(EpsteinScenario.CITIZEN, new Observation(2, self, Map.of()), s1.plan(), ttl(3));
    assertEquals("log for move_one_step: moved to [1, 0]", toolRequests.get(0).arguments().get("path").asText());

    // Step 3's observation no longer shows it, but the plan kept it.
    AgentStepResult s3 = simStep(EpsteinScenario.CITIZEN, observation(3, Map.of()), s2.plan(), ttl(3));
    assertEquals("move_one_step: moved to [1, 0]", toolRequests.get(1).arguments().get("path").asText());
    assertEquals(0, s3.llmCalls());
  }

  @Test
  void anInvalidatedNextStepTriggersAReplanInsteadOfTheDoomedAction() {
    llm.plan("[" + step("E1", "move_one_step", "{\"direction\":\"North\"}") + ","
            + step("E2", "arrest_citizen", "{\"citizen_id\":\"citizen-7\"}") + "]")
        .plan("[" + step("E1", "move_one_step", "{\"direction\":\"East\"}") + "]");

    AgentStepResult s1 = simStep(EpsteinScenario.COP, observation(1,
        Map.of("citizen-7", Map.of("role", "citizen", "state", "active"))), null, ttl(2));
    assertEquals("1-E1", s1.actions().get(0).toolCallId());

    // citizen-7 walked out of sight: arresting it can no longer succeed.
    AgentStepResult s2 = simStep(EpsteinScenario.COP, observation(2, Map.of()), s1.plan(), ttl(2));

    assertEquals(1, s2.llmCalls());
    assertTrue(s2.planMade());
    assertFalse(s2.planStepReused());
    assertEquals(1, s2.replans());
    String why = llm.requests.get(1).messages().get(2).text();
    assertTrue(why.contains("E2 (arrest_citizen) can no longer run: arrest_citizen citizen-7: no longer within vision"),
        why);
    assertEquals(1, s2.actions().size());
    assertEquals("move_one_step", s2.actions().get(0).tool());
    assertEquals("2-E1", s2.actions().get(0).toolCallId());
    assertEquals(2, s2.plan().step());
  }

  @Test
  void withReplansOffAnInvalidatedStepIsSkippedAndReportedWithNoLlmCall() {
    llm.plan("[" + step("E1", "move_one_step", "{\"direction\":\"North\"}") + ","
        + step("E2", "arrest_citizen", "{\"citizen_id\":\"citizen-7\"}") + "]");
    AgentOptions noReplans = ttl(2).toBuilder().setReplanOnFailure(0).build();
    AgentStepResult s1 = simStep(EpsteinScenario.COP, observation(1,
        Map.of("citizen-7", Map.of("role", "citizen", "state", "active"))), null, noReplans);

    AgentStepResult s2 = simStep(EpsteinScenario.COP, observation(2, Map.of()), s1.plan(), noReplans);

    assertEquals(0, s2.llmCalls());
    assertEquals(List.of(), s2.actions(), "the doomed arrest is not taken");
    assertEquals("skipped: arrest_citizen citizen-7: no longer within vision", s2.toolOutcomes().get(0).output());
    assertTrue(s2.plan().results().get(1).skipped());
    assertEquals(2, s2.plan().nextStep());
  }

  @Test
  void aFailedExternalStepMakesItsDependantReplanWhenItsTurnComes() {
    llm.plan("[" + step("E1", "read_file", "{\"path\":\"orders.txt\"}") + ","
            + step("E2", "arrest_citizen", "{\"citizen_id\":\"{{E1.target}}\"}") + "]")
        .plan("[" + step("E1", "move_one_step", "{\"direction\":\"South\"}") + "]");
    tool = r -> new ToolExecutionResult(r.toolCallId(), r.name(), "no such file: orders.txt", true);

    AgentStepResult s1 = simStep(EpsteinScenario.COP, observation(1, Map.of()), null, ttl(2));
    assertTrue(s1.toolOutcomes().get(0).error());
    AgentStepResult s2 = simStep(EpsteinScenario.COP, observation(2, Map.of()), s1.plan(), ttl(2));

    assertEquals(1, s2.replans());
    String why = llm.requests.get(1).messages().get(2).text();
    assertTrue(why.contains("skipped: E1 failed: no such file: orders.txt"), why);
    assertTrue(why.contains("1-E1 read_file: failed: no such file: orders.txt"), why);
    assertEquals("2-E1", s2.actions().get(0).toolCallId());
    assertEquals(1, toolRequests.size(), "the failed tool is not run again");
  }

  @Test
  void aMissingPathFailsItsStepWithAClearErrorAndSkipsWhatDependsOnIt() {
    llm.plan(plan(
            step("E1", "read_file", "{\"path\":\"weather.json\"}"),
            step("E2", "calculator", "{\"expression\":\"{{E1.wind}} * 2\"}"),
            step("E3", "calculator", "{\"expression\":\"{{E2}} + 1\"}")))
        .text("unknown");
    tool = r -> ok(r, "{\"temp\":21}");

    AgentTaskResult result = task("Twice the wind speed plus one?",
        rewoo().toBuilder().setReplanOnFailure(0).build());

    List<ReWooStepResult> steps = result.stepResults();
    assertEquals("{{E1.wind}}: E1 has no field 'wind' (its fields are temp)", steps.get(1).error());
    assertFalse(steps.get(1).skipped());
    assertEquals("skipped: E2 failed: {{E1.wind}}: E1 has no field 'wind' (its fields are temp)",
        steps.get(2).error());
    assertEquals(1, result.toolCalls());
    assertEquals(2, result.llmCalls());
  }
}
