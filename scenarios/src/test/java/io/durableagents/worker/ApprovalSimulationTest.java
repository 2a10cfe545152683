package io.durableagents.worker;

import static io.durableagents.worker.ApprovalTest.approvals;
import static io.durableagents.worker.ApprovalTest.pending;
import static io.durableagents.worker.ApprovalTest.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.durableagents.activities.spec.AgentSpecLoader;
import io.durableagents.activities.spec.RegisteredNames;
import io.durableagents.scenarios.Builtins;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.approval.ApprovalDecision;
import io.durableagents.workflows.approval.ApprovalOptions;
import io.durableagents.workflows.approval.ApprovalOutcome;
import io.durableagents.workflows.approval.ApprovalResult;
import io.durableagents.workflows.approval.ToolApproval;
import io.durableagents.workflows.approval.ToolApprovals;
import io.durableagents.workflows.autonomous.AgentSpec;
import io.durableagents.workflows.autonomous.AutonomousAgentInput;
import io.durableagents.workflows.autonomous.AutonomousAgentResult;
import io.durableagents.workflows.autonomous.AutonomousAgentWorkflow;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestWorkflowEnvironment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Approvals where the calls run in child workflows: a simulation's agent steps (across its
 * continue-as-new), found through the simulation's {@code runningAgentSteps} query, and an autonomous
 * agent whose YAML spec names {@code requires_approval}.
 */
class ApprovalSimulationTest {
  private TestWorkflowEnvironment env;

  @AfterEach
  void tearDown() {
    if (env != null) {
      env.close();
    }
  }

  private static ToolExecutionRequest call(String id, String tool, String arguments) {
    return ToolExecutionRequest.builder().id(id).name(tool).arguments(arguments).build();
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

  /** The waiting calls of the simulation's running agent steps, by agent step id. */
  private static Map<String, List<ToolApproval>> waitingIn(WorkflowClient client, SimulationWorkflow sim) {
    Map<String, List<ToolApproval>> out = new java.util.TreeMap<>();
    for (String child : sim.runningAgentSteps()) {
      List<ToolApproval> waiting;
      try {
        waiting = pending(client.newUntypedWorkflowStub(child));
      } catch (io.temporal.client.WorkflowNotFoundException notYet) {
        continue; // the simulation has asked for it, the server has not started it yet: nothing waits there
      }
      if (!waiting.isEmpty()) {
        out.put(child, waiting);
      }
    }
    return out;
  }

  @Test
  void aSimulationRoleWaitsInItsAgentStepsAndEachDecisionAppliesOnceAcrossContinueAsNew() throws Exception {
    UserToolsTest.Rates rates = new UserToolsTest.Rates();
    AutonomousAgentWorkerTest.FunctionModel traders = new AutonomousAgentWorkerTest.FunctionModel(0, request -> {
      List<String> results = toolResults(request);
      if (results.isEmpty()) {
        return AiMessage.from(call("call_1", "fetch_rate", "{\"currency\":\"USD\"}"));
      }
      String observed = results.get(0).replace("fetch_rate => ", "");
      return AiMessage.from(call("call_2", "trade", "{\"rate\":\"" + observed.replace("\"", "'") + "\"}"));
    });
    env = TestWorkers.start(Builtins.plugin().registerModel("traders", traders)
        .registerScenario(new UserToolsTest.Trade(), new UserToolsTest.TradeActions()).registerTool(rates).build());
    WorkflowClient client = env.getWorkflowClient();
    AgentOptions trader = AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel("traders")
        .setApproval(ApprovalOptions.of("fetch_rate")).build();
    SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("sim-approve").build());
    // continue as new after every step: the second step runs in a new run of the simulation
    WorkflowClient.start(sim::run, SimulationInput.of("trade", 2, 3).withRoleOptions(Map.of("trader", trader))
        .withAgentOptions(trader).withContinueAsNewEvery(1));
    SimulationWorkflow running = client.newWorkflowStub(SimulationWorkflow.class, "sim-approve");

    waitFor(() -> waitingIn(client, running).size() == 2, "both traders' lookups to wait in step 1");
    Map<String, List<ToolApproval>> step1 = waitingIn(client, running);
    assertEquals(List.of("sim-approve/agent-trader-0/step-1", "sim-approve/agent-trader-1/step-1"),
        List.copyOf(step1.keySet()));
    ToolApproval first = step1.get("sim-approve/agent-trader-0/step-1").get(0);
    assertEquals("trader-0", first.agentId());
    assertEquals(1, first.step());
    assertEquals("fetch_rate", first.tool());

    WorkflowStub trader0 = client.newUntypedWorkflowStub("sim-approve/agent-trader-0/step-1");
    WorkflowStub trader1 = client.newUntypedWorkflowStub("sim-approve/agent-trader-1/step-1");
    trader0.update(ToolApprovals.APPROVE, ApprovalResult.class, ApprovalDecision.approve("1"));
    trader1.update(ToolApprovals.DENY, ApprovalResult.class, ApprovalDecision.deny("1", "no lookups for trader-1"));

    // step 2 runs after the continue-as-new: new agent steps, new waits, nothing left of step 1's
    waitFor(() -> waitingIn(client, running).keySet().equals(java.util.Set.of(
        "sim-approve/agent-trader-0/step-2", "sim-approve/agent-trader-1/step-2")), "step 2's lookups to wait");
    assertEquals(ApprovalOutcome.APPROVED, approvals(trader0).get(0).outcome(),
        "the closed step keeps its decision");
    for (String child : waitingIn(client, running).keySet()) {
      client.newUntypedWorkflowStub(child).update(ToolApprovals.APPROVE, ApprovalResult.class,
          ApprovalDecision.approve("1"));
    }

    SimulationResult result = client.newUntypedWorkflowStub("sim-approve").getResult(SimulationResult.class);
    assertEquals(2, result.steps());
    List<String> ran = rates.attempts.stream().filter(a -> a.startsWith("3 ")).sorted().toList();
    assertEquals(List.of("3 sim-approve/agent-trader-0/step-1/1/call_1", "3 sim-approve/agent-trader-0/step-2/2/call_1",
        "3 sim-approve/agent-trader-1/step-2/2/call_1"), ran,
        "the approved lookups ran once each (to their third attempt), the denied one never: " + rates.attempts);
    assertEquals(4, result.finalCounts().get("trades").intValue(), "each trader traded in each step");
    assertTrue(running.runningAgentSteps().isEmpty());
  }

