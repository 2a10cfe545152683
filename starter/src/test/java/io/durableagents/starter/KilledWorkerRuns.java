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
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.TaskQueueType;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflowservice.v1.DescribeTaskQueueRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What the end-to-end tests of a worker killed with {@code kill -9} share ({@link KilledWorkerEndToEndTest},
 * {@link ContinuedAsNewEndToEndTest}): the real dev server, a worker process killed midway and a worker that
 * takes over, and the starter CLI. Each test's crash run has a namespace of its own, whose worker process
 * ({@link #killableWorker}) writes the test's execution journal; only the killed worker needs a process of
 * its own: the worker that takes over ({@link #takeOver}) and the reference runs' worker run in the test JVM
 * ({@link WorkerInThisJvm}; a worker JVM's start cost 7 to 17 s on a loaded machine), as the commands do.
 * The undisturbed reference run goes on at the same time as the crash run ({@link #referenceRun}), in a
 * namespace of its own ({@code referenceSpace}) with a worker of its own, so that neither takes the other's
 * tasks. The first crash namespace's worker process starts with the class ({@link #beforeAll}), each next
 * one's once the test before it has its worker polling, so that its JVM starts while that test runs (the
 * tests run in a fixed order).
 *
 * <p>A test class registers one as an extension after its namespaces ({@code @Order(Integer.MAX_VALUE)} on
 * the field: the namespaces, with the default order, are ready before its {@link #beforeAll} and closed after
 * its {@link #afterAll}).
 */
final class KilledWorkerRuns implements BeforeAllCallback, AfterAllCallback, AfterEachCallback {
  /**
   * The simulations' agents: 10, not the default 25 (each agent step is a child workflow and two calls):
   * a kill still lands with agents in the middle of their steps and their plans; the size is not the point.
   */
  static final String[] AGENTS = {"--citizens", "8", "--cops", "2"};
  static final Path DIR = Path.of("target", "e2e");

  /** What an undisturbed reference run printed and its result. */
  record Reference(String out, SimulationResult result) {}

  private final OnSharedDevServer referenceSpace;
  /** The crash runs' namespaces, in the order of the tests that use them. */
  private final List<OnSharedDevServer> order;
  /** The worker process each test kills, by its namespace, each writing its test's {@link #journalOf}. */
  private final Map<OnSharedDevServer, Process> killable = new HashMap<>();
  private ExecutorService references;
  /** The reference runs' worker, in this JVM: an undisturbed run's worker process is not the point. */
  private WorkerInThisJvm referenceWorker;
  /** The running test's namespace and a client of it ({@link #killableWorker}). */
  private OnSharedDevServer temporal;
  private WorkflowClient client;
  /** The worker that takes over from the killed one, in this JVM; stopped after each test. */
  private WorkerInThisJvm takeover;

  /** Reference runs go in {@code referenceSpace}, the crash runs of the class's tests in {@code order}. */
  KilledWorkerRuns(OnSharedDevServer referenceSpace, OnSharedDevServer... order) {
    this.referenceSpace = referenceSpace;
    this.order = List.of(order);
  }

  /** Starts the first test's worker process, then the reference runs' worker in this JVM meanwhile. */
  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    Files.createDirectories(DIR);
    startKillable(order.get(0));
    references = Executors.newCachedThreadPool();
    referenceWorker = WorkerInThisJvm.start(referenceSpace, "reference-worker", Map.of());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (references != null) {
      references.shutdownNow();
    }
    if (referenceWorker != null) {
      referenceWorker.close();
    }
    killable.clear(); // the processes are killed with their namespaces
  }

  /**
   * Stops the test's workers and ends its runs: a run a failed test left open would be taken by a later
   * test's reference worker (its own namespace's runs have no other worker).
   */
  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    if (takeover != null) {
      takeover.close();
      takeover = null;
    }
    if (temporal != null) {
      temporal.terminateOpenRuns();
      killable.get(temporal).destroyForcibly().waitFor();
      temporal = null;
    }
    referenceSpace.terminateOpenRuns();
  }

  /** Starts the worker process of {@code space}'s test, unless it is started. */
  private void startKillable(OnSharedDevServer space) throws IOException {
    if (!killable.containsKey(space)) {
      Files.deleteIfExists(journalOf(space));
      killable.put(space, space.start("384m", DIR.resolve("worker-" + space.name() + ".log"),
          journal(journalOf(space)), "worker"));
    }
  }

  /** The execution journal of the worker processes of {@code space}'s test. */
  static Path journalOf(OnSharedDevServer space) {
    return DIR.resolve("journal-" + space.name() + ".log");
  }

  /**
   * Makes {@code space} the running test's namespace (its commands, its client) and returns the worker
   * process the test kills there, once it polls for workflow tasks: a run given to a worker still starting
   * can take longer than a workflow task's timeout on a loaded machine. Then starts the next test's.
   */
  Process killableWorker(OnSharedDevServer space) throws Exception {
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
      assertTrue(p.isAlive(), "the worker of " + space.name() + " died; see its log in " + DIR.toAbsolutePath());
      assertTrue(System.nanoTime() < deadline, "the worker of " + space.name() + " did not poll within 120 s");
      Thread.sleep(50);
    }
    int next = order.indexOf(space) + 1;
    if (next < order.size()) {
      startKillable(order.get(next));
    }
    return p;
  }

  /** The worker that takes over from the killed one, in this JVM, writing the same journal. */
  void takeOver(String name) {
    takeover = WorkerInThisJvm.start(temporal, name, journal(journalOf(temporal)));
  }

  private static Map<String, String> journal(Path journal) {
    return Map.of(WorkerSettings.EXECUTION_LOG, journal.toAbsolutePath().toString());
  }

  /** A client of the running test's namespace. */
  WorkflowClient client() {
    return client;
  }

  /**
   * Runs {@code durable-agents <args>} in this JVM against the running test's namespace (a JVM per
   * command cost these tests a minute of CPU on two cores); returns what it printed (stdout, then stderr),
   * also kept in a log file. One command at a time: while a reference run's command follows its run
   * ({@link #referenceRun}), a command of the test waits for it.
   */
  String starter(String... args) throws Exception {
    return starter(temporal, args);
  }

  /** {@link #starter(String...)} in {@code namespace}. */
  static String starter(OnSharedDevServer namespace, String... args) throws Exception {
    Path log = DIR.resolve("starter-" + args[0] + "-" + args[args.length - 1].replaceAll("[^A-Za-z0-9.-]", "_") + ".log");
    CliFailuresTest.Run r = CliFailuresTest.run(namespace.env(), args);
    String text = r.out() + r.err();
    Files.writeString(log, text);
    assertEquals(0, r.exitCode(), text);
    return text;
  }

  /**
   * Starts the undisturbed reference run {@code durable-agents <args>} (its id last) in the reference
   * namespace, on its worker, its command in this JVM following it to its end, while the test goes on with
   * the crash run; {@link #await} gives what it printed and its result. The command holds this JVM's command
   * line until the run ends ({@link #starter}): start the crash run before, and run the test's other
   * commands after {@link #await}.
   */
  Future<Reference> referenceRun(String... args) {
    return references.submit(() -> {
      String out = starter(referenceSpace, args);
      return new Reference(out, referenceSpace.client().newUntypedWorkflowStub(args[args.length - 1])
          .getResultAsync(SimulationResult.class).get(180, TimeUnit.SECONDS));
    });
  }

  /** The reference run's output and result, or what failed it, as thrown there. */
  static Reference await(Future<Reference> run) throws Exception {
    try {
      return run.get(600, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw (Exception) e.getCause();
    }
  }

  /** The result of run {@code id} of the running test's namespace. */
  SimulationResult result(String id) throws Exception {
    return client.newUntypedWorkflowStub(id).getResultAsync(SimulationResult.class).get(180, TimeUnit.SECONDS);
  }

  /** The step {@code sim} got to, once it is {@code step} or later. */
  static int awaitStep(SimulationWorkflow sim, int step) throws InterruptedException {
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
   * Whether the execution journal records a call done in step {@code step} of simulation {@code id} (an
   * agent step's workflow id is {@code <id>/agent-<agent>/step-<n>}).
   */
  static boolean doneInStep(Path journal, String id, int step) throws IOException {
    return CompletedActivities.doneInJournal(journal,
        workflowId -> workflowId.startsWith(id + "/agent-") && workflowId.endsWith("/step-" + step));
  }

  static String[] concat(String[] head, String... tail) {
    String[] all = Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, all, head.length, tail.length);
    return all;
  }

  /**
   * Checks the execution journal of a run whose worker was killed against {@code completedAttempt}, what
   * its histories record ({@code CompletedActivities.byRun}: workflow id|run id|activity id -> the attempt
   * that completed, for the simulation, every run of it and all its agent steps): both workers ran
   * activities, every execution belongs to a completed call, and no call ran again after the attempt that
   * completed it. Returns how many calls were retried because they were in flight.
   */
  static int assertNoCompletedCallRanAgain(String simulationId, Map<String, Integer> completedAttempt,
      Path journal) throws IOException {
    assertFalse(completedAttempt.isEmpty());
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

  /**
   * Exports every run of {@code id} with {@code history --all-runs}: each closes (continued as new, the
   * last completed) and replays.
   */
  static void assertEveryRunClosedAndReplays(OnSharedDevServer namespace, String id, int runs)
      throws Exception {
    Path out = DIR.resolve("runs-" + id);
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
      assertEquals(n < runs ? EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
          : EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, run.getLastEvent().getEventType(),
          "last event of run " + n + " of " + id);
      WorkflowHistories.replay(DurableAgentsPlugin.newBuilder().configureFromClasspath().build(), run);
    }
    assertFalse(Files.exists(out.resolve(id + ".run-" + (runs + 1) + ".json")), "only " + runs + " runs");
  }
}
