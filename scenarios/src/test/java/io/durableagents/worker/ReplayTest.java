package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.activities.checkpoint.DirectoryCheckpointStore;
import io.durableagents.activities.spec.AgentSpecLoader;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.scenarios.negotiation.NegotiationParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentGroupStepWorkflowImpl;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentStepWorkflowImpl;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.approval.ApprovalDecision;
import io.durableagents.workflows.approval.ApprovalOptions;
import io.durableagents.workflows.approval.ApprovalResult;
import io.durableagents.workflows.approval.TimeoutDecision;
import io.durableagents.workflows.approval.ToolApprovals;
import io.durableagents.workflows.autonomous.AutonomousAgentInput;
import io.durableagents.workflows.autonomous.AutonomousAgentWorkflow;
import io.durableagents.workflows.autonomous.AutonomousAgentWorkflowImpl;
import io.durableagents.workflows.llm.slots.ModelSlotsInput;
import io.durableagents.workflows.llm.slots.ModelSlotsWorkflow;
import io.durableagents.workflows.llm.slots.ModelSlotsWorkflowImpl;
import io.durableagents.workflows.llm.slots.SlotAnswer;
import io.durableagents.workflows.llm.slots.SlotRelease;
import io.durableagents.workflows.llm.slots.SlotRequest;
import io.durableagents.workflows.memory.MemoryKind;
import io.durableagents.workflows.memory.MemoryOptions;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.SimulationWorkflowImpl;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.durableagents.workflows.task.AgentTaskWorkflowImpl;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestWorkflowEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every workflow replays its own fresh history, and every history checked in under {@code
 * src/test/resources/histories/} still replays: a change that breaks old histories fails the build.
 * There are histories of each strategy, in a simulation and on a single task.
 *
 * <p>To record new histories (after a deliberate, versioned change), run {@code ./mvnw -pl scenarios -am
 * test -Dtest=ReplayTest -Dsurefire.failIfNoSpecifiedTests=false -DrecordHistories=true}. Histories
 * already checked in are kept (old histories must keep replaying); only missing ones are written.
 */
class ReplayTest {
  static final Path HISTORIES = Path.of("src", "test", "resources", "histories");
  static final String WORKFLOW_IDS = "workflow-ids.properties";

  private static final EpsteinParameters SMALL = EpsteinParameters.DEFAULTS.withAgents(4, 1);

  @Test
  void freshHistoriesReplay() throws Exception {
    Map<String, Recorded> fresh = record();
    for (Recorded r : fresh.values()) {
      SameResultReplay.replay("fresh " + r.workflowId(), r.history(), SimulationWorkflowImpl.class, AgentStepWorkflowImpl.class, AgentGroupStepWorkflowImpl.class, AgentTaskWorkflowImpl.class, AutonomousAgentWorkflowImpl.class, ModelSlotsWorkflowImpl.class,
          io.durableagents.workflows.experiment.ExperimentWorkflowImpl.class);
    }
    if (Boolean.getBoolean("recordHistories")) {
      Files.createDirectories(HISTORIES);
      Properties ids = loadIds();
      for (Map.Entry<String, Recorded> e : fresh.entrySet()) {
        Path file = HISTORIES.resolve(e.getKey());
        if (!Files.exists(file)) {
          Files.writeString(file, e.getValue().history().toJson(true));
          ids.setProperty(e.getKey(), e.getValue().workflowId());
        }
      }
      StringBuilder sb = new StringBuilder();
      ids.stringPropertyNames().stream().sorted()
          .forEach(k -> sb.append(k).append('=').append(ids.getProperty(k)).append('\n'));
      Files.writeString(HISTORIES.resolve(WORKFLOW_IDS), sb.toString());
    }
  }

