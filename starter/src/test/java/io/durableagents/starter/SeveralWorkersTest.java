package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.testkit.ExecutionJournalCheck;
import io.durableagents.worker.CompletedActivities;
import io.durableagents.worker.WorkerSettings;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.TaskQueueType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.taskqueue.v1.PollerInfo;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflowservice.v1.DescribeTaskQueueRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Three worker processes share a 100-agent simulation ({@link #AGENTS}) on Temporal's real dev server (the
 * Temporal CLI's, started as a user starts it; {@link SharedDevServer}, in a namespace of its own): the
 * histories show workflow and activity tasks taken by each worker's identity. One of them, the one running
 * the simulation's own workflow, is killed with {@code kill -9} once a third of the run's calls are done (a
 * condition on the journal, not a time); the other two finish it with the result of the same seed on a
 * single worker (run in this JVM while the three workers start), and no call that had completed runs
 * again. Prints how long the survivors took to pick up what the killed worker left behind. Most of its
 * time is the three JVMs' starts and, after the kill, the task timeouts the survivors wait out (5-10 s).
 */
class SeveralWorkersTest {
  /**
   * 100 agents in groups of 10 ({@link #GROUP}), ten groups a step, which all three workers take: the
   * build's size (the behaviour does not depend on it; 250 in groups of 25 cost the build twice the calls
   * for the same assertions). {@code -Ddurableagents.severalWorkers.agents=1000
   * -Ddurableagents.severalWorkers.group=50} runs the size the measurements in docs/operations.md were
   * taken at.
   */
  private static final int AGENTS = Integer.getInteger("durableagents.severalWorkers.agents", 100);
  /** Agents per group workflow: a tenth of them by default, so that each step has ten groups. */
  private static final int GROUP = Integer.getInteger("durableagents.severalWorkers.group", Math.max(1, AGENTS / 10));
  private static final int STEPS = 2;
  private static final String NAMED_IDENTITY = "worker-b@several-workers-test";
  private static final String RULES_DELAY_MS = "100";

  private final List<Process> started = new ArrayList<>();
  private Path dir;
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("several-workers");
  /** Where the reference run goes, on a worker of its own, while the three workers start. */
  @RegisterExtension
  static final OnSharedDevServer referenceSpace = new OnSharedDevServer("several-workers-ref");

  @AfterEach
  void stopAll() throws InterruptedException {
    // workers first, then the server (started first): the last started first
    PersistentDevServerIT.stop(started);
  }

  @Test
  void threeWorkersShareARunAndTwoFinishItAfterTheThirdIsKilled() throws Exception {
    long testStart = System.nanoTime();
    dir = Files.createDirectories(Path.of("target", "several-workers"));
    Path journal = dir.resolve("journal.log");
    Files.deleteIfExists(journal);
    WorkflowServiceStubs service = temporal.service();
    WorkflowClient client = temporal.client();
    int cops = AGENTS / 5;
    // one agent in ten cells, whatever the size (100 x 100 for 1,000 agents)
    String side = Long.toString(Math.round(Math.sqrt(AGENTS * 10.0)));
    String[] run = {"simulate", "--steps", Integer.toString(STEPS), "--seed", "3", "--progress", "lines",
        "--citizens", Integer.toString(AGENTS - cops), "--cops", Integer.toString(cops),
        "--width", side, "--height", side, "--vision", "2", "--agents-per-workflow", Integer.toString(GROUP),
        "--max-concurrent-agents", Integer.toString(AGENTS)};

    // 1. three workers; one of them named by DURABLE_AGENTS_WORKER_IDENTITY, two by the default (all three
    // JVMs start at once, first: their starts take longest)
    long workersStart = System.nanoTime();
    Process a = worker("worker-a", journal, null);
    Process b = worker("worker-b", journal, NAMED_IDENTITY);
    Process c = worker("worker-c", journal, null);

    // 2. the reference: the same seed on a single worker (in this JVM), in a namespace of its own, while the
    // three worker processes start (started with --no-wait: a command in this JVM lends its variables to the
    // processes started meanwhile)
    Path referenceJournal = dir.resolve("journal-ref.log");
    Files.deleteIfExists(referenceJournal);
    Map<String, String> referenceSettings = Map.of(
        "DURABLE_AGENTS_EXECUTION_LOG", referenceJournal.toAbsolutePath().toString(),
        "DURABLE_AGENTS_RULES_DELAY_MS", RULES_DELAY_MS);
    // the build's size in this JVM; a larger one in a worker process with a heap of its own
    AutoCloseable referenceWorker = AGENTS <= 250
        ? WorkerInThisJvm.start("several-ref-worker", referenceSpace.env(referenceSettings))
        : referenceSpace.start("1g", dir.resolve("worker-ref.log"), referenceSettings, "worker")::destroyForcibly;
    long referenceStart = System.nanoTime();
    simulate(referenceSpace.env(), PersistentDevServerIT.concat(run, "--no-wait", "--id", "several-ref"));
    CompletableFuture<Duration> referenceTook = referenceSpace.client().newUntypedWorkflowStub("several-ref")
        .getResultAsync(SimulationResult.class).thenApply(r -> Duration.ofNanos(System.nanoTime() - referenceStart));

    Map<String, Process> byIdentity = new LinkedHashMap<>();
    byIdentity.put(awaitPolling("worker-a", a, null, service), a);
    assertEquals(NAMED_IDENTITY, awaitPolling("worker-b", b, NAMED_IDENTITY, service));
    byIdentity.put(NAMED_IDENTITY, b);
    byIdentity.put(awaitPolling("worker-c", c, null, service), c);
    assertEquals(3, byIdentity.size(), byIdentity.keySet().toString());
    Duration workersTook = Duration.ofNanos(System.nanoTime() - workersStart);
    // what a worker's start costs (the JVM, the plugin, the warm-up): on a loaded machine the three starts
    // are most of the test's time
    Map<String, String> startCpu = cpuByIdentity(byIdentity);
    SimulationResult reference;
    try {
      reference = referenceSpace.client().newUntypedWorkflowStub("several-ref")
          .getResultAsync(SimulationResult.class).get(300, TimeUnit.SECONDS);
    } finally {
      referenceWorker.close();
    }
    long referenceCalls = CompletedActivities.doneInJournal(referenceJournal, 0);
    long crashStart = System.nanoTime();
    simulate(temporal.env(), PersistentDevServerIT.concat(run, "--no-wait", "--id", "several-crash"));

    // kill mid-run: once every worker ran calls of this run and a third of its calls are done
    awaitCondition(Duration.ofSeconds(180), "a third of the run with all three workers", () -> {
      List<String[]> crashLines = journalLines(journal, 0);
      long done = crashLines.stream().filter(f -> f[1].equals("done")).count();
      long pids = crashLines.stream().map(f -> f[6]).distinct().count();
      return pids == 3 && done >= referenceCalls / 3;
    });
    // the worker that runs the simulation's own workflow (its sticky queue holds the next task)
    String simulationHolder = lastWorkflowTaskIdentity(client.fetchHistory("several-crash"));
    Process victim = byIdentity.get(simulationHolder);
    assertTrue(victim != null, "the simulation runs on " + simulationHolder + ", not one of " + byIdentity.keySet());
    long callsAtKill = CompletedActivities.doneInJournal(journal, 0);
    Instant killedAt = Instant.now();
    victim.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook, no goodbye to the server
    long killNanos = System.nanoTime();
    assertTrue(callsAtKill < referenceCalls, "the kill must land mid-run: " + callsAtKill + " of "
        + referenceCalls + " calls done");

    SimulationResult crashed = client.newUntypedWorkflowStub("several-crash").getResultAsync(SimulationResult.class)
        .get(180, TimeUnit.SECONDS);
    Duration afterKill = Duration.ofNanos(System.nanoTime() - killNanos);
    Duration crashTook = Duration.ofNanos(System.nanoTime() - crashStart);

    // the single-worker result, at every step
    assertEquals(reference.perStep(), crashed.perStep());
    assertEquals(reference.finalCounts(), crashed.finalCounts());
    assertEquals(reference.llmCalls(), crashed.llmCalls());
    assertEquals(reference.usage(), crashed.usage());

    // no completed call ran again; all three processes ran calls of this run
    ExecutionJournalCheck.Report report =
        ExecutionJournalCheck.assertNoCompletedActivityRanAgain(client, "several-crash", journal);
    assertEquals(3, report.workerProcesses(), report.toString());

    // the histories: each identity took workflow and activity tasks; the killed one none after its kill
    Tasks tasks = tasks(client, "several-crash");
    for (String identity : byIdentity.keySet()) {
      assertTrue(tasks.workflowTasks.getOrDefault(identity, 0) > 0,
          identity + " took no workflow task: " + tasks.workflowTasks);
      assertTrue(tasks.activityTasks.getOrDefault(identity, 0) > 0,
          identity + " took no activity task: " + tasks.activityTasks);
    }
    assertEquals(byIdentity.keySet(), tasks.identities(), "only our three workers took tasks");
    Instant lastByVictim = tasks.lastStarted.get(simulationHolder);
    // a task the server handed to one of its polls in flight at the kill is recorded as started by it
    // just after (18 ms seen); it then times out and goes to another worker. Nothing later than that.
    assertFalse(lastByVictim.isAfter(killedAt.plusSeconds(1)), simulationHolder + " took a task at "
        + lastByVictim + ", over a second after its kill at " + killedAt);
    // the simulation's workflow tasks after the kill were taken by the survivors
    WorkflowExecutionHistory simulation = client.fetchHistory("several-crash");
    List<String> after = workflowTaskIdentitiesAfter(simulation, killedAt.plusSeconds(1));
    assertFalse(after.isEmpty(), "the simulation took workflow tasks after the kill");
    assertFalse(after.contains(simulationHolder), after.toString());

    // what the survivors took over, and when: calls in flight (the journal), workflow tasks timed out
    Takeover takeover = takeover(journal, 0, killedAt, tasks);
    System.out.printf("several workers: %d agents x %d steps in groups of %d; reference on one worker %d s "
            + "(beside the workers' starts, polling after %d s, CPU %s); "
            + "on three workers %d s, with kill -9 of %s (it ran the simulation) after %d of %d calls; the other two "
            + "finished %d s later%n"
            + "  tasks per identity: workflow %s, activity %s%n"
            + "  calls retried because they were in flight: %d; the last one running again %d ms after the kill%n"
            + "  workflow tasks timed out after the kill: %s; the last one taken by a survivor %d ms after the kill%n"
            + "  CPU so far: server (shared by this JVM's classes) %d s, workers %s%n"
            + "  test took %d s%n",
        AGENTS, STEPS, GROUP, referenceTook.get().toSeconds(), workersTook.toSeconds(), startCpu, crashTook.toSeconds(), simulationHolder, callsAtKill, referenceCalls,
        afterKill.toSeconds(), new TreeMap<>(tasks.workflowTasks), new TreeMap<>(tasks.activityTasks),
        report.retriedInFlight(), takeover.lastCallRestartMillis, takeover.timedOut,
        takeover.lastWorkflowTaskMillis, cpuSeconds(SharedDevServer.process()), cpuByIdentity(byIdentity),
        Duration.ofNanos(System.nanoTime() - testStart).toSeconds());
  }

  /** Starts a worker process writing {@code journal}, named {@code identity} (null: the default, {@code <pid>@<host>}). */
  private Process worker(String name, Path journal, String identity) throws Exception {
    Map<String, String> env = new HashMap<>(temporal.env(Map.of(
        "DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString(),
        "DURABLE_AGENTS_RULES_DELAY_MS", RULES_DELAY_MS)));
    if (identity != null) {
      env.put(WorkerSettings.WORKER_IDENTITY, identity);
    }
    Path log = dir.resolve(name + ".log");
    Files.deleteIfExists(log);
    Process p = ChildProcesses.start("1g", log.toFile(), env, "worker");
    started.add(p);
    return p;
  }

  /**
   * Waits until Temporal lists worker {@code p} among the pollers of both our task queues (workflow tasks on
   * the agents queue, activity tasks on the LLM queue); returns its identity.
   */
  private String awaitPolling(String name, Process p, String identity, WorkflowServiceStubs service)
      throws Exception {
    Path log = dir.resolve(name + ".log");
    String[] found = new String[1];
    awaitCondition(Duration.ofSeconds(120), name + " to poll both task queues (" + log + ")", () -> {
      if (!p.isAlive()) {
        throw new AssertionError(name + " exited: " + read(log));
      }
      Set<String> workflowPollers = pollers(service, TaskQueues.AGENTS, TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW);
      Set<String> llmPollers = pollers(service, TaskQueues.LLM, TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY);
      for (String candidate : workflowPollers) {
        boolean ours = identity != null ? candidate.equals(identity) : candidate.startsWith(p.pid() + "@");
        if (ours && llmPollers.contains(candidate)) {
          found[0] = candidate;
          return true;
        }
      }
      return false;
    });
    return found[0];
  }

  /** The identities Temporal lists as polling {@code taskQueue} for {@code type}. */
  private static Set<String> pollers(WorkflowServiceStubs service, String taskQueue, TaskQueueType type) {
    return service.blockingStub().describeTaskQueue(DescribeTaskQueueRequest.newBuilder()
            .setNamespace(temporal.name()).setTaskQueue(TaskQueue.newBuilder().setName(taskQueue))
            .setTaskQueueType(type).build())
        .getPollersList().stream().map(PollerInfo::getIdentity).collect(Collectors.toSet());
  }

  private void simulate(Map<String, String> env, String... args) throws Exception {
    CliFailuresTest.Run r = CliFailuresTest.run(env, args);
    String text = r.out() + r.err();
    Files.writeString(dir.resolve("starter-" + args[args.length - 1] + ".log"), text);
    assertEquals(0, r.exitCode(), text);
  }

  /** Which identities took the workflow and activity tasks of a run (all its workflows, all their runs). */
  private static final class Tasks {
    final Map<String, Integer> workflowTasks = new HashMap<>();
    final Map<String, Integer> activityTasks = new HashMap<>();
    final Map<String, Instant> lastStarted = new HashMap<>();
    /** WorkflowTaskTimedOut after the kill: when the next WorkflowTaskStarted of that workflow came. */
    final List<HistoryEvent[]> timedOutThenStarted = new ArrayList<>();

    Set<String> identities() {
      Set<String> all = new HashSet<>(workflowTasks.keySet());
      all.addAll(activityTasks.keySet());
      return all;
    }
  }

  private static Tasks tasks(WorkflowClient client, String workflowId) {
    Tasks tasks = new Tasks();
    for (WorkflowExecutionHistory run : CompletedActivities.tree(client, workflowId).values()) {
      HistoryEvent timedOut = null;
      for (HistoryEvent e : run.getEvents()) {
        String identity = null;
        if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) {
          identity = e.getWorkflowTaskStartedEventAttributes().getIdentity();
          tasks.workflowTasks.merge(identity, 1, Integer::sum);
          if (timedOut != null) {
            tasks.timedOutThenStarted.add(new HistoryEvent[] {timedOut, e});
            timedOut = null;
          }
        } else if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
          identity = e.getActivityTaskStartedEventAttributes().getIdentity();
          tasks.activityTasks.merge(identity, 1, Integer::sum);
        } else if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT) {
          timedOut = e;
        }
        if (identity != null) {
          Instant at = instant(e);
          tasks.lastStarted.merge(identity, at, (x, y) -> x.isAfter(y) ? x : y);
        }
      }
    }
    return tasks;
  }

  private static String lastWorkflowTaskIdentity(WorkflowExecutionHistory history) {
    String identity = null;
    for (HistoryEvent e : history.getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) {
        identity = e.getWorkflowTaskStartedEventAttributes().getIdentity();
      }
    }
    return identity;
  }

  private static List<String> workflowTaskIdentitiesAfter(WorkflowExecutionHistory history, Instant at) {
    List<String> identities = new ArrayList<>();
    for (HistoryEvent e : history.getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED && instant(e).isAfter(at)) {
        identities.add(e.getWorkflowTaskStartedEventAttributes().getIdentity());
      }
    }
    return identities;
  }

  private static Instant instant(HistoryEvent e) {
    return Instant.ofEpochSecond(e.getEventTime().getSeconds(), e.getEventTime().getNanos());
  }

  /** How long after the kill the survivors picked up what it left behind. */
  private record Takeover(long lastCallRestartMillis, Map<String, Integer> timedOut, long lastWorkflowTaskMillis) {}

  private static Takeover takeover(Path journal, int skip, Instant killedAt, Tasks tasks) {
    // a call in flight at the kill runs again in a later attempt: when did the last such attempt start?
    long lastRestart = journalLines(journal, skip).stream()
        .filter(f -> f[1].equals("start") && Integer.parseInt(f[4]) > 1)
        .mapToLong(f -> Long.parseLong(f[0]) - killedAt.toEpochMilli()).max().orElse(0);
    Map<String, Integer> kinds = new TreeMap<>();
    long lastWorkflowTask = 0;
    for (HistoryEvent[] pair : tasks.timedOutThenStarted) {
      if (instant(pair[0]).isBefore(killedAt)) {
        continue;
      }
      kinds.merge(pair[0].getWorkflowTaskTimedOutEventAttributes().getTimeoutType().name()
          .replace("TIMEOUT_TYPE_", "").toLowerCase(), 1, Integer::sum);
      lastWorkflowTask = Math.max(lastWorkflowTask, Duration.between(killedAt, instant(pair[1])).toMillis());
    }
    return new Takeover(lastRestart, kinds, lastWorkflowTask);
  }

  /** CPU seconds a live process and its descendants used (the dev server runs the CLI as a child). */
  private static long cpuSeconds(Process p) {
    return cpuMillis(p) / 1000;
  }

  /** The same in milliseconds. */
  private static long cpuMillis(Process p) {
    Duration cpu = p.info().totalCpuDuration().orElse(Duration.ZERO);
    for (ProcessHandle child : p.descendants().toList()) {
      cpu = cpu.plus(child.info().totalCpuDuration().orElse(Duration.ZERO));
    }
    return cpu.toMillis();
  }

  private static Map<String, String> cpuByIdentity(Map<String, Process> byIdentity) {
    Map<String, String> cpu = new TreeMap<>();
    byIdentity.forEach((identity, p) -> cpu.put(identity, p.isAlive() ? cpuMillis(p) / 100 / 10.0 + " s" : "killed"));
    return cpu;
  }

  /** The journal's lines after the first {@code skip}, split into their fields (complete lines only). */
  private static List<String[]> journalLines(Path journal, int skip) {
    try (Stream<String> lines = Files.lines(journal)) {
      return lines.skip(skip).map(l -> l.split("\t")).filter(f -> f.length >= 8).toList();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void awaitCondition(Duration timeout, String what, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "waited " + timeout.toSeconds() + " s for " + what);
      Thread.sleep(50);
    }
  }
}
