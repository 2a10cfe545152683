package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.durableagents.devserver.LocalTemporal;
import io.durableagents.devserver.TemporalCli;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Traces across a {@code kill -9}: a simulation (3 steps of 2 agents, one agent step at a time, each
 * LLM call 800 ms) runs on a worker process that traces into a file as each span ends ({@link
 * TracingWorkerMain}). In step 2, after an agent's first LLM call and during its second, the worker is
 * killed; a second worker (no sticky queue: it replays the simulation's whole history at every task)
 * finishes the run. Then every LLM call the histories completed has exactly one span, of the attempt
 * that completed it; every agent step, every simulation step and the simulation have exactly one; step
 * 2, begun on the first worker, was exported by the second; and every span's parent is in the file.
 */
class TracingKillTest {
  private static final String ID = "sim-traced-kill";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<Process> workers = new ArrayList<>();
  private LocalTemporal server;
  private WorkflowServiceStubs service;
  private Path dir;

  @AfterEach
  void stopAll() throws InterruptedException {
    for (Process w : workers) {
      w.destroyForcibly().waitFor();
    }
    if (service != null) {
      service.shutdownNow();
    }
    if (server != null) {
      server.close();
    }
  }

  private Process worker(String name, Path journal, Path spans) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // small and quick to start, as the test kit starts its child workers (KillNineHarness)
        "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    if (Runtime.version().feature() >= 24) {
      command.addAll(List.of("--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED"));
    }
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    command.addAll(List.of("-cp", classpath, TracingWorkerMain.class.getName()));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".log").toFile()));
    pb.environment().put("TEMPORAL_ADDRESS", server.target());
    pb.environment().put(WorkerSettings.EXECUTION_LOG, journal.toAbsolutePath().toString());
    pb.environment().put(TracingWorkerMain.TRACE_FILE, spans.toAbsolutePath().toString());
    // long enough that the kill lands inside the call it waits for, even on a busy machine
    pb.environment().put(WorkerSettings.RULES_DELAY_MS, "800");
    // No sticky queue: the next workflow task goes to any worker at once, and replays the whole history.
    pb.environment().put(WorkerSettings.STICKY, "off");
    Process p = pb.start();
    workers.add(p);
    return p;
  }

  /** The journal's lines as {@code [millis, event, workflow, activity, attempt, type, pid, run]}. */
  private static List<String[]> journal(Path journal) {
    try {
      return Files.exists(journal)
          ? Files.readAllLines(journal).stream().map(l -> l.split("\t")).filter(f -> f.length >= 8).toList()
          : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void await(String what, Process worker, Path journal, Predicate<List<String[]>> condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      if (condition.test(journal(journal))) {
        return;
      }
      if (!worker.isAlive()) {
        fail("the worker died before " + what);
      }
      Thread.sleep(10);
    }
    fail("timed out waiting for " + what);
  }

  /**
   * An agent step of simulation step 2 whose first LLM call is done and whose second is running. One
   * agent step runs at a time, so no workflow task is running anywhere: the kill lands inside a call.
   */
  private static boolean secondCallOfAStep2AgentRunning(List<String[]> lines) {
    Map<String, Set<String>> started = new HashMap<>();
    Map<String, Set<String>> done = new HashMap<>();
    for (String[] f : lines) {
      if (!f[5].equals("LlmChat") || !f[2].endsWith("/step-2")) {
        continue;
      }
      (f[1].equals("start") ? started : done).computeIfAbsent(f[2], k -> new HashSet<>()).add(f[3]);
    }
    for (Map.Entry<String, Set<String>> e : started.entrySet()) {
      Set<String> finished = done.getOrDefault(e.getKey(), Set.of());
      if (!finished.isEmpty() && finished.size() < e.getValue().size()) {
        return true;
      }
    }
    return false;
  }

  @Test
  void aWorkerKilledMidRunLeavesExactlyOneSpanPerCompletedCallAgentStepAndSimulationStep() throws Exception {
    dir = Files.createDirectories(Path.of("target", "tracing-kill"));
    Path journal = dir.resolve("journal.log");
    Path spansFile = dir.resolve("spans.jsonl");
    Files.deleteIfExists(journal);
    Files.deleteIfExists(spansFile);
    Path cli = TemporalCli.forTests();
    assumeTrue(cli != null, TemporalCli.MISSING);
    for (String suffix : List.of("", "-wal", "-shm")) {
      Files.deleteIfExists(dir.resolve("temporal.db" + suffix));
    }
    server = LocalTemporal.startDevServer(cli, dir.resolve("temporal.db"), line -> { });
    service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget(server.target()).build());
    WorkflowClient client = WorkflowClient.newInstance(service);

    Process first = worker("worker-1", journal, spansFile);
    SimulationWorkflow simulation = client.newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(ID).build());
    WorkflowClient.start(simulation::run, new SimulationInput("epstein", 3, 5,
        // a citizen and a cop: each of their steps makes two LLM calls of 800 ms, which is all the kill needs
        EpsteinParameters.DEFAULTS.withAgents(1, 1), AgentOptions.defaults(), null, 1));
    await("an agent's second LLM call in step 2", first, journal, TracingKillTest::secondCallOfAStep2AgentRunning);
    first.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook, no flush
    String firstPid = Long.toString(first.pid());
    Process second = worker("worker-2", journal, spansFile);
    SimulationResult result = client.newUntypedWorkflowStub(ID).getResult(120, TimeUnit.SECONDS,
        SimulationResult.class);
    second.destroy();
    String secondPid = Long.toString(second.pid());
    assertEquals(3, result.steps());

    // What the histories say completed: every LLM call (workflow, activity id, attempt) and agent step.
    Map<String, Integer> completedCalls = new HashMap<>();
    Set<String> workflows = new LinkedHashSet<>(List.of(ID));
    for (HistoryEvent e : client.fetchHistory(ID).getEvents()) {
      if (e.hasStartChildWorkflowExecutionInitiatedEventAttributes()) {
        workflows.add(e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId());
      }
    }
    for (String workflow : workflows) {
      Map<Long, String[]> scheduled = new HashMap<>();
      Map<Long, Integer> attempts = new HashMap<>();
      for (HistoryEvent e : client.fetchHistory(workflow).getEvents()) {
        if (e.hasActivityTaskScheduledEventAttributes()) {
          var a = e.getActivityTaskScheduledEventAttributes();
          scheduled.put(e.getEventId(), new String[] {a.getActivityId(), a.getActivityType().getName()});
        } else if (e.hasActivityTaskStartedEventAttributes()) {
          attempts.put(e.getEventId(), e.getActivityTaskStartedEventAttributes().getAttempt());
        } else if (e.hasActivityTaskCompletedEventAttributes()) {
          var c = e.getActivityTaskCompletedEventAttributes();
          String[] s = scheduled.get(c.getScheduledEventId());
          if (s[1].equals("LlmChat")) {
            completedCalls.put(workflow + "#" + s[0], attempts.get(c.getStartedEventId()));
          }
        }
      }
    }
    assertEquals(result.llmCalls(), completedCalls.size());
    assertEquals(result.agentSteps() + 1, workflows.size());
    assertTrue(completedCalls.containsValue(2), "the call in flight at the kill was retried: " + completedCalls);

    List<JsonNode> spans = new ArrayList<>();
    for (String line : Files.readAllLines(spansFile)) {
      spans.add(JSON.readTree(line));
    }
    Map<String, JsonNode> byId = new HashMap<>();
    for (JsonNode s : spans) {
      assertNull(byId.put(s.get("span").asText(), s), "span id exported twice: " + s);
    }

    // Every completed LLM call: exactly one span, of the attempt that completed it; no other chat span.
    Map<String, List<JsonNode>> chats = new HashMap<>();
    for (JsonNode s : spans) {
      if (s.get("name").asText().startsWith("chat ")) {
        JsonNode a = s.get("attributes");
        chats.computeIfAbsent(a.get("temporal.workflow.id").asText() + "#" + a.get("temporal.activity.id").asText(),
            k -> new ArrayList<>()).add(s);
      }
    }
    assertEquals(completedCalls.keySet(), chats.keySet(), "a span for each completed call, and no other");
    for (Map.Entry<String, Integer> call : completedCalls.entrySet()) {
      List<JsonNode> forCall = chats.get(call.getKey());
      assertEquals(1, forCall.size(), "one span for " + call.getKey() + ": " + forCall);
      assertEquals(Integer.toString(call.getValue()),
          forCall.get(0).get("attributes").get("temporal.activity.attempt").asText());
      assertEquals("chat", forCall.get(0).get("attributes").get("gen_ai.operation.name").asText());
    }

    // Every agent step, simulation step and the simulation: exactly one span, whatever replayed.
    Map<String, Integer> agentSteps = new HashMap<>();
    Map<String, JsonNode> steps = new HashMap<>();
    List<JsonNode> roots = new ArrayList<>();
    for (JsonNode s : spans) {
      String name = s.get("name").asText();
      if (name.startsWith("invoke_agent ")) {
        agentSteps.merge(s.get("attributes").get("temporal.workflow.id").asText(), 1, Integer::sum);
      } else if (name.startsWith("simulation step ")) {
        assertNull(steps.put(s.get("attributes").get("durable_agents.simulation.step").asText(), s), name);
      } else if (name.equals("simulation epstein")) {
        roots.add(s);
      }
    }
    Set<String> children = new HashSet<>(workflows);
    children.remove(ID);
    assertEquals(children, agentSteps.keySet());
    assertTrue(agentSteps.values().stream().allMatch(n -> n == 1), "one span per agent step: " + agentSteps);
    assertEquals(Set.of("1", "2", "3"), steps.keySet());
    assertEquals(1, roots.size());
    assertEquals(secondPid, roots.get(0).get("pid").asText());

    // Step 2 began on the first worker (spans under it were written there) and ended on the second,
    // which exported it.
    JsonNode step2 = steps.get("2");
    assertEquals(secondPid, step2.get("pid").asText(), "the step that straddled the kill was exported by worker 2");
    assertEquals(firstPid, steps.get("1").get("pid").asText());
    boolean underStep2OnFirst = false;
    for (JsonNode s : spans) {
      if (s.get("pid").asText().equals(firstPid) && isUnder(s, step2, byId)) {
        underStep2OnFirst = true;
      }
    }
    assertTrue(underStep2OnFirst, "worker 1 wrote spans under step 2 before it died");

    // One trace, every parent present.
    JsonNode root = roots.get(0);
    for (JsonNode s : spans) {
      assertEquals(root.get("trace").asText(), s.get("trace").asText());
      if (s != root) {
        assertTrue(byId.containsKey(s.get("parent").asText()), "the parent of " + s + " was exported");
      }
    }
    assertTrue(root.get("parent").isNull());
    assertEquals(List.of("simulation step 1"), spans.stream().filter(s -> s.get("pid").asText().equals(firstPid)
        && s.get("name").asText().startsWith("simulation")).map(s -> s.get("name").asText()).toList(),
        "worker 1 ended step 1 only");
  }

  private static boolean isUnder(JsonNode span, JsonNode ancestor, Map<String, JsonNode> byId) {
    JsonNode at = span;
    for (int depth = 0; depth < 10 && at != null && !at.get("parent").isNull(); depth++) {
      if (at.get("parent").asText().equals(ancestor.get("span").asText())) {
        return true;
      }
      at = byId.get(at.get("parent").asText());
    }
    return false;
  }
}
