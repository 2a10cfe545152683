package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.durableagents.testkit.ExecutionJournalCheck;
import io.durableagents.testkit.LocalModelServer;
import io.durableagents.worker.CompletedActivities;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.StrategyFailureTypes;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.llm.LlmFailureTypes;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.tools.ToolFailureTypes;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.TaskQueueType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflowservice.v1.DescribeTaskQueueRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A real model drives it: llama.cpp's server with SmolLM2-135M-Instruct ({@link LocalModelServer}, installed
 * by {@code .ci/run}) behind Temporal's real dev server, a worker process and the command line. A 135M model
 * answers badly, so this asserts the plumbing, not the answers: every agent step completes or fails with
 * one typed line and a hint; no call ran past its per-attempt timeout; the calls and tokens a run reports
 * are what the model server counted; the history holds the model's own text. Skipped without the model or
 * the Temporal CLI, failing under {@code CI=true}.
 *
 * <p>It prints what it measured on this machine: tokens per second and seconds per agent step.
 */
class RealModelEndToEndTest {
  /** Requests the model server serves at once. */
  private static final int SLOTS = 2;
  /**
   * The most tokens an answer may have: the worker's maximum output length, and the server's cap for a
   * request that sets none (a safety net).
   */
  private static final int SERVER_OUTPUT_CAP = 24;
  /**
   * The worker's maximum output length for the strategies' single tasks: a 135M model's answer to them is
   * cut or short at either limit, and what is asserted (the calls and tokens reported are what the server
   * counted, a cut answer's one line naming the limit) is the same; each token is tens of milliseconds of
   * generation on a loaded machine. The simulation's worker keeps {@link #SERVER_OUTPUT_CAP}: its kill waits
   * for calls the server is generating, and a longer answer is a longer time to catch them at it.
   */
  private static final int TASK_OUTPUT_CAP = 12;
  /** The worker's per-attempt timeout of a model call ({@code DURABLE_AGENTS_LLM_TIMEOUT}). */
  private static final Duration PER_ATTEMPT = Duration.ofSeconds(60);
  /**
   * Activities (model and tool calls) the simulation's first worker completes before it is killed: the
   * first of its agent's two calls (a CoT step reasons, then acts), so that the kill cuts the second one, with
   * a call completed before it and the rest of the step after it.
   */
  private static final long CALLS_BEFORE_KILL = 1;
  /** What the worker's overhead may add to an attempt beyond the HTTP call's own timeout. */
  private static final Duration ATTEMPT_SLACK = Duration.ofSeconds(5);
  /** What a failed agent step or run may fail with: a typed cause, each with its hint. */
  private static final Set<String> TYPED_FAILURES = Set.of(StrategyFailureTypes.INVALID_PLAN,
      LlmFailureTypes.TIMED_OUT, LlmFailureTypes.MALFORMED_RESPONSE, LlmFailureTypes.TRANSIENT,
      LlmFailureTypes.INVALID_REQUEST, ToolFailureTypes.TOOL_FAILED, ToolFailureTypes.TOOL_FAILED_PERMANENTLY);
  private static final Pattern REPORTED_TASK = Pattern.compile(
      "Strategy (\\w+): (\\d+) LLM calls?, (\\d+) tool calls?, tokens (\\d+) in / (\\d+) out");
  private static final Pattern FAILED_TASK = Pattern.compile(
      "^agent: the run failed(?: after (\\d+) LLM calls? \\((\\d+) tokens in, (\\d+) out\\))?: (\\w+): (.+)$");

  /** A line of this JVM's log (src/test/resources/logback-test.xml's pattern). */
  private static final Pattern TEST_LOG_LINE = Pattern.compile("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (TRACE|DEBUG|INFO|WARN|ERROR) ");