  @Test
  void inAGroupStepTheAgentsCallsWaitSideBySideAndTheStepIsMarkedAwaitingApproval() throws Exception {
    UserToolsTest.Rates rates = new UserToolsTest.Rates();
    AutonomousAgentWorkerTest.FunctionModel traders = new AutonomousAgentWorkerTest.FunctionModel(0, request -> {
      List<String> results = toolResults(request);
      return results.isEmpty() ? AiMessage.from(call("call_1", "fetch_rate", "{\"currency\":\"USD\"}"))
          : AiMessage.from(call("call_2", "trade", "{\"rate\":\"" + results.get(0).length() + "\"}"));
    });
    env = TestWorkers.start(Builtins.plugin().registerModel("traders", traders)
        .registerScenario(new UserToolsTest.Trade(), new UserToolsTest.TradeActions()).registerTool(rates).build());
    for (io.temporal.common.SearchAttributeKey<?> key : io.durableagents.workflows.SearchAttributes.ALL) {
      env.registerSearchAttribute(key.getName(), key.getValueType());
    }
    WorkflowClient client = env.getWorkflowClient();
    AgentOptions trader = AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel("traders")
        .setApproval(ApprovalOptions.of("fetch_rate")).build();
    SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("sim-group").build());
    // the simulation runs with its search attributes, so its group step may set AwaitingApproval
    WorkflowClient.start(sim::run, SimulationInput.of("trade", 1, 3).withAgentOptions(trader)
        .withAgentsPerWorkflow(2).withSearchAttributes(true));
    SimulationWorkflow running = client.newWorkflowStub(SimulationWorkflow.class, "sim-group");

    waitFor(() -> waitingIn(client, running).values().stream().mapToInt(List::size).sum() == 2,
        "both traders' lookups to wait in their group step");
    List<ToolApproval> waiting = waitingIn(client, running).get("sim-group/step-1/group-1");
    assertEquals(List.of("1", "2"), waiting.stream().map(ToolApproval::callId).toList(),
        "one numbering for the agents of a group");
    assertEquals(List.of("trader-0", "trader-1"), waiting.stream().map(ToolApproval::agentId).sorted().toList());
    WorkflowStub group = client.newUntypedWorkflowStub("sim-group/step-1/group-1");
    waitFor(() -> Boolean.TRUE.equals(group.describe().getTypedSearchAttributes()
        .get(io.durableagents.workflows.SearchAttributes.AWAITING_APPROVAL)), "AwaitingApproval = true on the group step");

    group.update(ToolApprovals.APPROVE, ApprovalResult.class, ApprovalDecision.approve("1"));
    group.update(ToolApprovals.EDIT, ApprovalResult.class,
        ApprovalDecision.edit("2", io.durableagents.api.Json.tryParse("{\"currency\":\"GBP\"}")));

