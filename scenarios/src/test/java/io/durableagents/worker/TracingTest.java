package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.model.chat.request.ChatRequest;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.worker.tracing.AgentTracing;
import io.durableagents.worker.tracing.TraceAttributes;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.memory.MemoryKind;
import io.durableagents.workflows.memory.MemoryOptions;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactoryOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Traces into the OpenTelemetry SDK's in-memory exporter: a simulation that continues as new, with
 * memory, is one trace (simulation, steps, agent steps, LLM calls, parent to child, with the GenAI
 * attributes and no prompt text), a task's tool calls are {@code execute_tool} spans, and replaying
 * the histories through the tracing interceptor adds no span.
 */
class TracingTest {
  private static final String MODEL = "recorded";

  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final AgentTracing tracing = AgentTracing.withSpanProcessor(SimpleSpanProcessor.create(exporter));
  private final RecordingChatModel model = new RecordingChatModel(Builtins.rulesModel());
  private final DurableAgentsPlugin plugin = Builtins.plugin()
      .registerModel(MODEL, model).registerModel(BrokenChatModel.NAME, new BrokenChatModel())
      .setTracing(tracing).build();
  private TestWorkflowEnvironment env;

  @AfterEach
  void tearDown() {
    if (env != null) {
      env.close();
    }
    tracing.close();
  }

  private TestEnvironmentOptions options() {
    WorkerFactoryOptions.Builder factory = WorkerFactoryOptions.newBuilder();
    plugin.configureWorkerFactory(factory);
    return TestEnvironmentOptions.newBuilder().setWorkerFactoryOptions(factory.build()).build();
  }

  private WorkflowClient start() {
    env = TestWorkers.start(plugin, options());
    return env.getWorkflowClient();
  }

