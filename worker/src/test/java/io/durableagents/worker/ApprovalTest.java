package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.uber.m3.tally.RootScopeBuilder;
import com.uber.m3.tally.Scope;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.durableagents.activities.tools.DurableTool;
import io.durableagents.api.Json;
import io.durableagents.workflows.SearchAttributes;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.approval.ApprovalBook;
import io.durableagents.workflows.approval.ApprovalDecision;
import io.durableagents.workflows.approval.ApprovalOptions;
import io.durableagents.workflows.approval.ApprovalOutcome;
import io.durableagents.workflows.approval.ApprovalResult;
import io.durableagents.workflows.approval.TimeoutDecision;
import io.durableagents.workflows.approval.ToolApproval;
import io.durableagents.workflows.approval.ToolApprovals;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.common.reporter.MicrometerClientStatsReporter;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Human approval of tool calls: a call of a tool that requires approval waits in its workflow for an
 * {@code approve}, {@code deny} or {@code edit} update; the validators refuse a wrong decision before
 * anything reaches the history; the model reads a denial or an edit; a timeout applies its default; the
 * query, the search attribute and the metrics show the waits.
 */
class ApprovalTest {
  /** Payments that must be approved, on the tool's registration. */
  public static class Payments {
    final List<String> transfers = Collections.synchronizedList(new ArrayList<>());

    @Tool(name = "transfer", value = "Transfers money to an account.")
    @DurableTool(requiresApproval = true)
    public String transfer(@P("the account number") String account, @P("the amount in euros") int amount) {
      transfers.add(account + ":" + amount);
      return "sent " + amount + " EUR to " + account;
    }
  }

  private static final TypeReference<List<ToolApproval>> APPROVALS = new TypeReference<>() {};

  private final ScriptedChatModel model = new ScriptedChatModel();
  private final Payments payments = new Payments();
  private TestWorkflowEnvironment env;
  private SimpleMeterRegistry meters;
  private Scope scope;

  private WorkflowClient start() {
    meters = new SimpleMeterRegistry();
    scope = new RootScopeBuilder().reporter(new MicrometerClientStatsReporter(meters))
        .reportEvery(com.uber.m3.util.Duration.ofMillis(10));
    env = TestWorkers.start(DurableAgentsPlugin.newBuilder().registerModel("scripted", model)
            .registerTool(payments).build(),
        TestEnvironmentOptions.newBuilder().setMetricsScope(scope).build());
    env.registerSearchAttribute(SearchAttributes.AWAITING_APPROVAL.getName(), IndexedValueType.INDEXED_VALUE_TYPE_BOOL);
    return env.getWorkflowClient();
  }

  @AfterEach
  void tearDown() {
    if (env != null) {
      env.close();
    }
  }

  private WorkflowStub startTask(String id, List<String> tools, ApprovalOptions approval) {
    return startTaskWith(id, tools, AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel("scripted")
        .setApproval(approval).build());
  }

  private WorkflowStub startTaskWith(String id, List<String> tools, AgentOptions options) {
    AgentTaskWorkflow task = env.getWorkflowClient().newWorkflowStub(AgentTaskWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
    WorkflowClient.start(task::run, new AgentTaskInput("Pay the invoice.", tools, options));
    return env.getWorkflowClient().newUntypedWorkflowStub(id);
  }

  private static ToolExecutionRequest call(String id, String tool, String arguments) {
    return ToolExecutionRequest.builder().id(id).name(tool).arguments(arguments).build();
  }

  private static AiMessage finish(String answer) {
    return AiMessage.from(call("call_f", "finish", "{\"answer\":\"" + answer + "\"}"));
  }

  private static List<String> toolResults(ChatRequest request) {
    List<String> out = new ArrayList<>();
    for (ChatMessage m : request.messages()) {
      if (m instanceof ToolExecutionResultMessage r) {
        out.add(r.toolName() + " => " + r.text());
      }
    }
    return out;
  }

  static List<ToolApproval> approvals(WorkflowStub run) {
    return run.query(ToolApprovals.QUERY, List.class, APPROVALS.getType());
  }

  static List<ToolApproval> pending(WorkflowStub run) {
    return approvals(run).stream().filter(ToolApproval::pending).toList();
  }

  static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  private static String refusal(WorkflowStub run, String update, ApprovalDecision decision) {
    WorkflowUpdateException e = assertThrows(WorkflowUpdateException.class,
        () -> run.update(update, ApprovalResult.class, decision));
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage();
  }

  private static long updateEvents(WorkflowClient client, String id) {
    return client.fetchHistory(id).getEvents().stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED).count();
  }