  private static Path dir;
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("real-model-end-to-end");
  private static LocalModelServer model;
  private static WorkflowServiceStubs service;
  private static WorkflowClient client;
  /** The worker in this JVM (the strategies' runs, the one that takes over from the killed worker). */
  private WorkerInThisJvm inJvmWorker;

  @BeforeAll
  static void startServers() throws Exception {
    Path python = LocalModelServer.pythonForTests();
    assumeTrue(python != null, LocalModelServer.MISSING);
    dir = Files.createDirectories(Path.of("target", "real-model"));
    model = LocalModelServer.newBuilder().python(python).slots(SLOTS).contextPerSlot(2048).toolTemplate()
        .maxOutputTokens(SERVER_OUTPUT_CAP).seed(11).directory(dir).start();
    service = temporal.service();
    client = temporal.client();
  }

  @AfterEach
  void stopWorkers() throws InterruptedException {
    if (inJvmWorker != null) {
      inJvmWorker.close();
      inJvmWorker = null;
    }
    temporal.stopProcesses();
    temporal.terminateOpenRuns(); // a run a failed test left open would take the next test's model calls
  }

  @AfterAll
  static void stopAll() throws InterruptedException {
    if (model != null) {
      model.close();
    }
  }

  /**
   * The worker's environment, in one place: where the model is and its limits: the per-attempt time-out,
   * the maximum output length of every request ({@code DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS}, {@code
   * outputCap}: at most the server's own cap, so that the worker's limit is the one that cuts) and the
   * model's slots ({@code DURABLE_AGENTS_LLM_SLOTS}: the server's, so that calls over them wait in the worker,
   * not the server).
   */
  private static Map<String, String> workerEnvironment(Path journal, int outputCap) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("OPENAI_BASE_URL", model.baseUrl());
    env.put("DURABLE_AGENTS_LLM_TIMEOUT", Long.toString(PER_ATTEMPT.toSeconds()));
    env.put("DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS", Integer.toString(outputCap));
    env.put("DURABLE_AGENTS_LLM_SLOTS", model.modelReference() + "=" + SLOTS);
    env.put("DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString());
    return env;
  }

  /**
   * Starts the worker process that the kill test kills and returns once it polls for workflow tasks (its
   * start is not a model's time).
   */
  private static Process worker(String name, Path journal) throws InterruptedException {
    Process p = temporal.start("384m", dir.resolve(name + ".log"), workerEnvironment(journal, SERVER_OUTPUT_CAP),
        "worker");
    String identity = p.pid() + "@";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (service.blockingStub().describeTaskQueue(DescribeTaskQueueRequest.newBuilder().setNamespace(temporal.name())
            .setTaskQueue(TaskQueue.newBuilder().setName(TaskQueues.AGENTS))
            .setTaskQueueType(TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW).build())
        .getPollersList().stream().noneMatch(poller -> poller.getIdentity().startsWith(identity))) {
      assertTrue(p.isAlive(), name + " died; see " + dir.resolve(name + ".log").toAbsolutePath());
      assertTrue(System.nanoTime() < deadline, name + " did not poll within 120 s");
      Thread.sleep(50);
    }
    return p;
  }

  /** {@code durable-agents <args>} in this JVM against the dev server; its output is also kept in a file. */
  private static CliFailuresTest.Run cli(String... args) throws Exception {
    CliFailuresTest.Run r = CliFailuresTest.run(temporal.env(), args);
    Files.writeString(dir.resolve("cli-" + String.join("_", args).replaceAll("[^A-Za-z0-9.=-]", "_")
        .substring(0, Math.min(80, String.join("_", args).length())) + ".log"), r.out() + r.err());
    return r;
  }