  @Test
  void checkedInHistoriesStillReplay() throws Exception {
    List<Path> files;
    try (Stream<Path> s = Files.list(HISTORIES)) {
      files = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
    assertFalse(files.isEmpty(), "no recorded histories under " + HISTORIES.toAbsolutePath());
    Properties ids = loadIds();
    List<String> names = new ArrayList<>();
    for (Path file : files) {
      String workflowId = ids.getProperty(file.getFileName().toString());
      assertTrue(workflowId != null, "no workflow id for " + file + " in " + WORKFLOW_IDS);
      WorkflowExecutionHistory history = WorkflowExecutionHistory.fromJson(Files.readString(file), workflowId);
      SameResultReplay.replay(file.getFileName().toString(), history, SimulationWorkflowImpl.class,
          AgentStepWorkflowImpl.class, AgentGroupStepWorkflowImpl.class, AgentTaskWorkflowImpl.class,
          AutonomousAgentWorkflowImpl.class, ModelSlotsWorkflowImpl.class,
          io.durableagents.workflows.experiment.ExperimentWorkflowImpl.class);
      names.add(file.getFileName().toString());
    }
    for (String expected : List.of("simulation-epstein-cot.json", "agent-step-cot.json",
        "simulation-epstein-react.json", "agent-step-react.json",
        "simulation-epstein-rewoo-ttl3.json", "agent-step-rewoo-reused.json",
        "agent-task-cot.json", "agent-task-react.json", "agent-task-rewoo.json",
        "simulation-negotiation-cot.json", "agent-step-negotiation-buyer.json",
        "autonomous-todo-driven.json", "autonomous-plan-execute.json", "autonomous-spawn-reflexion.json",
        "autonomous-spawn-child.json",
        "simulation-continued-run1.json", "simulation-continued-run2.json",
        "simulation-steered-episodic.json", "simulation-epstein-groups.json",
        "simulation-epstein-budgeted.json", "agent-group-step.json",
        "simulation-agent-failure-skipped.json", "simulation-checkpointed.json",
        "simulation-intervened.json", "agent-task-mcp.json",
        "agent-task-approval.json", "agent-group-step-cot-threads.json", "agent-group-step-cot.json",
        "model-slots-run1.json", "model-slots-run2.json",
        "simulation-search-attributes-run1.json", "simulation-search-attributes-run2.json",
        "experiment-grid.json")) {
      assertTrue(names.contains(expected), "missing recorded history " + expected + " in " + names);
    }
  }

  private static Properties loadIds() throws Exception {
    Properties ids = new Properties();
    Path file = HISTORIES.resolve(WORKFLOW_IDS);
    if (Files.exists(file)) {
      try (var in = Files.newBufferedReader(file)) {
        ids.load(in);
      }
    }
    return ids;
  }

  private record Recorded(String workflowId, WorkflowExecutionHistory history) {}

  /** Runs a small simulation per strategy and a task per strategy; returns their histories by file name. */
  private static Map<String, Recorded> record() throws Exception {
    Map<String, Recorded> out = new LinkedHashMap<>();
    mcp(out);
    try (TestWorkflowEnvironment env = TestWorkers.start(Builtins.plugin()
        .registerModel(BrokenChatModel.NAME, new BrokenChatModel())
        .registerModel(EchoChatModel.NAME, new EchoChatModel())
        .setCheckpointStore(new DirectoryCheckpointStore(checkpoints())).build())) {
      WorkflowClient client = env.getWorkflowClient();
      modelSlots(env, out);
      simulate(client, out, "cot", "sim-epstein-replay", AgentOptions.defaults(),
          "sim-epstein-replay/agent-citizen-0/step-2", "agent-step-cot.json");
      simulate(client, out, "react", "sim-epstein-replay-react",
          AgentOptions.newBuilder().setStrategy(Strategy.REACT).build(),
          "sim-epstein-replay-react/agent-cop-0/step-2", "agent-step-react.json");
      // step 2 of a TTL-3 plan made at step 1: served from the plan, no LLM call
      simulate(client, out, "rewoo-ttl3", "sim-epstein-replay-rewoo",
          AgentOptions.newBuilder().setStrategy(Strategy.REWOO).setTtl(3).build(),
          "sim-epstein-replay-rewoo/agent-citizen-1/step-2", "agent-step-rewoo-reused.json");
      // negotiation: speak_to, teleport_to_location and buy_product; buyer-3 buys at step 3
      String negotiation = "sim-negotiation-replay";
      client.newWorkflowStub(SimulationWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(negotiation).build())
          .run(new SimulationInput("negotiation", 4, 42, null, AgentOptions.defaults(), null, null)
              .withParameters(NegotiationParameters.DEFAULTS));
      out.put("simulation-negotiation-cot.json", new Recorded(negotiation, client.fetchHistory(negotiation)));
      String buyerStep = negotiation + "/agent-buyer-3/step-3";
      out.put("agent-step-negotiation-buyer.json", new Recorded(buyerStep, client.fetchHistory(buyerStep)));
      continued(client, out);
      searchAttributes(env, client, out);
      checkpointed(client, out);
      intervened(client, out);
      experiment(client, out);
      steered(client, out);
      // group steps: the agents' steps of a simulation step in workflows of 2 agents of one role
      String grouped = "sim-epstein-replay-groups";
      client.newWorkflowStub(SimulationWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(grouped).build())
          .run(new SimulationInput("epstein", 3, 11, SMALL,
              AgentOptions.newBuilder().setStrategy(Strategy.REACT).build(), null, null).withAgentsPerWorkflow(2));
      out.put("simulation-epstein-groups.json", new Recorded(grouped, client.fetchHistory(grouped)));
      String group = grouped + "/step-2/group-1";
      out.put("agent-group-step.json", new Recorded(group, client.fetchHistory(group)));
      // the cops' model rejects every call: their steps fail for good, are recorded and skipped
      String failing = "sim-epstein-replay-agent-failure";
      AgentOptions base = AgentOptions.newBuilder().setStrategy(Strategy.REWOO).build();
      client.newWorkflowStub(SimulationWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(failing).build())
          .run(new SimulationInput("epstein", 2, 11, SMALL, base,
              Map.of("cop", base.toBuilder().setModel(BrokenChatModel.NAME).build()), null));
      out.put("simulation-agent-failure-skipped.json", new Recorded(failing, client.fetchHistory(failing)));
      // agent steps and memory calls started within the task budget (the task-budget version marker)
      String budgeted = "sim-epstein-replay-budgeted";
      client.newWorkflowStub(SimulationWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(budgeted).build())
          .run(new SimulationInput("epstein", 2, 11, SMALL,
              AgentOptions.newBuilder().setStrategy(Strategy.COT).build(), null, 3)
              .withAgentsPerWorkflow(2).withMemory(MemoryOptions.of(MemoryKind.LONG_TERM, 1)));
      out.put("simulation-epstein-budgeted.json", new Recorded(budgeted, client.fetchHistory(budgeted)));
      // a group of 4 chain-of-thought agents whose answers differ (the echo model), their calls chained without a thread per agent (the
      // agents-without-threads version); agent-group-step-cot-threads.json, the same group recorded when
      // each agent ran on a workflow thread of its own, is kept: it must replay as it ran
      String cotGroups = "sim-epstein-replay-cot-groups";
      client.newWorkflowStub(SimulationWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(cotGroups).build())
          .run(new SimulationInput("epstein", 2, 7, SMALL,
              AgentOptions.newBuilder().setStrategy(Strategy.COT).setModel(EchoChatModel.NAME).build(), null, null)
              .withAgentsPerWorkflow(4));
      out.put("agent-group-step-cot.json",
          new Recorded(cotGroups + "/step-1/group-1", client.fetchHistory(cotGroups + "/step-1/group-1")));
      for (Strategy s : Strategy.values()) {
        String id = "agent-task-replay-" + s.label();
        client.newWorkflowStub(AgentTaskWorkflow.class,
                WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
            .run(new AgentTaskInput("What is 17 * (23 + 4)?", List.of("calculator"),
                AgentOptions.newBuilder().setStrategy(s).build()));
        out.put("agent-task-" + s.label() + ".json", new Recorded(id, client.fetchHistory(id)));
      }
      approval(client, out);
      // Autonomous agents from the example specs, with the rules model: think and todo calls, the plan
      // phase, sub-agents as child workflows (one child's history too) and a judged reflexion round.
      autonomous(client, out, "autonomous-todo-driven.json", "autonomous-replay-todo", "todo-calculator.yaml",
          "What is 17 * 23 and 120 / 4?");
      autonomous(client, out, "autonomous-plan-execute.json", "autonomous-replay-plan", "plan-execute.yaml",
          "What is 6 * 7 and 2 ^ 10?");
      autonomous(client, out, "autonomous-spawn-reflexion.json", "autonomous-replay-lead", "research-lead.yaml",
          "What is 17 * 23, 120 / 4 and 2 ^ 10?");
      out.put("autonomous-spawn-child.json", new Recorded("autonomous-replay-lead/task-2",
          client.fetchHistory("autonomous-replay-lead/task-2")));
    }
    return out;
  }

  /**
   * A model's shared slots (capacity 1): three calls take turns, a retry takes its slot over and its
   * earlier attempt's release frees nothing, a dead holder's slot is freed by the lease timer, and the
   * run continues as new while a call waits (its acquire answers AGAIN and asks the next run): the first
   * run, ending in continue-as-new, and the second.
   */
  private static void modelSlots(TestWorkflowEnvironment env, Map<String, Recorded> out) throws Exception {
    WorkflowClient client = env.getWorkflowClient();
    String model = "openai:smollm2";
    String id = ModelSlotsWorkflow.workflowId(model);
    java.util.concurrent.TimeUnit s = java.util.concurrent.TimeUnit.SECONDS;
    acquireSlot(client, model, "call-a", "a1").get(10, s);
    var b = acquireSlot(client, model, "call-b", "b1");
    var c = acquireSlot(client, model, "call-c", "c1");
    acquireSlot(client, model, "call-a", "a2").get(10, s);
    releaseSlot(client, id, "call-a", "a1");
    releaseSlot(client, id, "call-a", "a2");
    b.get(10, s);
    env.sleep(java.time.Duration.ofSeconds(61));
    c.get(10, s);
    releaseSlot(client, id, "call-c", "c1");
    String first = client.newUntypedWorkflowStub(id).describe().getExecution().getRunId();
    acquireSlot(client, model, "call-d", "d1").get(10, s);
    var e = acquireSlot(client, model, "call-e", "e1");
    for (int i = 0; i < 20 && first.equals(client.newUntypedWorkflowStub(id).describe().getExecution().getRunId()); i++) {
      acquireSlot(client, model, "call-f" + i, "f");
      releaseSlot(client, id, "call-f" + i, "f");
    }
    if (e.get(10, s).outcome() != SlotAnswer.Outcome.AGAIN) {
      throw new AssertionError("call-e was not asked to ask again across continue-as-new");
    }
    var eAgain = acquireSlot(client, model, "call-e", "e1");
    releaseSlot(client, id, "call-d", "d1");
    if (eAgain.get(10, s).outcome() != SlotAnswer.Outcome.GRANTED) {
      throw new AssertionError("call-e lost its place across continue-as-new");
    }
    releaseSlot(client, id, "call-e", "e1");
    out.put("model-slots-run1.json", new Recorded(id, client.fetchHistory(id, first)));
    out.put("model-slots-run2.json", new Recorded(id, client.fetchHistory(id)));
  }

  private static java.util.concurrent.CompletableFuture<SlotAnswer> acquireSlot(WorkflowClient client, String model,
      String holder, String request) {
    io.temporal.client.WorkflowStub stub = client.newUntypedWorkflowStub(ModelSlotsWorkflow.TYPE,
        WorkflowOptions.newBuilder().setWorkflowId(ModelSlotsWorkflow.workflowId(model)).setTaskQueue(TaskQueues.AGENTS)
            .setWorkflowIdConflictPolicy(
                io.temporal.api.enums.v1.WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING).build());
    return stub.startUpdateWithStart(io.temporal.client.UpdateOptions.newBuilder(SlotAnswer.class)
            .setUpdateName(ModelSlotsWorkflow.ACQUIRE)
            .setWaitForStage(io.temporal.client.WorkflowUpdateStage.ACCEPTED).build(),
        new Object[] {new SlotRequest(holder, request, 1, 60_000)},
        new Object[] {new ModelSlotsInput(model, null, 60)}).getResultAsync();
  }

  private static void releaseSlot(WorkflowClient client, String id, String holder, String request) {
    client.newUntypedWorkflowStub(id).signal(ModelSlotsWorkflow.RELEASE, new SlotRelease(holder, request));
  }

  /**
   * A ReAct task whose agent calls a real MCP server's tool ({@code calc_add}, an activity summarised
   * {@code tool: mcp calc/add}), then finishes.
   */
  private static void mcp(Map<String, Recorded> out) throws Exception {
    ScriptedChatModel model = new ScriptedChatModel()
        .then(dev.langchain4j.data.message.AiMessage.from(dev.langchain4j.agent.tool.ToolExecutionRequest.builder()
            .id("call_1").name("calc_add").arguments("{\"a\": 17, \"b\": 25}").build()))
        .then(dev.langchain4j.data.message.AiMessage.from(dev.langchain4j.agent.tool.ToolExecutionRequest.builder()
            .id("call_2").name("finish").arguments("{\"answer\": \"42\"}").build()));
    try (AdderMcpServer server = new AdderMcpServer()) {
      DurableAgentsPlugin plugin = Builtins.plugin()
          .registerMcpServer(io.durableagents.activities.tools.mcp.McpServerConfig.newBuilder("calc")
              .setUrl(server.url()).build())
          .registerModel("mcp-script", model).build();
      try (TestWorkflowEnvironment env = TestWorkers.start(plugin)) {
        WorkflowClient client = env.getWorkflowClient();
        String id = "agent-task-replay-mcp";
        client.newWorkflowStub(AgentTaskWorkflow.class,
                WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
            .run(new AgentTaskInput("What is 17 + 25?", List.of("calc_add"),
                AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel("mcp-script").build()));
        out.put("agent-task-mcp.json", new Recorded(id, client.fetchHistory(id)));
      } finally {
        plugin.closeMcpServers();
      }
    }
  }

  /**
   * A task whose calculator call waits for approval, with a timeout (a timer, cancelled by the decision),
   * and runs with the arguments of an {@code edit} update.
   */
  private static void approval(WorkflowClient client, Map<String, Recorded> out) {
    String id = "agent-task-replay-approval";
    AgentTaskWorkflow task = client.newWorkflowStub(AgentTaskWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
    WorkflowClient.start(task::run, new AgentTaskInput("What is 17 * 23?", List.of("calculator"),
        AgentOptions.newBuilder().setStrategy(Strategy.REACT).setApproval(new ApprovalOptions(
            List.of("calculator"), 3600L, TimeoutDecision.APPROVE, null)).build()));
    io.temporal.client.WorkflowStub run = client.newUntypedWorkflowStub(id);
    try {
      ApprovalTest.waitFor(() -> !ApprovalTest.pending(run).isEmpty(), "the calculator call to wait");
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
    run.update(ToolApprovals.EDIT, ApprovalResult.class, new ApprovalDecision("1",
        io.durableagents.api.Json.tryParse("{\"expression\":\"17 * 24\"}"), "replay", "test"));
    AgentTaskResult result = run.getResult(AgentTaskResult.class);
    if (!result.turns().get(0).outcomes().get(0).output().contains("408")) {
      throw new AssertionError("the edited call did not run: " + result.turns());
    }
    out.put("agent-task-approval.json", new Recorded(id, client.fetchHistory(id)));
  }

  private static void autonomous(WorkflowClient client, Map<String, Recorded> out, String file, String id,
      String spec, String prompt) {
    client.newWorkflowStub(AutonomousAgentWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
        .run(AutonomousAgentInput.root(AgentSpecLoader.load(Path.of("..", "examples", spec)), prompt));
    out.put(file, new Recorded(id, client.fetchHistory(id)));
  }

  /**
   * A simulation that continues as new after step 2 with ReWOO TTL-3 plans and long-term memory: the
   * first run (ending in continue-as-new) and the second (starting from the carried state).
   */
  private static void continued(WorkflowClient client, Map<String, Recorded> out) {
    String id = "sim-epstein-replay-continued";
    client.newWorkflowStub(SimulationWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
        .run(new SimulationInput("epstein", 4, 11, SMALL,
            AgentOptions.newBuilder().setStrategy(Strategy.REWOO).setTtl(3).build(), null, null)
            .withContinueAsNewEvery(2).withMemory(MemoryOptions.of(MemoryKind.LONG_TERM, 1)));
    WorkflowExecutionHistory second = client.fetchHistory(id);
    String firstRunId = second.getEvents().get(0).getWorkflowExecutionStartedEventAttributes()
        .getContinuedExecutionRunId();
    out.put("simulation-continued-run1.json", new Recorded(id, client.fetchHistory(id, firstRunId)));
    out.put("simulation-continued-run2.json", new Recorded(id, second));
  }

  /**
   * A simulation that sets our search attributes (registered on the test server), its roles running
   * different strategies, continued as new after step 2: the first run and the second (which, before {@code
   * every-run-search-attributes}, set none).
   */
  private static void searchAttributes(TestWorkflowEnvironment env, WorkflowClient client,
      Map<String, Recorded> out) {
    for (io.temporal.common.SearchAttributeKey<?> key : io.durableagents.workflows.SearchAttributes.ALL) {
      env.registerSearchAttribute(key.getName(), key.getValueType());
    }
    String id = "sim-epstein-replay-search-attributes";
    client.newWorkflowStub(SimulationWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
        .run(new SimulationInput("epstein", 3, 13, SMALL, AgentOptions.defaults(),
            Map.of("citizen", AgentOptions.newBuilder().setStrategy(Strategy.REWOO).build(),
                "cop", AgentOptions.newBuilder().setStrategy(Strategy.REACT).build()), null, true)
            .withContinueAsNewEvery(2));
    WorkflowExecutionHistory second = client.fetchHistory(id);
    String firstRunId = second.getEvents().get(0).getWorkflowExecutionStartedEventAttributes()
        .getContinuedExecutionRunId();
    out.put("simulation-search-attributes-run1.json", new Recorded(id, client.fetchHistory(id, firstRunId)));
    out.put("simulation-search-attributes-run2.json", new Recorded(id, second));
  }

  /** A simulation that writes a checkpoint every 2 steps, and one on demand while paused. */
  private static void checkpointed(WorkflowClient client, Map<String, Recorded> out) {
    String id = "sim-epstein-replay-checkpointed";
    SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
    WorkflowClient.start(sim::run, new SimulationInput("epstein", 5, 11, SMALL, null, null, null)
        .withCheckpointEvery(2));
    SimulationWorkflow running = client.newWorkflowStub(SimulationWorkflow.class, id);
    running.pause();
    running.checkpoint();
    running.resume();
    client.newUntypedWorkflowStub(id).getResult(SimulationResult.class);
    out.put("simulation-checkpointed.json", new Recorded(id, client.fetchHistory(id)));
  }

  /** A simulation started paused, changed by the intervene update from step 2, across continue-as-new. */
  private static void intervened(WorkflowClient client, Map<String, Recorded> out) {
    String id = "sim-epstein-replay-intervened";
    SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
    io.temporal.client.BatchRequest start = client.newSignalWithStartRequest();
    start.add(sim::run, new SimulationInput("epstein", 3, 11, SMALL, null, null, null).withContinueAsNewEvery(1));
    start.add(sim::pause);
    client.signalWithStart(start);
    SimulationWorkflow running = client.newWorkflowStub(SimulationWorkflow.class, id);
    running.intervene(new io.durableagents.workflows.simulation.InterventionRequest(
        Map.of("legitimacy", "0.2"), 2, "replay"));
    running.resume();
    client.newUntypedWorkflowStub(id).getResult(SimulationResult.class);
    WorkflowExecutionHistory last = client.fetchHistory(id);
    // the first run holds the update; record it
    String first = last.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId();
    while (!first.isEmpty()) {
      WorkflowExecutionHistory h = client.fetchHistory(id, first);
      String previous = h.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId();
      if (previous.isEmpty()) {
        out.put("simulation-intervened.json", new Recorded(id, h));
      }
      first = previous;
    }
  }

  /** An experiment of three runs, two at once: two complete, one fails (a value its check refuses). */
  private static void experiment(WorkflowClient client, Map<String, Recorded> out) {
    String id = "exp-epstein-replay";
    SimulationInput base = new SimulationInput("epstein", 2, 11, SMALL, null, null, null);
    java.util.List<io.durableagents.workflows.experiment.ExperimentRun> runs = new ArrayList<>();
    for (String legitimacy : List.of("0.3", "0.8", "7")) {
      com.fasterxml.jackson.databind.node.ObjectNode params = io.durableagents.api.Json.MAPPER.createObjectNode()
          .put("legitimacy", Double.parseDouble(legitimacy));
      runs.add(new io.durableagents.workflows.experiment.ExperimentRun(runs.size() + 1,
          Map.of("legitimacy", legitimacy), (long) runs.size() + 1, params, null, null, null));
    }
    client.newWorkflowStub(io.durableagents.workflows.experiment.ExperimentWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
        .run(new io.durableagents.workflows.experiment.ExperimentInput("replay", base, runs, 2,
            new io.durableagents.workflows.experiment.ExperimentBudget(10_000L, null), null, null, 40L, null,
            null, null));
    out.put("experiment-grid.json", new Recorded(id, client.fetchHistory(id)));
  }

  private static Path checkpoints() {
    try {
      return Files.createTempDirectory("replay-checkpoints");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A simulation with episodic memory that is paused, resumed and stopped by signals. */
  private static void steered(WorkflowClient client, Map<String, Recorded> out) {
    String id = "sim-epstein-replay-steered";
    SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
    WorkflowClient.start(sim::run, new SimulationInput("epstein", 1000, 11, SMALL, null, null, null)
        .withMemory(MemoryOptions.of(MemoryKind.EPISODIC, 2)));
    SimulationWorkflow running = client.newWorkflowStub(SimulationWorkflow.class, id);
    try {
      while (running.progress().step() < 1) {
        Thread.sleep(20);
      }
      running.pause();
      Thread.sleep(500);
      int held = running.progress().step();
      running.resume();
      while (running.progress().step() < held + 1) {
        Thread.sleep(20);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    running.stop();
    client.newUntypedWorkflowStub(id).getResult(SimulationResult.class);
    out.put("simulation-steered-episodic.json", new Recorded(id, client.fetchHistory(id)));
  }

  private static void simulate(WorkflowClient client, Map<String, Recorded> out, String name, String id,
      AgentOptions options, String agentStepId, String agentStepFile) {
    client.newWorkflowStub(SimulationWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
        .run(new SimulationInput("epstein", 3, 11, SMALL, options, null, null));
    out.put("simulation-epstein-" + name + ".json", new Recorded(id, client.fetchHistory(id)));
    out.put(agentStepFile, new Recorded(agentStepId, client.fetchHistory(agentStepId)));
  }
}