  private double counted(String outcome) {
    try {
      scope.close(); // reports what the scope holds
    } catch (com.uber.m3.tally.ScopeCloseException e) {
      throw new IllegalStateException(e);
    }
    // one counter per tool: the sum over them
    return meters.find(ApprovalBook.APPROVALS).tag("outcome", outcome).counters().stream()
        .mapToDouble(Counter::count).sum();
  }

  @Test
  void anApprovedCallRunsOnceAndTheModelReadsItsResult() throws Exception {
    WorkflowClient client = start();
    model.then(AiMessage.from(call("call_1", "transfer", "{\"account\":\"DE-1\",\"amount\":120}")))
        .then(finish("paid"));
    WorkflowStub run = startTask("approve-1", List.of("transfer"), null);

    waitFor(() -> pending(run).size() == 1, "the transfer to wait for approval");
    ToolApproval waiting = pending(run).get(0);
    assertEquals("1", waiting.callId());
    assertEquals("transfer", waiting.tool());
    assertEquals("call_1", waiting.toolCallId());
    assertEquals("approve-1", waiting.workflowId());
    assertEquals("agent", waiting.agentId());
    assertEquals(0, waiting.step());
    assertEquals(Json.tryParse("{\"account\":\"DE-1\",\"amount\":120}"), waiting.arguments());
    assertNotNull(waiting.waitingSince());
    assertNull(waiting.timeoutAt(), "no timeout: it waits as long as it takes");
    assertTrue(payments.transfers.isEmpty(), "nothing ran before the decision");

    ApprovalResult result = run.update(ToolApprovals.APPROVE, ApprovalResult.class,
        new ApprovalDecision("1", null, null, "alice"));
    assertEquals(new ApprovalResult("1", "transfer", ApprovalOutcome.APPROVED), result);

    AgentTaskResult done = run.getResult(AgentTaskResult.class);
    assertEquals("paid", done.answer());
    assertEquals(List.of("DE-1:120"), payments.transfers);
    assertEquals(List.of("transfer => sent 120 EUR to DE-1"), toolResults(model.requests.get(1)));
    ToolApproval decided = approvals(run).get(0);
    assertEquals(ApprovalOutcome.APPROVED, decided.outcome());
    assertEquals("alice", decided.reviewer());
    assertNotNull(decided.decidedAt());
    assertEquals(1, counted("approved"));
    Timer wait = meters.find(ApprovalBook.APPROVAL_WAIT).tag("outcome", "approved").timer();
    assertNotNull(wait, "the wait is timed");
    assertEquals(1, wait.count());
  }

  @Test
  void theValidatorsRefuseAWrongDecisionBeforeAnythingReachesTheHistory() throws Exception {
    WorkflowClient client = start();
    model.then(AiMessage.from("Two payments.", List.of(
            call("call_1", "transfer", "{\"account\":\"DE-1\",\"amount\":120}"),
            call("call_2", "transfer", "{\"account\":\"DE-2\",\"amount\":80}"))))
        .then(finish("paid"));
    WorkflowStub run = startTask("refusals", List.of("transfer"), null);
    waitFor(() -> pending(run).size() == 2, "both transfers to wait");

    assertTrue(refusal(run, ToolApprovals.APPROVE, ApprovalDecision.approve("9"))
        .contains("no call '9' in refusals; calls waiting: 1, 2"));
    assertTrue(refusal(run, ToolApprovals.DENY, ApprovalDecision.deny("1", " "))
        .contains("deny needs a reason"));
    String badArgs = refusal(run, ToolApprovals.EDIT, ApprovalDecision.edit("1",
        Json.tryParse("{\"account\":\"DE-1\",\"amount\":\"lots\"}")));
    assertTrue(badArgs.contains("the arguments do not fit transfer's schema") && badArgs.contains("amount"), badArgs);
    assertTrue(refusal(run, ToolApprovals.EDIT, ApprovalDecision.edit("1", Json.tryParse("{\"account\":\"DE-1\"}")))
        .contains("amount"), "a required argument is missing");
    assertTrue(refusal(run, ToolApprovals.EDIT, ApprovalDecision.edit("1", null)).contains("edit needs the arguments"));
    assertTrue(refusal(run, ToolApprovals.APPROVE, new ApprovalDecision("1", Json.tryParse("{}"), null, null))
        .contains("send other arguments with edit"));
    assertEquals(0, updateEvents(client, "refusals"), "a refused decision leaves no trace in the history");

    run.update(ToolApprovals.APPROVE, ApprovalResult.class, ApprovalDecision.approve("1"));
    assertTrue(refusal(run, ToolApprovals.DENY, ApprovalDecision.deny("1", "changed my mind"))
        .contains("call 1 (transfer) was decided already: approved"));
    assertEquals(1, updateEvents(client, "refusals"));
    run.update(ToolApprovals.DENY, ApprovalResult.class, ApprovalDecision.deny("2", "duplicate invoice"));

    run.getResult(AgentTaskResult.class);
    assertEquals(List.of("DE-1:120"), payments.transfers, "the approved call ran once, the denied one never");
  }