  @Test
  void everyStrategyRunsOnTheRealModelWithinItsLimitsAndReportsWhatTheServerCounted() throws Exception {
    Path journal = dir.resolve("journal-agents.log");
    Files.deleteIfExists(journal);
    // the worker in this JVM: its process is not the point here, and a worker JVM's start is seconds
    inJvmWorker = WorkerInThisJvm.start(temporal, "worker-agents", workerEnvironment(journal, TASK_OUTPUT_CAP));
    List<String> measured = new ArrayList<>();
    Map<String, String[]> runs = new LinkedHashMap<>();
    runs.put("cot", new String[] {"--strategy", "cot"});
    // one turn (and the forced finish after it, or the one correction of a cut answer): at most two calls
    runs.put("react", new String[] {"--strategy", "react", "--max-iterations", "1", "--tools", "calculator"});
    runs.put("react-text", new String[] {"--strategy", "react", "--action-format", "text", "--max-iterations", "1",
        "--tools", "calculator"});
    runs.put("rewoo", new String[] {"--strategy", "rewoo", "--replan-on-failure", "0", "--max-plan-steps", "2",
        "--tools", "calculator"});
    for (Map.Entry<String, String[]> run : runs.entrySet()) {
      String id = "real-agent-" + run.getKey();
      List<String> args = new ArrayList<>(List.of("agent", "--no-worker", "--model", model.modelReference(),
          "--id", id, "-p", "What is 17 * (23 + 4)?"));
      args.addAll(List.of(run.getValue()));
      LocalModelServer.Metrics before = model.metrics();
      long start = System.nanoTime();
      CliFailuresTest.Run r = cli(args.toArray(String[]::new));
      double seconds = (System.nanoTime() - start) / 1e9;
      LocalModelServer.Metrics served = model.metrics().minus(before);
      Reported reported = reportedByAgent(r);

      // the plumbing: what the run reports is what the server counted, each call within its limit
      ModelCalls calls = ModelCalls.of(client, id);
      calls.assertWithinLimits();
      calls.assertRealText(model.alias());
      assertEquals(calls.attempts() - calls.failed(), calls.completed(), id + ": no call was retried " + calls);
      assertEquals(reported.calls(), calls.completed(), id + ": the calls it reports are those in its history");
      assertEquals(reported.calls(), served.requestsStarted(), id + ": requests the server served " + served);
      assertEquals(served.requestsStarted(), served.requestsEnded(), id + ": every request ended " + served);
      assertEquals(reported.input(), served.promptTokens(), id + ": prompt tokens " + served);
      assertEquals(reported.output(), served.generatedTokens(), id + ": generated tokens " + served);
      assertEquals(calls.usageInput(), reported.input(), id);
      assertEquals(calls.usageOutput(), reported.output(), id);
      measured.add(String.format("%s: %s in %.1f s, %d calls, %d tokens in / %d out", run.getKey(),
          reported.failure() == null ? "answered" : "failed (" + reported.failure() + ")", seconds, reported.calls(),
          reported.input(), reported.output()));
    }
    // the history's own timeline shows the model's text
    String shown = cli("show", "real-agent-cot").out();
    assertTrue(shown.contains("llm: " + model.alias() + " (cot-"), shown);
    assertFalse(shown.contains("[rules]"), shown);
    LocalModelServer.Metrics all = model.metrics();
    System.out.printf("real model, one agent per strategy (%d slots, %d tokens cap):%n  %s%n  server: prompt %.0f "
            + "tokens/s, generation %.1f tokens/s per slot%n", SLOTS, TASK_OUTPUT_CAP, String.join("\n  ", measured),
        all.promptTokensPerSecond(), all.generatedTokensPerSecond());
  }