    SimulationResult result = client.newUntypedWorkflowStub("sim-group").getResult(SimulationResult.class);
    assertEquals(2, result.finalCounts().get("trades").intValue());
    List<String> ran = rates.attempts.stream().filter(a -> a.startsWith("3 ")).sorted().toList();
    assertEquals(2, ran.size(), rates.attempts.toString());
    assertEquals(Boolean.FALSE, group.describe().getTypedSearchAttributes()
        .get(io.durableagents.workflows.SearchAttributes.AWAITING_APPROVAL));
  }

  @Test
  void anAutonomousAgentsSpecNamesTheToolsThatWaitAndTheModelReadsADenial() throws Exception {
    AutonomousAgentWorkerTest.FunctionModel model = new AutonomousAgentWorkerTest.FunctionModel(0, request -> {
      List<String> results = toolResults(request);
      return results.isEmpty() ? AiMessage.from(call("call_1", "calculator", "{\"expression\":\"17*23\"}"))
          : AiMessage.from("I was not allowed: " + results.get(0));
    });
    DurableAgentsPlugin.Builder builder = Builtins.plugin().registerModel("fn", model);
    env = TestWorkers.start(builder.build());
    AgentSpec spec = AgentSpecLoader.parse("""
        apiVersion: durable-agents/v1
        kind: Agent
        metadata: {name: counter}
        spec:
          role: You count.
          model: fn
          tools: [{type: calculator}]
          requires_approval: [calculator]
          approval_timeout: 2h
          approval_default: deny
        """, Path.of("."), RegisteredNames.of(builder.build().tools(), builder.modelNames()));
    assertEquals(List.of("calculator"), spec.approval().tools());
    assertEquals(7200L, spec.approval().timeoutSeconds());

    WorkflowClient client = env.getWorkflowClient();
    AutonomousAgentWorkflow agent = client.newWorkflowStub(AutonomousAgentWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("auto-approve").build());
    WorkflowClient.start(agent::run, AutonomousAgentInput.root(spec, "What is 17*23?"));
    WorkflowStub run = client.newUntypedWorkflowStub("auto-approve");
    waitFor(() -> pending(run).size() == 1, "the calculator call to wait");
    ToolApproval waiting = pending(run).get(0);
    assertEquals("calculator", waiting.tool());
    assertEquals("deny", waiting.onTimeout());
    assertTrue(waiting.timeoutAt() != null);

    run.update(ToolApprovals.DENY, ApprovalResult.class, ApprovalDecision.deny("1", "count by hand"));
    AutonomousAgentResult result = run.getResult(AutonomousAgentResult.class);
    assertEquals("I was not allowed: calculator => The reviewer denied this call of calculator, so it did not run. "
        + "Reason: count by hand", result.answer());
  }

  @Test
  void aWaitCutByTheRunsTimeoutGuardrailEndsCancelledAndClearsTheSearchAttribute() {
    AutonomousAgentWorkerTest.FunctionModel model = new AutonomousAgentWorkerTest.FunctionModel(0, request ->
        AiMessage.from(call("call_1", "calculator", "{\"expression\":\"17*23\"}")));
    DurableAgentsPlugin.Builder builder = Builtins.plugin().registerModel("fn", model);
    env = TestWorkers.start(builder.build());
    env.registerSearchAttribute(io.durableagents.workflows.SearchAttributes.AWAITING_APPROVAL.getName(),
        io.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_BOOL);
    AgentSpec spec = AgentSpecLoader.parse("""
        kind: Agent
        metadata: {name: counter}
        spec:
          model: fn
          tools: [{type: calculator}]
          requires_approval: [calculator]
          guardrails: {timeout_seconds: 60}
        """, Path.of("."), RegisteredNames.of(builder.build().tools(), builder.modelNames()));
    spec = spec.withApproval(spec.approval().withSearchAttribute(true));

    WorkflowClient client = env.getWorkflowClient();
    AutonomousAgentWorkflow agent = client.newWorkflowStub(AutonomousAgentWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("auto-cut").build());
    // nobody decides: waiting on the result lets the test server reach the 60 s guardrail
    AutonomousAgentResult result = agent.run(AutonomousAgentInput.root(spec, "What is 17*23?"));

    assertEquals(io.durableagents.workflows.autonomous.Guardrail.TIMEOUT, result.endedBy());
    WorkflowStub run = client.newUntypedWorkflowStub("auto-cut");
    assertEquals(ApprovalOutcome.CANCELLED, approvals(run).get(0).outcome());
    assertEquals(Boolean.FALSE, run.describe().getTypedSearchAttributes()
        .get(io.durableagents.workflows.SearchAttributes.AWAITING_APPROVAL), "a closed run is not listed as waiting");
  }
}