  @Test
  void aDeniedCallDoesNotRunAndTheModelReadsTheReason() throws Exception {
    start();
    model.then(AiMessage.from(call("call_1", "transfer", "{\"account\":\"DE-1\",\"amount\":120}")))
        .then(finish("I could not pay: the reviewer said the invoice is a duplicate."));
    WorkflowStub run = startTask("deny-1", List.of("transfer"), null);
    waitFor(() -> pending(run).size() == 1, "the transfer to wait");

    ApprovalResult result = run.update(ToolApprovals.DENY, ApprovalResult.class,
        ApprovalDecision.deny("1", "the invoice is a duplicate"));
    assertEquals(ApprovalOutcome.DENIED, result.outcome());

    AgentTaskResult done = run.getResult(AgentTaskResult.class);
    assertTrue(payments.transfers.isEmpty(), "a denied call never runs");
    assertEquals(List.of("transfer => The reviewer denied this call of transfer, so it did not run. "
        + "Reason: the invoice is a duplicate"), toolResults(model.requests.get(1)));
    assertTrue(done.turns().get(0).outcomes().get(0).error(), "the model reads it as an error observation");
    assertEquals("the invoice is a duplicate", approvals(run).get(0).reason());
    assertEquals(1, counted("denied"));
    assertEquals(0, done.toolCalls(), "a denied call is no tool call: it ran no activity");
    assertEquals(1, done.deniedToolCalls());
  }

  @Test
  void anEditedCallRunsWithTheReviewersArgumentsAndTheModelIsTold() throws Exception {
    start();
    model.then(AiMessage.from(call("call_1", "transfer", "{\"account\":\"DE-1\",\"amount\":120}")))
        .then(finish("paid 100"));
    WorkflowStub run = startTask("edit-1", List.of("transfer"), null);
    waitFor(() -> pending(run).size() == 1, "the transfer to wait");

    ApprovalResult result = run.update(ToolApprovals.EDIT, ApprovalResult.class,
        new ApprovalDecision("1", Json.tryParse("{\"account\":\"DE-1\",\"amount\":100}"), "the cap is 100", "bob"));
    assertEquals(ApprovalOutcome.EDITED, result.outcome());

    run.getResult(AgentTaskResult.class);
    assertEquals(List.of("DE-1:100"), payments.transfers);
    assertEquals(List.of("transfer => The reviewer changed the arguments of this call to "
        + "{\"account\":\"DE-1\",\"amount\":100} (the cap is 100). Result: sent 100 EUR to DE-1"),
        toolResults(model.requests.get(1)));
    ToolApproval decided = approvals(run).get(0);
    assertEquals(Json.tryParse("{\"account\":\"DE-1\",\"amount\":120}"), decided.arguments(), "the model's, kept");
    assertEquals(Json.tryParse("{\"account\":\"DE-1\",\"amount\":100}"), decided.editedArguments());
    assertEquals(1, counted("edited"));
  }

  @Test
  void aTimeoutAppliesItsDefaultDecision() {
    start();
    // calculator needs no approval by registration: the run's options ask for it, with a timeout
    model.then(AiMessage.from(call("call_1", "calculator", "{\"expression\":\"6*7\"}")))
        .then(AiMessage.from(call("call_2", "transfer", "{\"account\":\"DE-1\",\"amount\":5}")))
        .then(finish("done"));
    WorkflowStub run = startTask("timeouts", List.of("calculator", "transfer"),
        new ApprovalOptions(List.of("calculator"), 3600L, TimeoutDecision.APPROVE, null));

    // waiting on the result lets the test server skip time: each call's hour passes at once
    run.getResult(AgentTaskResult.class);

    List<ToolApproval> all = approvals(run);
    assertEquals(ApprovalOutcome.TIMEOUT_APPROVED, all.get(0).outcome(), "calculator: approve after an hour");
    assertEquals("approve", all.get(0).onTimeout());
    assertEquals(ApprovalOutcome.TIMEOUT_APPROVED, all.get(1).outcome(),
        "transfer (required by its registration) waits with the run's timeout too");
    assertEquals(List.of("calculator => 42"), toolResults(model.requests.get(1)).subList(0, 1));
    assertEquals(List.of("DE-1:5"), payments.transfers);
    assertEquals(2, counted("timeout_approved"));
  }