  /**
   * A small Epstein simulation on the real model (a citizen, 1 step) whose worker is killed with {@code kill
   * -9} while its call is being generated on the model server; a new worker (in this JVM: its process is not
   * the point) finishes it. The server counted the calls the run reports plus exactly the attempt that the
   * kill cut (it had its whole prompt evaluated, and the tokens it generated until the server noticed its
   * caller had gone).
   */
  @Test
  void aSmallSimulationOnTheRealModelSurvivesAKillNineOfItsWorkerMidCall() throws Exception {
    String id = "real-sim";
    Path journal = dir.resolve("journal-sim.log");
    Files.deleteIfExists(journal);
    Process first = worker("worker-sim-1", journal);
    LocalModelServer.Metrics before = model.metrics();
    long start = System.nanoTime();
    // 1 agent x 1 step: its first call done before the kill, its second cut by it and run again after it (the
    // size is not the point: each call costs seconds of prompt evaluation on a loaded machine, and one agent's
    // calls follow each other, so that there is always a call to catch generating, never two to catch at once)
    CliFailuresTest.Run started = cli("simulate", "--model", model.modelReference(), "--citizens", "1", "--cops",
        "0", "--width", "4", "--height", "4", "--vision", "1", "--steps", "1", "--seed", "3", "--no-wait", "--id", id);
    assertEquals(0, started.exitCode(), started.out() + started.err());

    // kill mid-run, once the model server is generating every call the worker has in flight
    List<LocalModelServer.BusySlot> cutOff = awaitInFlightGenerating(id, journal, first.pid(), CALLS_BEFORE_KILL,
        Duration.ofSeconds(240));
    first.destroyForcibly().waitFor(); // SIGKILL: the model server's clients go away mid-answer
    for (LocalModelServer.BusySlot slot : cutOff) {
      model.awaitLeft(slot, Duration.ofSeconds(30));
    }
    Set<String> cutAttempts = unfinishedLlmAttempts(journal, first.pid());
    assertEquals(cutOff.size(), cutAttempts.size(), "every call in flight at the kill was on the model server: "
        + cutAttempts + " vs " + cutOff);
    inJvmWorker = WorkerInThisJvm.start(temporal, "worker-sim-2", workerEnvironment(journal, SERVER_OUTPUT_CAP));
    SimulationResult result = client.newUntypedWorkflowStub(id).getResultAsync(SimulationResult.class)
        .get(300, TimeUnit.SECONDS);
    double seconds = (System.nanoTime() - start) / 1e9;
    LocalModelServer.Metrics served = model.metrics().minus(before);

    assertEquals(1, result.steps());
    assertEquals(1, result.agentSteps(), result.toString());
    ModelCalls calls = ModelCalls.of(client, id);
    calls.assertWithinLimits();
    calls.assertRealText(model.alias());
    calls.assertEveryAgentStepCompletedOrFailedTyped();
    assertEquals(result.failedAgentSteps(), calls.failedAgentSteps(), "failed agent steps " + calls);
    assertEquals(result.llmCalls(), calls.completed(), "the calls it reports are those in its history");
    ExecutionJournalCheck.Report journalCheck = ExecutionJournalCheck.assertNoCompletedActivityRanAgain(client, id, journal);
    assertEquals(2, journalCheck.workerProcesses(), "both workers ran calls " + journalCheck);
    assertEquals(cutOff.size(), journalCheck.retriedInFlight(), "the calls in flight at the kill ran again " + journalCheck);
    // each call cut by the kill ran again once on the new worker; no other call was retried
    assertEquals(cutOff.size(), calls.attempts() - calls.completed() - calls.failed(),
        "retried only what the kill cut (a call that failed for good, a time-out on a loaded machine, is no retry) "
        + calls);
    // the server counted the calls the run reports and the attempts the kill cut, and their tokens
    long cutPrompt = cutOff.stream().mapToLong(LocalModelServer.BusySlot::promptTokens).sum();
    long cutGenerated = cutOff.stream().mapToLong(model::generatedTokens).sum();
    assertEquals(result.llmCalls() + cutOff.size(), served.requestsStarted(), "requests " + served);
    assertEquals(served.requestsStarted(), served.requestsEnded(), "every request ended " + served);
    assertEquals(result.usage().input() + cutPrompt, served.promptTokens(), "prompt tokens " + served);
    assertEquals(result.usage().output() + cutGenerated, served.generatedTokens(), "generated tokens " + served);
    assertEquals(calls.usageInput(), result.usage().input());
    assertEquals(calls.usageOutput(), result.usage().output());

    // the command line reports the same run
    CliFailuresTest.Run attached = cli("attach", id, "--progress", "lines");
    assertEquals(0, attached.exitCode(), attached.out() + attached.err());
    assertTrue(attached.out().contains("LLM calls: " + result.llmCalls() + " "), attached.out());
    assertTrue(attached.out().contains("Tokens: " + result.usage().input() + " in, " + result.usage().output() + " out"),
        attached.out());
    System.out.printf("real model, Epstein 1 agent x 1 step (%d slots, %d tokens cap, kill -9 cut %d calls): "
            + "%.1f s, %.1f s per agent step, %d failed agent steps, %d calls, %d tokens in / %d out; server: prompt "
            + "%.0f tokens/s, generation %.1f tokens/s per slot%n", SLOTS, SERVER_OUTPUT_CAP, cutOff.size(), seconds,
        seconds / result.agentSteps(), result.failedAgentSteps(), result.llmCalls(), result.usage().input(),
        result.usage().output(), served.promptTokensPerSecond(), served.generatedTokensPerSecond());
  }

