package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.durableagents.testkit.WorkflowHistories;
import io.durableagents.worker.CompletedActivities;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.WorkerSettings;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.SimulationProgress;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.api.enums.v1.TaskQueueType;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflowservice.v1.DescribeTaskQueueRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * As a user runs them: the real dev server, a worker process killed with {@code kill -9} midway and a new
 * worker that takes over, and the starter CLI. The Epstein demo runs once undisturbed, and once with its
 * worker killed. The interrupted run must end with the same counts at every step, and no LLM or tool call
 * that had completed may have run again. Each kill is timed by the crash run alone (a step reached, a call
 * of a step done), so the undisturbed reference run goes on at the same time as the crash run, in a
 * namespace of its own ({@link #referenceSpace}) with a worker of its own, so that neither takes the
 * other's tasks. Only the killed worker needs a process of its own: the reference's worker and the worker
 * that takes over run in this JVM ({@link WorkerInThisJvm}; a worker JVM's start cost 7 to 17 s on a loaded
 * machine), as the commands do. Each test's crash run has a namespace of its own too, whose worker process
 * ({@link #killable}) starts while the test before it runs (the tests run in a fixed order), so that the
 * second and third tests find theirs polling and the first does not wait for three JVMs starting at once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EndToEndTest {
  /** Enough steps for a kill a third of the way in to land mid-run (the run's length is not the point). */
  private static final int STEPS = 6;
  private static final long SEED = 7;
  /**
   * The simulations' agents: 10, not the default 25 (each agent step is a child workflow and two calls):
   * a kill still lands with agents in the middle of their steps and their plans; the size is not the point.
   */
  private static final String[] AGENTS = {"--citizens", "8", "--cops", "2"};

  private static Path dir;
  /** The crash runs of the first test (a kill mid-run). */
  @RegisterExtension
  static final OnSharedDevServer midRunSpace = new OnSharedDevServer("end-to-end");
  /** The crash runs of the TTL plans' test. */
  @RegisterExtension
  static final OnSharedDevServer ttlSpace = new OnSharedDevServer("end-to-end-ttl");
  /** The crash runs and the steered run of the continue-as-new test. */
  @RegisterExtension
  static final OnSharedDevServer canSpace = new OnSharedDevServer("end-to-end-can");
  /** Where the undisturbed reference runs go, beside the crash runs: their own namespace and worker. */
  @RegisterExtension
  static final OnSharedDevServer referenceSpace = new OnSharedDevServer("end-to-end-ref");
  /**
   * The worker process each test kills, by its namespace, each writing its test's execution journal
   * ({@link #journalOf}): the first test's started with the class, each next one's once the test before
   * it has its worker polling ({@link #killableWorker}), so that its JVM starts while that test runs.
   */
  private static final Map<OnSharedDevServer, Process> killable = new HashMap<>();
  private static ExecutorService references;
  /** The reference runs' worker, in this JVM: an undisturbed run's worker process is not the point. */
  private static WorkerInThisJvm referenceWorker;
  /** The running test's namespace and a client of it ({@link #killableWorker}). */
  private OnSharedDevServer temporal;
  private WorkflowClient client;
  /** The worker that takes over from the killed one, in this JVM; stopped after each test. */
  private WorkerInThisJvm takeover;

  @BeforeAll
  static void startServer() throws Exception {
    dir = Files.createDirectories(Path.of("target", "e2e"));
    startKillable(midRunSpace);
    references = Executors.newCachedThreadPool();
    referenceWorker = WorkerInThisJvm.start(referenceSpace, "reference-worker", Map.of());
  }

  @AfterAll
  static void stopReferences() {
    references.shutdownNow();
    if (referenceWorker != null) {
      referenceWorker.close();
    }
    killable.clear(); // the processes are killed with their namespaces
  }

  @AfterEach
  void stopWorkers() throws InterruptedException {
    // a run a failed test left open would be taken by a later test's reference worker (its own namespace's
    // runs have no other worker)
    if (takeover != null) {
      takeover.close();
      takeover = null;
    }
    if (temporal != null) {
      temporal.terminateOpenRuns();
      killable.get(temporal).destroyForcibly().waitFor();
    }
    referenceSpace.terminateOpenRuns();
  }

  /** Starts the worker process of {@code space}'s test, unless it is started. */
  private static void startKillable(OnSharedDevServer space) throws java.io.IOException {
    if (!killable.containsKey(space)) {
      Files.deleteIfExists(journalOf(space));
      killable.put(space, space.start("384m", dir.resolve("worker-" + space.name() + ".log"),
          journal(journalOf(space)), "worker"));
    }
  }

  /** The execution journal of the worker processes of {@code space}'s test. */
  private static Path journalOf(OnSharedDevServer space) {
    return dir.resolve("journal-" + space.name() + ".log");
  }

  /**
   * Makes {@code space} the running test's namespace (its commands, its client) and returns the worker
   * process the test kills there, once it polls for workflow tasks: a run given to a worker still starting
   * can take longer than a workflow task's timeout on a loaded machine. Then starts the next test's.
   */
  private Process killableWorker(OnSharedDevServer space) throws Exception {
    temporal = space;
    client = space.client();
    startKillable(space); // a test run alone
    Process p = killable.get(space);
    String identity = p.pid() + "@";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (space.service().blockingStub().describeTaskQueue(DescribeTaskQueueRequest.newBuilder()
            .setNamespace(space.name()).setTaskQueue(TaskQueue.newBuilder().setName(TaskQueues.AGENTS))
            .setTaskQueueType(TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW).build())
        .getPollersList().stream().noneMatch(poller -> poller.getIdentity().startsWith(identity))) {
      assertTrue(p.isAlive(), "the worker of " + space.name() + " died; see its log in " + dir.toAbsolutePath());
      assertTrue(System.nanoTime() < deadline, "the worker of " + space.name() + " did not poll within 120 s");
      Thread.sleep(50);
    }
    List<OnSharedDevServer> order = List.of(midRunSpace, ttlSpace, canSpace);
    int next = order.indexOf(space) + 1;
    if (next < order.size()) {
      startKillable(order.get(next));
    }
    return p;
  }

  /** The worker that takes over from the killed one, in this JVM, writing the same journal. */
  private void takeOver(String name) {
    takeover = WorkerInThisJvm.start(temporal, name, journal(journalOf(temporal)));
  }

  private static Map<String, String> journal(Path journal) {
    return Map.of(WorkerSettings.EXECUTION_LOG, journal.toAbsolutePath().toString());
  }

  /**
   * Runs {@code durable-agents <args>} in this JVM against the server (a JVM per command cost this test
   * a minute of CPU on two cores); returns what it printed (stdout, then stderr), also kept in a log file.
   * One command at a time: while a reference run's command follows its run ({@link #referenceRun}), a
   * command of the test waits for it.
   */
  private String starter(String... args) throws Exception {
    return starter(temporal, args);
  }

  /** {@link #starter(String...)} in {@code namespace}. */
  private static String starter(OnSharedDevServer namespace, String... args) throws Exception {
    Path log = dir.resolve("starter-" + args[0] + "-" + args[args.length - 1].replaceAll("[^A-Za-z0-9.-]", "_") + ".log");
    CliFailuresTest.Run r = CliFailuresTest.run(namespace.env(), args);
    String text = r.out() + r.err();
    Files.writeString(log, text);
    assertEquals(0, r.exitCode(), text);
    return text;
  }

  /** What an undisturbed reference run printed and its result. */
  private record Reference(String out, SimulationResult result) {}

  /**
   * Starts the undisturbed reference run {@code durable-agents <args>} (its id last) in {@link #referenceSpace},
   * on {@link #referenceWorker}, its command in this JVM following it to its end, while the test goes on
   * with the crash run; {@link #await} gives what it printed and its result. The command holds this JVM's
   * command line until the run ends ({@link #starter}): start the crash run before, and run the test's
   * other commands after {@link #await}.
   */
  private static Future<Reference> referenceRun(String... args) {
    return references.submit(() -> {
      String out = starter(referenceSpace, args);
      return new Reference(out, referenceSpace.client().newUntypedWorkflowStub(args[args.length - 1])
          .getResultAsync(SimulationResult.class).get(180, TimeUnit.SECONDS));
    });
  }

  /** The reference run's output and result, or what failed it, as thrown there. */
  private static Reference await(Future<Reference> run) throws Exception {
    try {
      return run.get(600, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw (Exception) e.getCause();
    }
  }

  @Test
  @Order(1)
  void aWorkerKilledMidRunIsReplacedAndTheRunEndsAsIfNothingHappened() throws Exception {
    Process w1 = killableWorker(midRunSpace);
    Path crashJournal = journalOf(midRunSpace);
    String[] run = concat(new String[] {"simulate", "--steps", Integer.toString(STEPS), "--seed",
        Long.toString(SEED)}, AGENTS);

    // 1. the run whose worker is killed midway
    starter(concat(run, "--no-wait", "--id", "e2e-crash"));
    // 2. the undisturbed reference run, through the CLI, beside it
    Future<Reference> referenceRun = referenceRun(concat(run, "--id", "e2e-ref"));

    SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class, "e2e-crash");
    int stepAtKill = awaitStep(sim, STEPS / 3);
    w1.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook, no goodbye to the server
    assertTrue(stepAtKill < STEPS, "the kill must land mid-run, was at step " + stepAtKill);
    takeOver("worker-2");
    SimulationResult crashed = result("e2e-crash");
    Reference ref = await(referenceRun);
    assertTrue(ref.out().contains("Final counts: "), ref.out());
    assertTrue(ref.out().contains(STEPS + "/" + STEPS), ref.out());
    SimulationResult reference = ref.result();

    // first: the same counts at every step as the undisturbed run
    assertEquals(reference.perStep(), crashed.perStep());
    assertEquals(reference.finalCounts(), crashed.finalCounts());
    assertEquals(reference.llmCalls(), crashed.llmCalls());

    // second: no call that had completed ran again
    int retriedInFlight = assertNoCompletedCallRanAgain("e2e-crash", crashJournal);
    // the other commands, on the finished runs
    String list = starter("list");
    assertTrue(list.contains("e2e-crash") && list.contains("completed") && !list.contains("e2e-ref"), list);
    String referenceList = starter(referenceSpace, "list");
    assertTrue(referenceList.contains("e2e-ref") && referenceList.contains("completed"), referenceList);
    String describe = starter("describe", "e2e-crash");
    assertTrue(describe.contains("Status:        completed") && describe.contains("Counts per step:"), describe);
    assertTrue(describe.contains("Scenario=\"epstein\"") && describe.contains("SimStep=" + STEPS), describe);
    String show = starter("show", "e2e-crash/agent-citizen-0/step-1");
    assertTrue(show.contains("llm: rules (cot-reasoning, tool choice none)"), show);
    assertTrue(show.contains(" out tokens (at most 512), "), "the maximum output length each call sent: " + show);
    assertTrue(show.contains("[rules] This answer comes from a rule-based policy, not an LLM."), show);
    // a simulation in group steps: show prints each call of a group with its agent
    starter(concat(new String[] {"simulate", "--steps", "2", "--agents-per-workflow", "10", "--progress", "lines",
        "--id", "e2e-groups"}, AGENTS));
    String group = starter("show", "e2e-groups/step-1/group-1");
    assertTrue(group.contains("started AgentGroupStep e2e-groups/step-1/group-1")
        && group.contains("llm: rules · citizen-0 (cot-reasoning, tool choice none)"), group);
    Path exported = dir.resolve("e2e-crash-history.json");
    starter("history", "e2e-crash", "-o", exported.toAbsolutePath().toString());
    WorkflowHistories.replay(DurableAgentsPlugin.newBuilder().configureFromClasspath().build(),
        WorkflowExecutionHistory.fromJson(Files.readString(exported), "e2e-crash"));

    System.out.printf("kill -9 at step %d of %d; %d retried because they were in flight%n",
        stepAtKill, STEPS, retriedInFlight);
  }

  /**
   * ReWOO with a plan TTL of 3: the worker is killed while agents are in the middle of their plans.
   * The new worker continues every agent at its exact remaining planned step: the run makes the same
   * plans, serves the same steps from them with no LLM call, and ends with the same counts as the
   * undisturbed run; no completed call runs again. Then single tasks with every strategy, through
   * {@code agent}.
   */
  @Test
  @Order(2)
  void aWorkerKilledInTheMiddleOfTtlPlansResumesAtTheExactRemainingStep() throws Exception {
    // plans made at steps 1, 4 and 7: the kill at step 5 lands mid-plan, with steps left after it
    int steps = 8;
    String[] run = concat(new String[] {"simulate", "--strategy", "rewoo", "--ttl", "3", "--steps",
        Integer.toString(steps), "--seed", "5"}, AGENTS);
    Process w1 = killableWorker(ttlSpace);
    Path crashJournal = journalOf(ttlSpace);

    starter(concat(run, "--no-wait", "--id", "e2e-ttl-crash"));
    Future<Reference> referenceRun = referenceRun(concat(run, "--id", "e2e-ttl-ref"));
    SimulationWorkflow sim = client.newWorkflowStub(SimulationWorkflow.class, "e2e-ttl-crash");
    // step 5 is in the middle of the plans made at step 4 (or of re-plans since)
    int stepAtKill = awaitStep(sim, 5);
    long midPlan = sim.plans().stream().filter(p -> p.remainingPlannedSteps() > 0).count();
    w1.destroyForcibly().waitFor();
    assertTrue(stepAtKill < steps, "the kill must land mid-run, was at step " + stepAtKill);
    assertTrue(midPlan > 0, "agents held unfinished plans at the kill");
    takeOver("worker-ttl-2");
    SimulationResult crashed = result("e2e-ttl-crash");

    Reference ref = await(referenceRun);
    assertTrue(ref.out().contains("agent steps served from a plan with no LLM call"), ref.out());
    SimulationResult reference = ref.result();
    assertTrue(reference.planCounts().planStepsReused() > reference.planCounts().plansMade() / 2,
        "a TTL of 3 serves many steps from plans: " + reference.planCounts());
    assertTrue(reference.llmCalls() < reference.agentSteps(), "fewer LLM calls than agent steps");
    assertEquals(reference.perStep(), crashed.perStep());
    assertEquals(reference.finalCounts(), crashed.finalCounts());
    assertEquals(reference.llmCalls(), crashed.llmCalls());
    assertEquals(reference.planCounts(), crashed.planCounts());
    assertNoCompletedCallRanAgain("e2e-ttl-crash", crashJournal);

    String plans = starter("plans", "e2e-ttl-crash", "--all");
    assertTrue(plans.contains("citizen-0") && plans.contains("rewoo"), plans);
    String describe = starter("describe", "e2e-ttl-crash");
    assertTrue(describe.contains("steps reused (no LLM call)"), describe);
    System.out.printf("kill -9 at step %d of %d with %d agents mid-plan; plans %s%n",
        stepAtKill, steps, midPlan, crashed.planCounts());

    for (String strategy : List.of("cot", "react", "rewoo")) {
      String answer = starter("agent", "--no-worker", "--strategy", strategy, "--id", "e2e-agent-" + strategy,
          "-p", "What is 17 * (23 + 4)?");
      assertTrue(answer.contains("459") && answer.contains("Strategy " + strategy), answer);
    }
  }

  /**
   * A long run that continues as new every 3 steps, with long-term memory (LLM consolidations in the
   * simulation workflow itself): the worker is killed in the second run, once a call of step 5 is done, and
   * the run ends exactly as an undisturbed one; no completed call runs again. Then a run is steered from the
   * CLI: pause, world, agent-state, resume, stop, and attach with the CSV and the chart.
   */
  @Test
  @Order(3)
  void aLongRunContinuedAsNewSurvivesAKillAndIsSteeredFromTheCli() throws Exception {
    int steps = 6;
    int runs = steps / 3;
    String[] run = concat(new String[] {"simulate", "--steps", Integer.toString(steps), "--seed", "7",
        "--continue-as-new-every", "3", "--memory", "long-term", "--memory-capacity", "2", "--progress", "lines",
        "--max-concurrent-agents", "4"}, AGENTS);
    Process w1 = killableWorker(canSpace);
    Path crashJournal = journalOf(canSpace);
    Path csv = dir.resolve("can-ref.csv");
    Path png = dir.resolve("can-ref.png");
    Files.deleteIfExists(csv);
    Files.deleteIfExists(png);

    starter(concat(run, "--no-wait", "--id", "e2e-can-crash"));
    Future<Reference> referenceRun = referenceRun(concat(run, "--csv", csv.toAbsolutePath().toString(), "--chart",
        png.toAbsolutePath().toString(), "--id", "e2e-can-ref"));
    // Kill in the second run (steps 4 to 6), once a call of step 5 is done, read from the execution journal
    // rather than a progress query: a query that reaches a run as it continues as new can wait out its 10 s
    // RPC timeout on the embedded Temporal, long enough for this run to finish.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!doneInStep(crashJournal, "e2e-can-crash", 5)) {
      assertTrue(System.nanoTime() < deadline, "the run did not get to step 5");
      Thread.sleep(10);
    }
    w1.destroyForcibly().waitFor();
    long callsAtKill = CompletedActivities.doneInJournal(crashJournal, 0);
    takeOver("worker-can-2");
    SimulationResult crashed = result("e2e-can-crash");

    Reference ref = await(referenceRun);
    String out = ref.out();
    assertTrue(out.contains(steps + "/" + steps) && out.contains("in " + runs + " runs (continue-as-new)"), out);
    assertEquals(steps + 1, Files.readAllLines(csv).size());
    assertEquals("step,active,quiet,jailed,llm_calls,tokens", Files.readAllLines(csv).get(0));
    assertTrue(Files.size(png) > 1000);
    SimulationResult reference = ref.result();
    assertEquals(runs, reference.runs());
    long referenceCalls = CompletedActivities.byRun(referenceSpace.client(), "e2e-can-ref").size();
    assertTrue(callsAtKill < referenceCalls, "the kill must land mid-run: " + callsAtKill + " of "
        + referenceCalls + " calls done");
    assertEquals(reference.perStep(), crashed.perStep());
    assertEquals(reference.finalCounts(), crashed.finalCounts());
    assertEquals(reference.llmCalls(), crashed.llmCalls());
    assertEquals(reference.usage(), crashed.usage());
    assertEquals(runs, crashed.runs());
    assertEquals(runs, CompletedActivities.runsById(client, "e2e-can-crash").size());
    int retried = assertNoCompletedCallRanAgain("e2e-can-crash", crashJournal);
    // every run of both, exported by the CLI, ends with its closing event and replays (the test server
    // lost the closing event of a run queried while it continued as new: --progress lines queries)
    assertEveryRunClosedAndReplays(referenceSpace, "e2e-can-ref", runs);
    assertEveryRunClosedAndReplays(temporal, "e2e-can-crash", runs);
    // list: one row per simulation, with its status, close time and runs; describe: all runs
    List<String> rows = starter(referenceSpace, "list", "--limit", "100").lines()
        .filter(l -> l.startsWith("e2e-can-ref ")).toList();
    assertEquals(1, rows.size(), rows.toString());
    assertTrue(rows.get(0).matches("e2e-can-ref\\s+completed\\s+.+\\s" + runs) && !rows.get(0).contains(" - "), rows.get(0));
    String described = starter(referenceSpace, "describe", "e2e-can-ref");
    assertTrue(described.contains(" events in " + runs + " runs (continued as new; ") && described.contains("Strategies:    cot, model rules"),
        described);
    System.out.printf("continue-as-new every 3: kill -9 after %d of %d calls, %d calls retried in flight, "
        + "history events per run %s%n", callsAtKill, referenceCalls, retried,
        CompletedActivities.runsById(client, "e2e-can-crash").values().stream().map(h -> h.getEvents().size()).toList());

    // steering from the CLI
    starter("simulate", "--citizens", "4", "--cops", "1", "--steps", "100000", "--seed", "2",
        "--max-jail-term", "3",
        "--continue-as-new-every", "4", "--memory", "short-term", "--no-wait", "--id", "e2e-steer");
    SimulationWorkflow steer = client.newWorkflowStub(SimulationWorkflow.class, "e2e-steer");
    awaitStep(steer, 2);
    assertTrue(starter("pause", "e2e-steer").contains("Pause requested"));
    assertTrue(steer.progress().paused());
    Thread.sleep(1500);
    int held = steer.progress().step();
    String world = starter("world", "e2e-steer");
    assertTrue(world.contains("\"agents\"") && world.contains("\"citizen-3\""), world);
    String cop = starter("agent-state", "e2e-steer", "cop-0");
    assertTrue(cop.contains("\"memory\"") && cop.contains("\"kind\" : \"SHORT_TERM\""), cop);
    assertEquals(held, steer.progress().step(), "paused");
    assertTrue(starter("describe", "e2e-steer").contains(", paused"));
    starter("resume", "e2e-steer");
    awaitStep(steer, held + 5);
    assertTrue(starter("stop", "e2e-steer").contains("Stop requested"));
    String attached = starter("attach", "e2e-steer", "--progress", "lines");
    assertTrue(attached.contains("Stopped e2e-steer: ") && attached.contains("Final counts: "), attached);
    SimulationResult stopped = result("e2e-steer");
    assertTrue(stopped.stopped() && stopped.steps() >= held + 5 && stopped.runs() > 1, stopped.toString());
  }

  /** Exports every run of {@code id} with {@code history --all-runs}: each closes and replays. */
  private void assertEveryRunClosedAndReplays(OnSharedDevServer namespace, String id, int runs)
      throws Exception {
    Path out = dir.resolve("runs-" + id);
    if (Files.isDirectory(out)) {
      // an earlier build's export would be counted as runs of this one
      try (var files = Files.list(out)) {
        for (Path f : files.toList()) {
          Files.delete(f);
        }
      }
    }
    starter(namespace, "history", id, "--all-runs", "-o", out.toAbsolutePath().toString());
    for (int n = 1; n <= runs; n++) {
      WorkflowExecutionHistory run = WorkflowExecutionHistory.fromJson(
          Files.readString(out.resolve(id + ".run-" + n + ".json")), id);
      io.temporal.api.enums.v1.EventType last = run.getLastEvent().getEventType();
      assertEquals(n < runs ? io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
          : io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, last,
          "last event of run " + n + " of " + id);
      WorkflowHistories.replay(DurableAgentsPlugin.newBuilder().configureFromClasspath().build(), run);
    }
    assertFalse(Files.exists(out.resolve(id + ".run-" + (runs + 1) + ".json")), "only " + runs + " runs");
  }

  /**
   * Whether the execution journal records a call done in step {@code step} of simulation {@code id} (an
   * agent step's workflow id is {@code <id>/agent-<agent>/step-<n>}).
   */
  private static boolean doneInStep(Path journal, String id, int step) throws java.io.IOException {
    if (!Files.exists(journal)) {
      return false;
    }
    String suffix = "/step-" + step;
    for (String line : Files.readAllLines(journal)) {
      String[] f = line.split("\t");
      if (f.length > 2 && f[1].equals("done") && f[2].startsWith(id + "/agent-") && f[2].endsWith(suffix)) {
        return true;
      }
    }
    return false;
  }

  private static String[] concat(String[] head, String... tail) {
    String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, all, head.length, tail.length);
    return all;
  }

  /**
   * Checks the execution journal of a run whose worker was killed against its histories: both workers
   * ran activities, every execution belongs to a completed call, and no call ran again after the
   * attempt that completed it. Returns how many calls were retried because they were in flight.
   */
  private int assertNoCompletedCallRanAgain(String simulationId, Path journal) throws Exception {
    Map<String, Integer> completedAttempt = completedActivities(simulationId);
    Map<String, List<Integer>> executed = new HashMap<>();
    Map<String, Integer> done = new HashMap<>();
    Set<String> pids = new HashSet<>();
    for (String line : Files.readAllLines(journal)) {
      String[] f = line.split("\t");
      if (f[1].equals("done")) {
        done.merge(f[2] + "|" + f[7] + "|" + f[3], 1, Integer::sum);
      }
      if (!f[1].equals("start")) {
        continue;
      }
      executed.computeIfAbsent(f[2] + "|" + f[7] + "|" + f[3], k -> new ArrayList<>())
          .add(Integer.parseInt(f[4]));
      pids.add(f[6]);
    }
    assertEquals(2, pids.size(), "both workers ran activities");
    assertEquals(completedAttempt.keySet(), executed.keySet(), "every execution belongs to a completed call");
    int retriedInFlight = 0;
    int noStartedEvent = 0;
    int finishedButLost = 0;
    for (Map.Entry<String, Integer> e : completedAttempt.entrySet()) {
      List<Integer> attempts = executed.get(e.getKey());
      assertEquals(new HashSet<>(attempts).size(), attempts.size(), "an attempt ran twice: " + e.getKey());
      // An attempt may have finished on the killed worker after its last word to the server: its result
      // was lost with the worker and the next attempt ran (at-least-once for calls in flight). What
      // must never happen is an attempt after the one the history records as completed (checked below).
      if (done.getOrDefault(e.getKey(), 0) > 1) {
        finishedButLost++;
      }
      if (e.getValue() == null) {
        noStartedEvent++;
        continue;
      }
      assertTrue(attempts.contains(e.getValue()), e.getKey() + " completed in attempt " + e.getValue()
          + ", never run (ran: " + attempts + ")");
      for (int a : attempts) {
        assertTrue(a <= e.getValue(), e.getKey() + " ran again after it completed: attempt " + a);
      }
      if (e.getValue() > 1) {
        retriedInFlight++;
      }
    }
    // only calls in flight at the kill were retried: at most one per agent (25)
    assertTrue(retriedInFlight <= 25, "retried " + retriedInFlight);
    assertEquals(0, noStartedEvent, "completions without a started event");
    assertTrue(finishedButLost <= retriedInFlight, "only retried calls may have finished twice");
    System.out.printf("%s: %d activities, %d retried because they were in flight (%d of them had finished "
        + "on the killed worker before its completion reached the server)%n", simulationId,
        completedAttempt.size(), retriedInFlight, finishedButLost);
    return retriedInFlight;
  }

  private SimulationResult result(String id) throws Exception {
    return client.newUntypedWorkflowStub(id).getResultAsync(SimulationResult.class).get(180, TimeUnit.SECONDS);
  }

  private static int awaitStep(SimulationWorkflow sim, int step) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      try {
        SimulationProgress p = sim.progress();
        if (p.step() >= step) {
          return p.step();
        }
      } catch (RuntimeException notYet) {
        // the workflow has not started on a worker yet
      }
      Thread.sleep(20);
    }
    fail("the run did not reach step " + step);
    return -1;
  }

  /**
   * workflow id|run id|activity id -> the attempt that completed, for a simulation (every run of it)
   * and all its agent steps.
   */
  private Map<String, Integer> completedActivities(String simulationId) {
    Map<String, Integer> completed = CompletedActivities.byRun(client, simulationId);
    assertFalse(completed.isEmpty());
    return completed;
  }

}