  @Test
  void aTimeoutThatDeniesTellsTheModelNobodyApproved() {
    start();
    model.then(AiMessage.from(call("call_1", "transfer", "{\"account\":\"DE-1\",\"amount\":5}")))
        .then(finish("not paid"));
    WorkflowStub run = startTask("timeout-deny", List.of("transfer"),
        new ApprovalOptions(List.of(), 600L, null, null));

    run.getResult(AgentTaskResult.class);

    assertEquals(ApprovalOutcome.TIMEOUT_DENIED, approvals(run).get(0).outcome(), "deny is the default");
    assertTrue(payments.transfers.isEmpty());
    assertEquals(List.of("transfer => Nobody approved this call of transfer within 600 s, so it did not run."),
        toolResults(model.requests.get(1)));
  }

  @Test
  void theSearchAttributeIsSetWhileACallWaitsAndClearedAfter() throws Exception {
    WorkflowClient client = start();
    model.then(AiMessage.from(call("call_1", "transfer", "{\"account\":\"DE-1\",\"amount\":120}")))
        .then(finish("paid"));
    WorkflowStub run = startTask("attribute", List.of("transfer"),
        new ApprovalOptions(List.of(), null, null, true));
    waitFor(() -> pending(run).size() == 1, "the transfer to wait");
    waitFor(() -> Boolean.TRUE.equals(run.describe().getTypedSearchAttributes()
        .get(SearchAttributes.AWAITING_APPROVAL)), "AwaitingApproval = true");

    run.update(ToolApprovals.APPROVE, ApprovalResult.class, ApprovalDecision.approve("1"));
    run.getResult(AgentTaskResult.class);
    assertEquals(Boolean.FALSE, run.describe().getTypedSearchAttributes().get(SearchAttributes.AWAITING_APPROVAL));
    long upserts = client.fetchHistory("attribute").getEvents().stream()
        .map(HistoryEvent::getEventType)
        .filter(t -> t == EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES).count();
    assertEquals(2, upserts, "set once when the call started waiting, cleared once when it was decided");
  }

  @Test
  void aReWooPlanStepWaitsWithItsPlaceholdersFilledAndADenialFailsTheStep() throws Exception {
    start();
    model.then(AiMessage.from("{\"plan\":["
            + "{\"id\":\"E1\",\"tool\":\"calculator\",\"args\":{\"expression\":\"17 * 23\"}},"
            + "{\"id\":\"E2\",\"tool\":\"calculator\",\"args\":{\"expression\":\"{{E1}} + 9\"}}]}"))
        .then(AiMessage.from("17 * 23 = 391; the reviewer stopped the rest."));
    WorkflowStub run = startTaskWith("rewoo-approval", List.of("calculator"), AgentOptions.newBuilder()
        .setStrategy(Strategy.REWOO).setModel("scripted").setReplanOnFailure(0)
        .setApproval(ApprovalOptions.of("calculator")).build());

    waitFor(() -> pending(run).size() == 1, "E1 to wait");
    assertEquals(Json.tryParse("{\"expression\":\"17 * 23\"}"), pending(run).get(0).arguments());
    run.update(ToolApprovals.APPROVE, ApprovalResult.class, ApprovalDecision.approve("1"));
    waitFor(() -> pending(run).size() == 1 && pending(run).get(0).callId().equals("2"), "E2 to wait");
    assertEquals(Json.tryParse("{\"expression\":\"391 + 9\"}"), pending(run).get(0).arguments(),
        "the reviewer sees the arguments the step runs with, its placeholder filled");
    run.update(ToolApprovals.DENY, ApprovalResult.class, ApprovalDecision.deny("2", "one sum is enough"));

    AgentTaskResult done = run.getResult(AgentTaskResult.class);
    assertEquals("17 * 23 = 391; the reviewer stopped the rest.", done.answer());
    assertEquals(1, done.toolCalls(), "E1 ran");
    assertEquals(1, done.deniedToolCalls(), "E2 was denied");
    String solver = model.requests.get(1).messages().toString();
    assertTrue(solver.contains("391") && solver.contains("The reviewer denied this call of calculator, so it did "
        + "not run. Reason: one sum is enough"), solver);
    assertEquals(1, client().fetchHistory("rewoo-approval").getEvents().stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
            && e.getActivityTaskScheduledEventAttributes().getActivityType().getName().equals("ToolExecute")).count());
  }

  private WorkflowClient client() {
    return env.getWorkflowClient();
  }

  @Test
  void withoutApprovalNothingWaitsAndNoTimerOrUpdateIsRecorded() {
    WorkflowClient client = start();
    model.then(AiMessage.from(call("call_1", "calculator", "{\"expression\":\"6*7\"}"))).then(finish("42"));
    WorkflowStub run = startTask("no-approval", List.of("calculator"), null);
    assertEquals("42", run.getResult(AgentTaskResult.class).answer());
    assertTrue(approvals(run).isEmpty());
    assertFalse(client.fetchHistory("no-approval").getEvents().stream()
        .anyMatch(e -> e.getEventType() == EventType.EVENT_TYPE_TIMER_STARTED));
  }
}