  @Test
  void aSimulationIsOneTraceOfStepsAgentStepsAndLlmCallsWithTheGenAiAttributes() throws Exception {
    WorkflowClient client = start();
    String id = "sim-traced";
    AgentOptions agents = AgentOptions.newBuilder().setModel(MODEL).setStrategy(Strategy.COT).build();
    SimulationResult result = client.newWorkflowStub(SimulationWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
        .run(new SimulationInput("epstein", 3, 7, EpsteinParameters.DEFAULTS.withAgents(4, 1), agents, null, null)
            .withMemory(MemoryOptions.of(MemoryKind.LONG_TERM, 2)).withContinueAsNewEvery(2));
    assertEquals(2, result.runs(), "the simulation continued as new");

    List<SpanData> spans = exporter.getFinishedSpanItems();
    Map<String, SpanData> byId = spans.stream().collect(Collectors.toMap(SpanData::getSpanId, s -> s));
    assertEquals(spans.size(), byId.size(), "no span id twice");

    List<SpanData> roots = spans.stream().filter(s -> !s.getParentSpanContext().isValid()).toList();
    assertEquals(1, roots.size(), "one root: " + roots);
    SpanData root = roots.get(0);
    assertEquals("simulation epstein", root.getName());
    assertEquals(id, root.getAttributes().get(TraceAttributes.SIMULATION_ID));
    assertEquals(2L, root.getAttributes().get(TraceAttributes.RUNS), "one span across both runs");
    assertEquals(result.llmCalls(), root.getAttributes().get(TraceAttributes.LLM_CALLS));
    assertEquals(result.usage().input(), root.getAttributes().get(TraceAttributes.GEN_AI_USAGE_INPUT_TOKENS));
    for (SpanData s : spans) {
      assertEquals(root.getTraceId(), s.getTraceId(), "one trace: " + s.getName());
      if (s != root) {
        assertTrue(byId.containsKey(s.getParentSpanId()), s.getName() + "'s parent is a span of the trace");
      }
    }

    Map<Long, SpanData> steps = new TreeMap<>();
    for (SpanData s : named(spans, "simulation step ")) {
      assertEquals(root.getSpanId(), s.getParentSpanId());
      assertEquals(id, s.getAttributes().get(TraceAttributes.SIMULATION_ID));
      assertNull(steps.put(s.getAttributes().get(TraceAttributes.SIMULATION_STEP), s), "one span per step");
    }
    assertEquals(Set.of(1L, 2L, 3L), steps.keySet());

    List<SpanData> agentSteps = named(spans, "invoke_agent ");
    assertEquals(result.agentSteps(), agentSteps.size(), "a span per agent step");
    for (SpanData a : agentSteps) {
      SpanData step = byId.get(a.getParentSpanId());
      assertEquals(step.getAttributes().get(TraceAttributes.SIMULATION_STEP),
          a.getAttributes().get(TraceAttributes.SIMULATION_STEP), "an agent step is under its simulation step");
      assertEquals("invoke_agent", a.getAttributes().get(TraceAttributes.GEN_AI_OPERATION_NAME));
      assertEquals(MODEL, a.getAttributes().get(TraceAttributes.GEN_AI_REQUEST_MODEL));
      assertEquals(id, a.getAttributes().get(TraceAttributes.SIMULATION_ID));
      String agent = a.getAttributes().get(TraceAttributes.AGENT_ID);
      assertEquals("invoke_agent " + agent, a.getName());
      assertEquals(id + "/agent-" + agent + "/step-" + a.getAttributes().get(TraceAttributes.SIMULATION_STEP),
          a.getAttributes().get(TraceAttributes.WORKFLOW_ID));
      assertTrue(a.getStartEpochNanos() >= step.getStartEpochNanos()
          && a.getEndEpochNanos() <= step.getEndEpochNanos(), "the step's span holds its agent steps'");
    }

    List<SpanData> calls = named(spans, "chat ");
    assertEquals(result.llmCalls(), calls.size(), "a span per LLM call");
    long input = 0;
    long output = 0;
    int memoryCalls = 0;
    for (SpanData c : calls) {
      assertEquals("chat " + MODEL, c.getName());
      assertEquals("chat", c.getAttributes().get(TraceAttributes.GEN_AI_OPERATION_NAME));
      assertEquals(MODEL, c.getAttributes().get(TraceAttributes.GEN_AI_REQUEST_MODEL));
      assertEquals(id, c.getAttributes().get(TraceAttributes.SIMULATION_ID));
      assertEquals("LlmChat", c.getAttributes().get(TraceAttributes.ACTIVITY_TYPE));
      Long in = c.getAttributes().get(TraceAttributes.GEN_AI_USAGE_INPUT_TOKENS);
      Long out = c.getAttributes().get(TraceAttributes.GEN_AI_USAGE_OUTPUT_TOKENS);
      assertTrue(in != null && in > 0 && out != null && out > 0, "token usage on " + c);
      input += in;
      output += out;
      SpanData parent = byId.get(c.getParentSpanId());
      if (parent.getName().startsWith("simulation step ")) {
        memoryCalls++; // the simulation's own calls: memory consolidation
        assertEquals(parent.getAttributes().get(TraceAttributes.SIMULATION_STEP),
            c.getAttributes().get(TraceAttributes.SIMULATION_STEP));
      } else {
        assertTrue(parent.getName().startsWith("invoke_agent "), "an agent's call is under its agent step");
        assertEquals(parent.getAttributes().get(TraceAttributes.AGENT_ID), c.getAttributes().get(TraceAttributes.AGENT_ID));
      }
    }
    assertTrue(memoryCalls > 0, "memory calls are traced under their step");
    assertEquals(result.usage().input(), input);
    assertEquals(result.usage().output(), output);

    assertNoPromptIn(spans);
  }

  @Test
  void aTasksToolCallsAreExecuteToolSpansUnderTheAgent() {
    WorkflowClient client = start();
    AgentTaskResult result = client.newWorkflowStub(AgentTaskWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("task-traced").build())
        .run(new AgentTaskInput("What is 17 * (23 + 4)?", List.of("calculator"),
            AgentOptions.newBuilder().setModel(MODEL).setStrategy(Strategy.REACT).build()));
    assertTrue(result.toolCalls() > 0, "the task used the calculator");

    List<SpanData> spans = exporter.getFinishedSpanItems();
    SpanData task = single(named(spans, "invoke_agent task"));
    assertFalse(task.getParentSpanContext().isValid());
    assertEquals("invoke_agent", task.getAttributes().get(TraceAttributes.GEN_AI_OPERATION_NAME));
    assertEquals((long) result.llmCalls(), task.getAttributes().get(TraceAttributes.LLM_CALLS));
    List<SpanData> tools = named(spans, "execute_tool ");
    assertEquals(result.toolCalls(), tools.size());
    for (SpanData t : tools) {
      assertEquals("execute_tool calculator", t.getName());
      assertEquals("execute_tool", t.getAttributes().get(TraceAttributes.GEN_AI_OPERATION_NAME));
      assertEquals("calculator", t.getAttributes().get(TraceAttributes.GEN_AI_TOOL_NAME));
      assertNotNull(t.getAttributes().get(TraceAttributes.GEN_AI_TOOL_CALL_ID));
      assertEquals(task.getSpanId(), t.getParentSpanId());
      assertEquals(task.getTraceId(), t.getTraceId());
    }
    assertEquals(result.llmCalls(), named(spans, "chat ").size());
    assertNoPromptIn(spans);
  }

  @Test
  void groupStepsAndSubAgentsAreSpansUnderWhatStartedThem() {
    WorkflowClient client = start();
    String id = "sim-traced-groups";
    SimulationResult result = client.newWorkflowStub(SimulationWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
        .run(new SimulationInput("epstein", 2, 11, EpsteinParameters.DEFAULTS.withAgents(4, 1),
            AgentOptions.newBuilder().setModel(MODEL).build(), null, null).withAgentsPerWorkflow(2));
    List<SpanData> spans = exporter.getFinishedSpanItems();
    Map<String, SpanData> byId = spans.stream().collect(Collectors.toMap(SpanData::getSpanId, s -> s));
    List<SpanData> groups = named(spans, "invoke_agent ");
    // per step: citizens 0 .. 1, citizens 2 .. 3, cop 0 (roles are grouped apart)
    assertEquals(List.of("invoke_agent citizen-0 .. citizen-1", "invoke_agent citizen-2 .. citizen-3",
        "invoke_agent cop-0"), groups.stream().map(SpanData::getName).distinct().sorted().toList());
    assertEquals(6, groups.size());
    long agents = 0;
    for (SpanData g : groups) {
      assertTrue(byId.get(g.getParentSpanId()).getName().startsWith("simulation step "));
      agents += g.getAttributes().get(TraceAttributes.AGENTS);
    }
    assertEquals(result.agentSteps(), agents);
    for (SpanData c : named(spans, "chat ")) {
      SpanData group = byId.get(c.getParentSpanId());
      assertTrue(group.getName().startsWith("invoke_agent "), "a group's calls are under the group");
      String agent = c.getAttributes().get(TraceAttributes.AGENT_ID);
      assertTrue(group.getName().contains(agent.substring(0, agent.indexOf('-'))), agent + " in " + group.getName());
    }

    exporter.reset();
    String lead = "autonomous-traced";
    client.newWorkflowStub(io.durableagents.workflows.autonomous.AutonomousAgentWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(lead).build())
        .run(io.durableagents.workflows.autonomous.AutonomousAgentInput.root(
            io.durableagents.activities.spec.AgentSpecLoader.load(java.nio.file.Path.of("..", "examples",
                "research-lead.yaml")), "What is 17 * 23, 120 / 4 and 2 ^ 10?"));
    spans = exporter.getFinishedSpanItems();
    byId = spans.stream().collect(Collectors.toMap(SpanData::getSpanId, s -> s));
    List<SpanData> roots = spans.stream().filter(s -> !s.getParentSpanContext().isValid()).toList();
    SpanData root = single(roots);
    assertEquals(lead, root.getAttributes().get(TraceAttributes.WORKFLOW_ID));
    assertTrue(root.getName().startsWith("invoke_agent "), root.getName());
    List<SpanData> subAgents = spans.stream().filter(s -> s.getName().startsWith("invoke_agent ")
        && s != root).toList();
    assertFalse(subAgents.isEmpty(), "the lead spawned sub-agents");
    for (SpanData sub : subAgents) {
      assertEquals(root.getSpanId(), sub.getParentSpanId(), "a sub-agent is under its lead");
      assertTrue(sub.getAttributes().get(TraceAttributes.WORKFLOW_ID).startsWith(lead + "/"));
    }
    for (SpanData s : spans) {
      assertEquals(root.getTraceId(), s.getTraceId());
      assertTrue(s == root || byId.containsKey(s.getParentSpanId()), s.getName());
    }
    assertNoPromptIn(spans);
  }

  @Test
  void aWorkflowStartedWithinTheCallersSpanJoinsItsTrace() {
    start();
    io.temporal.client.WorkflowClientOptions.Builder options = io.temporal.client.WorkflowClientOptions.newBuilder()
        .setNamespace(env.getNamespace());
    plugin.configureWorkflowClient(options);
    WorkflowClient client = WorkflowClient.newInstance(env.getWorkflowServiceStubs(), options.build());
    io.opentelemetry.api.trace.Span request = io.opentelemetry.sdk.trace.SdkTracerProvider.builder().build()
        .get("caller").spanBuilder("POST /tasks").startSpan();
    try (io.opentelemetry.context.Scope ignored = request.makeCurrent()) {
      client.newWorkflowStub(AgentTaskWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("task-in-a-trace").build())
          .run(new AgentTaskInput("What is 2 + 2?", List.of("calculator"),
              AgentOptions.newBuilder().setModel(MODEL).build()));
    } finally {
      request.end();
    }
    SpanData task = single(named(exporter.getFinishedSpanItems(), "invoke_agent task"));
    assertEquals(request.getSpanContext().getTraceId(), task.getTraceId());
    assertEquals(request.getSpanContext().getSpanId(), task.getParentSpanId());
    for (SpanData s : exporter.getFinishedSpanItems()) {
      assertEquals(request.getSpanContext().getTraceId(), s.getTraceId(), s.getName());
    }
  }

  @Test
  void failedCallsAndAgentStepsAreSpansInErrorWithTheirFailureTypeAndTheRunGoesOnAsWithoutTracing() {
    WorkflowClient client = start();
    AgentOptions base = AgentOptions.newBuilder().setModel(MODEL).setStrategy(Strategy.REWOO).build();
    SimulationResult result = client.newWorkflowStub(SimulationWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("sim-traced-failures").build())
        .run(new SimulationInput("epstein", 2, 11, EpsteinParameters.DEFAULTS.withAgents(3, 1), base,
            Map.of("cop", base.toBuilder().setModel(BrokenChatModel.NAME).build()), null));
    assertEquals(2, result.failedAgentSteps(), "the cop's steps failed for good, and were skipped");
    List<SpanData> spans = exporter.getFinishedSpanItems();
    List<SpanData> brokenCalls = named(spans, "chat " + BrokenChatModel.NAME);
    assertEquals(2, brokenCalls.size(), "one attempt each: an invalid request is not retried");
    for (SpanData c : brokenCalls) {
      assertEquals(io.opentelemetry.api.trace.StatusCode.ERROR, c.getStatus().getStatusCode());
      assertEquals(io.durableagents.workflows.llm.LlmFailureTypes.INVALID_REQUEST,
          c.getAttributes().get(TraceAttributes.ERROR_TYPE));
      assertEquals("cop-0", c.getAttributes().get(TraceAttributes.AGENT_ID));
    }
    List<SpanData> cops = named(spans, "invoke_agent cop-0");
    assertEquals(2, cops.size());
    for (SpanData cop : cops) {
      assertEquals(io.opentelemetry.api.trace.StatusCode.ERROR, cop.getStatus().getStatusCode());
      assertNotNull(cop.getAttributes().get(TraceAttributes.ERROR_TYPE));
    }
    for (SpanData citizen : named(spans, "invoke_agent citizen-")) {
      assertEquals(io.opentelemetry.api.trace.StatusCode.UNSET, citizen.getStatus().getStatusCode());
    }
    assertEquals(2, named(spans, "simulation step ").size());
    assertEquals(io.opentelemetry.api.trace.StatusCode.UNSET,
        single(named(spans, "simulation epstein")).getStatus().getStatusCode());
  }

  @Test
  void replayingHistoriesThroughTheTracingInterceptorAddsNoSpan() throws Exception {
    WorkflowClient client = start();
    String id = "sim-traced-replay";
    AgentOptions agents = AgentOptions.newBuilder().setModel(MODEL).build();
    client.newWorkflowStub(SimulationWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
        .run(new SimulationInput("epstein", 2, 3, EpsteinParameters.DEFAULTS.withAgents(3, 1), agents, null, null)
            .withMemory(MemoryOptions.of(MemoryKind.LONG_TERM, 2)));
    List<WorkflowExecutionHistory> histories = List.of(client.fetchHistory(id),
        client.fetchHistory(id + "/agent-citizen-0/step-2"));
    // what tracing adds to history: the trace context in each agent step's and each call's header
    int largest = 0;
    for (WorkflowExecutionHistory h : histories) {
      for (io.temporal.api.history.v1.HistoryEvent e : h.getEvents()) {
        if (e.hasActivityTaskScheduledEventAttributes()) {
          largest = Math.max(largest, e.getActivityTaskScheduledEventAttributes().getHeader().getSerializedSize());
        } else if (e.hasStartChildWorkflowExecutionInitiatedEventAttributes()) {
          largest = Math.max(largest, e.getStartChildWorkflowExecutionInitiatedEventAttributes().getHeader()
              .getSerializedSize());
        }
      }
    }
    assertTrue(largest > 0 && largest < 300, "a trace header takes " + largest + " bytes");
    // traced histories replay on workers without tracing too
    for (WorkflowExecutionHistory h : histories) {
      SameResultReplay.replay("traced", h, io.durableagents.workflows.simulation.SimulationWorkflowImpl.class,
          io.durableagents.workflows.agent.AgentStepWorkflowImpl.class);
    }
    if (Boolean.getBoolean("recordHistories")) {
      record("simulation-traced.json", id, histories.get(0));
      record("agent-step-traced.json", id + "/agent-citizen-0/step-2", histories.get(1));
    }
    int before = exporter.getFinishedSpanItems().size();
    assertTrue(before > 0);

    // a worker of its own, as after a restart: it has exported nothing yet, so only replay can stop it
    AgentTracing replayTracing = AgentTracing.withSpanProcessor(SimpleSpanProcessor.create(exporter));
    DurableAgentsPlugin replayPlugin = Builtins.plugin()
        .registerModel(MODEL, model).setTracing(replayTracing).build();
    WorkerFactoryOptions.Builder factory = WorkerFactoryOptions.newBuilder();
    replayPlugin.configureWorkerFactory(factory);
    try (TestWorkflowEnvironment replayEnv = TestWorkflowEnvironment.newInstance(
        TestEnvironmentOptions.newBuilder().setWorkerFactoryOptions(factory.build()).build())) {
      Worker worker = replayWorker(replayEnv, replayPlugin);
      replayPlugin.initializeWorker(TaskQueues.AGENTS, worker);
      for (WorkflowExecutionHistory history : histories) {
        WorkflowReplayer.replayWorkflowExecution(history, worker);
      }
    }
    assertEquals(before, exporter.getFinishedSpanItems().size(), "replay exported nothing");
    // the replay went through the interceptor: the simulation's, its 2 steps' and the agent step's ends
    assertEquals(4, replayTracing.notReemitted());
  }

  @Test
  void everyCheckedInHistoryReplaysThroughTheTracingInterceptorWithoutASpan() throws Exception {
    java.util.Properties ids = new java.util.Properties();
    try (var in = java.nio.file.Files.newBufferedReader(ReplayTest.HISTORIES.resolve(ReplayTest.WORKFLOW_IDS))) {
      ids.load(in);
    }
    WorkerFactoryOptions.Builder factory = WorkerFactoryOptions.newBuilder();
    plugin.configureWorkerFactory(factory);
    int replayed = 0;
    try (TestWorkflowEnvironment replayEnv = TestWorkflowEnvironment.newInstance(
        TestEnvironmentOptions.newBuilder().setWorkerFactoryOptions(factory.build()).build())) {
      Worker worker = replayWorker(replayEnv, plugin);
      plugin.initializeWorker(TaskQueues.AGENTS, worker);
      for (String file : new TreeMap<>(ids).keySet().stream().map(String::valueOf).toList()) {
        WorkflowReplayer.replayWorkflowExecution(WorkflowExecutionHistory.fromJson(
            java.nio.file.Files.readString(ReplayTest.HISTORIES.resolve(file)), ids.getProperty(file)), worker);
        replayed++;
      }
    }
    assertTrue(replayed >= 26, "replayed " + replayed);
    for (String traced : List.of("simulation-traced.json", "agent-step-traced.json")) {
      assertTrue(java.nio.file.Files.readString(ReplayTest.HISTORIES.resolve(traced)).contains("durable-agents-trace"),
          traced + " is a history recorded with tracing on (its commands carry trace headers)");
    }
    assertEquals(List.of(), exporter.getFinishedSpanItems());
    assertTrue(tracing.notReemitted() >= replayed, "every workflow's end was met in replay");
  }

  @Test
  void tracingIsOffUnlessAnExporterIsConfigured() {
    assertFalse(AgentTracing.isConfigured(Map.of()));
    assertFalse(AgentTracing.fromEnvironment(Map.of("OTEL_SERVICE_NAME", "x")).isPresent());
    assertTrue(AgentTracing.isConfigured(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:4318")));
    assertTrue(AgentTracing.isConfigured(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://localhost:4318/v1/traces")));
    assertTrue(AgentTracing.isConfigured(Map.of("OTEL_TRACES_EXPORTER", "console")));
    assertFalse(AgentTracing.isConfigured(Map.of("OTEL_TRACES_EXPORTER", "none",
        "OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:4318")));
    assertFalse(AgentTracing.isConfigured(Map.of("OTEL_SDK_DISABLED", "true",
        "OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:4318")));
    assertFalse(DurableAgentsPlugin.fromEnvironment(Map.of()).tracing().isPresent());
    AgentTracing console = AgentTracing.fromEnvironment(Map.of("OTEL_TRACES_EXPORTER", "console")).orElseThrow();
    assertEquals("console", console.describe());
    console.close();
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> AgentTracing.fromEnvironment(Map.of("OTEL_TRACES_EXPORTER", "carrier-pigeon")));
    assertTrue(bad.getMessage().contains("OTEL_TRACES_EXPORTER") && bad.getMessage().contains("carrier-pigeon"),
        bad.getMessage());
  }

  /** A worker of the agents' queue with the plugin's options (its deadlock timeout on a busy machine). */
  private static Worker replayWorker(TestWorkflowEnvironment env, DurableAgentsPlugin plugin) {
    io.temporal.worker.WorkerOptions.Builder options = io.temporal.worker.WorkerOptions.newBuilder();
    plugin.configureWorker(TaskQueues.AGENTS, options);
    return env.newWorker(TaskQueues.AGENTS, options.build());
  }

  /** Writes a history under {@link ReplayTest#HISTORIES} unless it is there already. */
  private static void record(String file, String workflowId, WorkflowExecutionHistory history) throws Exception {
    java.nio.file.Path path = ReplayTest.HISTORIES.resolve(file);
    if (java.nio.file.Files.exists(path)) {
      return;
    }
    java.nio.file.Files.writeString(path, history.toJson(true));
    java.nio.file.Path ids = ReplayTest.HISTORIES.resolve(ReplayTest.WORKFLOW_IDS);
    List<String> lines = new ArrayList<>(java.nio.file.Files.readAllLines(ids));
    lines.add(file + "=" + workflowId);
    lines.removeIf(String::isBlank);
    java.util.Collections.sort(lines);
    java.nio.file.Files.write(ids, lines);
  }

  /** Attributes hold ids, names and counts: short, and never a line of what a model was sent. */
  private void assertNoPromptIn(List<SpanData> spans) {
    Set<String> lines = new HashSet<>();
    for (ChatRequest r : new ArrayList<>(model.requests)) {
      for (String line : RecordingChatModel.text(r).split("\n")) {
        if (line.strip().length() >= 20) {
          lines.add(line.strip());
        }
      }
    }
    assertFalse(lines.isEmpty());
    Map<String, Integer> checked = new HashMap<>();
    for (SpanData s : spans) {
      s.getAttributes().forEach((AttributeKey<?> key, Object value) -> {
        List<?> values = value instanceof List<?> l ? l : List.of(value);
        for (Object v : values) {
          String text = String.valueOf(v);
          assertTrue(text.length() <= 120, key + " of " + s.getName() + " is long: " + text);
          for (String line : lines) {
            assertFalse(text.contains(line) || (text.length() >= 20 && line.contains(text)),
                key + " of " + s.getName() + " quotes a prompt: " + text);
          }
          checked.merge(key.getKey(), 1, Integer::sum);
        }
      });
    }
    assertTrue(checked.size() > 10, "attributes checked: " + checked.keySet());
  }

  private static List<SpanData> named(List<SpanData> spans, String prefix) {
    return spans.stream().filter(s -> s.getName().startsWith(prefix)).toList();
  }

  private static SpanData single(List<SpanData> spans) {
    assertEquals(1, spans.size(), spans.toString());
    return spans.get(0);
  }
}