  /**
   * Waits until the worker {@code pid} has completed {@code callsDone} activities and has LLM calls in flight
   * (started, not ended, in its journal), and the model server is generating exactly that many requests
   * (each has its prompt evaluated: what the server counts of a cut request is then its whole prompt and the
   * tokens it generated). The run's agent makes its calls one after the other and each is seconds of prompt
   * evaluation and then of generation, so this catches one; it fails at once if the run {@code id} ends first.
   */
  private static List<LocalModelServer.BusySlot> awaitInFlightGenerating(String id, Path journal, long pid,
      long callsDone, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      Set<String> inFlight = unfinishedLlmAttempts(journal, pid);
      boolean done = CompletedActivities.doneInJournal(journal, 0) >= callsDone;
      if (!inFlight.isEmpty() && done) {
        // only /slots in the loop: the server answers it between two tokens, so a poll is a token's time
        List<LocalModelServer.BusySlot> busy = model.busySlots();
        if (busy.size() == inFlight.size() && busy.stream().allMatch(s -> s.decodedTokens() > 0)
            && unfinishedLlmAttempts(journal, pid).equals(inFlight)) {
          return busy;
        }
      } else if (done && runEnded(id)) {
        fail("the run ended before the worker had a call generating on the model server after " + callsDone
            + " completed; see " + journal.toAbsolutePath());
      }
      Thread.sleep(10);
    }
    fail("the worker never had its calls generating on the model server within " + timeout);
    return List.of();
  }

  private static boolean runEnded(String id) {
    return service.blockingStub().describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
            .setNamespace(temporal.name()).setExecution(WorkflowExecution.newBuilder().setWorkflowId(id)).build())
        .getWorkflowExecutionInfo().getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
  }

  /** LLM call attempts the worker {@code pid} started and never ended, from the execution journal. */
  private static Set<String> unfinishedLlmAttempts(Path journal, long pid) throws Exception {
    Set<String> open = new HashSet<>();
    if (!Files.exists(journal)) {
      return open;
    }
    for (String line : Files.readAllLines(journal)) {
      String[] f = line.split("\t");
      if (f.length < 8 || !f[5].equals(LlmActivities.CHAT_ACTIVITY_TYPE) || !f[6].equals(Long.toString(pid))) {
        continue;
      }
      String attempt = f[2] + "|" + f[7] + "|" + f[3] + "|" + f[4];
      if (f[1].equals("start")) {
        open.add(attempt);
      } else {
        open.remove(attempt);
      }
    }
    return open;
  }

  /**
   * What {@code agent} printed that the run cost, answered or failed. An answer ends with its cost line; an
   * answer that is no good (cut at the output limit) adds one line that names what to change; a failed run
   * prints one typed line naming the cause and what it had spent, then a hint.
   */
  private static Reported reportedByAgent(CliFailuresTest.Run r) {
    Matcher cost = REPORTED_TASK.matcher(r.out());
    // the worker in this JVM logs to the same System.err the command's run captures (a call's retry under
    // load, say): its log lines are not what the command printed
    List<String> lines = r.errLines().stream().filter(line -> !TEST_LOG_LINE.matcher(line).find()).toList();
    if (cost.find()) {
      if (r.exitCode() == 0) {
        assertTrue(lines.isEmpty(), "an answer and nothing else: " + r.err());
      } else {
        assertEquals(1, lines.size(), "one line says what was wrong with the answer: " + r.err());
        assertTrue(lines.get(0).matches("^agent: .+ (raise|set|lower) .*([A-Z][A-Z_]{4,}|--[a-z-]+|max tokens).*"),
            "it names what to change: " + lines.get(0));
      }
      return new Reported(Long.parseLong(cost.group(2)), Long.parseLong(cost.group(4)), Long.parseLong(cost.group(5)),
          r.exitCode() == 0 ? null : lines.get(0).substring("agent: ".length()));
    }
    assertEquals(2, lines.size(), "a failure line and a hint: " + r.err());
    Matcher failed = FAILED_TASK.matcher(lines.get(0));
    assertTrue(failed.matches(), "a typed failure line: " + lines.get(0));
    assertTrue(TYPED_FAILURES.contains(failed.group(4)), "a known cause: " + lines.get(0));
    assertFalse(lines.get(1).isBlank(), "a hint: " + r.err());
    return failed.group(1) == null ? new Reported(0, 0, 0, failed.group(4))
        : new Reported(Long.parseLong(failed.group(1)), Long.parseLong(failed.group(2)),
            Long.parseLong(failed.group(3)), failed.group(4));
  }

  private record Reported(long calls, long input, long output, String failure) {}

  /**
   * The model calls of a workflow and every workflow it started, read from their histories: each completed
   * call's answer and how long its attempt took, the attempts made, and how each agent step ended.
   */
  /**
   * @param attempts every attempt of every LLM call, completed or not
   * @param failed the calls that ended failed (their last attempt is no retry: a time-out under load, say)
   */
  private record ModelCalls(List<Call> calls, long attempts, long failed, Map<String, String> failedSteps, long steps) {
    private static final DataConverter CONVERTER = DefaultDataConverter.newDefaultInstance();

    record Call(String workflowId, LlmResponse response, Duration attempt) {}

    static ModelCalls of(WorkflowClient client, String workflowId) {
      List<Call> calls = new ArrayList<>();
      long attempts = 0;
      long failed = 0;
      Map<String, String> failedSteps = new LinkedHashMap<>();
      long steps = 0;
      for (Map.Entry<String, WorkflowExecutionHistory> run : CompletedActivities.tree(client, workflowId).entrySet()) {
        String id = run.getKey().substring(0, run.getKey().indexOf('|'));
        Map<Long, String> types = new HashMap<>();
        Map<Long, HistoryEvent> started = new HashMap<>();
        for (HistoryEvent e : run.getValue().getEvents()) {
          if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
            types.put(e.getEventId(), e.getActivityTaskScheduledEventAttributes().getActivityType().getName());
          } else if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
            started.put(e.getActivityTaskStartedEventAttributes().getScheduledEventId(), e);
          }
        }
        for (HistoryEvent e : run.getValue().getEvents()) {
          if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
            var done = e.getActivityTaskCompletedEventAttributes();
            if (!LlmActivities.CHAT_ACTIVITY_TYPE.equals(types.get(done.getScheduledEventId()))) {
              continue;
            }
            HistoryEvent start = started.get(done.getScheduledEventId());
            attempts += start.getActivityTaskStartedEventAttributes().getAttempt();
            LlmResponse response = CONVERTER.fromPayloads(0, Optional.of(done.getResult()), LlmResponse.class,
                LlmResponse.class);
            calls.add(new Call(id, response, Duration.ofMillis(millis(e) - millis(start))));
          } else if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED
              || e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT) {
            long scheduled = e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED
                ? e.getActivityTaskFailedEventAttributes().getScheduledEventId()
                : e.getActivityTaskTimedOutEventAttributes().getScheduledEventId();
            if (LlmActivities.CHAT_ACTIVITY_TYPE.equals(types.get(scheduled)) && started.containsKey(scheduled)) {
              attempts += started.get(scheduled).getActivityTaskStartedEventAttributes().getAttempt();
              failed++;
            }
          } else if (id.contains("/agent-") && e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED) {
            steps++;
          } else if (id.contains("/agent-") && e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED) {
            steps++;
            var failure = e.getWorkflowExecutionFailedEventAttributes().getFailure();
            while (failure.hasCause() && !failure.hasApplicationFailureInfo()) {
              failure = failure.getCause();
            }
            failedSteps.put(id, (failure.hasApplicationFailureInfo() ? failure.getApplicationFailureInfo().getType()
                : "untyped") + ": " + failure.getMessage());
          }
        }
      }
      return new ModelCalls(calls, attempts, failed, failedSteps, steps);
    }

    private static long millis(HistoryEvent e) {
      return e.getEventTime().getSeconds() * 1000 + e.getEventTime().getNanos() / 1_000_000;
    }

    long completed() {
      return calls.size();
    }

    long failedAgentSteps() {
      return failedSteps.size();
    }

    long usageInput() {
      return calls.stream().mapToLong(c -> c.response().usage().input()).sum();
    }

    long usageOutput() {
      return calls.stream().mapToLong(c -> c.response().usage().output()).sum();
    }

    /** No call, as the worker timed it and as its attempt stands in the history, ran past its timeout. */
    void assertWithinLimits() {
      assertFalse(calls.isEmpty(), "model calls in the history");
      for (Call c : calls) {
        assertTrue(c.response().latencyMillis() <= PER_ATTEMPT.toMillis(), c.workflowId() + ": a call took "
            + c.response().latencyMillis() + " ms, past the per-attempt timeout of " + PER_ATTEMPT);
        assertTrue(c.attempt().compareTo(PER_ATTEMPT.plus(ATTEMPT_SLACK)) <= 0, c.workflowId() + ": an attempt took "
            + c.attempt() + ", past the per-attempt timeout of " + PER_ATTEMPT);
      }
    }

    /** Every answer in the history is the real model's: its name, its text, no rules-model text. */
    void assertRealText(String alias) {
      for (Call c : calls) {
        assertEquals(alias, c.response().model(), c.workflowId() + ": answered by " + c.response().model());
        String text = c.response().text() == null ? "" : c.response().text();
        assertFalse(text.contains("[rules]"), c.workflowId() + ": " + text);
        assertTrue(!text.isBlank() || !c.response().toolCalls().isEmpty() || c.response().wasCut(),
            c.workflowId() + ": an answer with text or tool calls " + c.response());
        assertTrue(c.response().usage().input() > 0 && c.response().usage().output() > 0, c.workflowId() + ": usage");
      }
    }

    /** Each agent step completed, or failed with one typed line. */
    void assertEveryAgentStepCompletedOrFailedTyped() {
      assertTrue(steps > 0, "agent steps in the history");
      for (Map.Entry<String, String> f : failedSteps.entrySet()) {
        String type = f.getValue().substring(0, f.getValue().indexOf(':'));
        assertTrue(TYPED_FAILURES.contains(type), f.getKey() + " failed untyped or unknown: " + f.getValue());
        assertFalse(f.getValue().substring(type.length() + 1).isBlank(), f.getKey() + " failed without a cause: "
            + f.getValue());
      }
    }
  }
}
