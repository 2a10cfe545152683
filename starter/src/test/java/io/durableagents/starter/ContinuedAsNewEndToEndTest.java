package io.durableagents.starter;

import static io.durableagents.starter.KilledWorkerRuns.AGENTS;
import static io.durableagents.starter.KilledWorkerRuns.DIR;
import static io.durableagents.starter.KilledWorkerRuns.assertEveryRunClosedAndReplays;
import static io.durableagents.starter.KilledWorkerRuns.assertNoCompletedCallRanAgain;
import static io.durableagents.starter.KilledWorkerRuns.await;
import static io.durableagents.starter.KilledWorkerRuns.awaitStep;
import static io.durableagents.starter.KilledWorkerRuns.concat;
import static io.durableagents.starter.KilledWorkerRuns.doneInStep;
import static io.durableagents.starter.KilledWorkerRuns.journalOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.KilledWorkerRuns.Reference;
import io.durableagents.worker.CompletedActivities;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.common.WorkflowExecutionHistory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A long run that continues as new, as a user runs it on the real dev server with the starter CLI
 * ({@link KilledWorkerRuns} has what these tests share with {@link KilledWorkerEndToEndTest}): killed with
 * {@code kill -9} in its second run and ending as an undisturbed run beside it, and steered from the CLI.
 * The steered run goes first, on the reference runs' worker in this JVM, while the worker process that the
 * kill test kills starts.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContinuedAsNewEndToEndTest {
  /** The crash run of the kill test. */
  @RegisterExtension
  static final OnSharedDevServer canSpace = new OnSharedDevServer("end-to-end-can");
  /** Where the undisturbed reference run and the steered run go: their own namespace and worker. */
  @RegisterExtension
  static final OnSharedDevServer referenceSpace = new OnSharedDevServer("end-to-end-can-ref");
  /** After the namespaces: their servers are up before it starts its workers, and closed after it. */
  @RegisterExtension
  @Order(Integer.MAX_VALUE)
  static final KilledWorkerRuns e2e = new KilledWorkerRuns(referenceSpace, canSpace);

  /**
   * A run that continues as new every 4 steps, steered from the CLI: pause (the step in progress ends,
   * then the run holds), world, agent-state, resume, stop, and attach to see it end.
   */
  @Test
  @Order(1)
  void aLongRunContinuedAsNewIsSteeredFromTheCli() throws Exception {
    cli("simulate", "--citizens", "4", "--cops", "1", "--steps", "100000", "--seed", "2",
        "--max-jail-term", "3",
        "--continue-as-new-every", "4", "--memory", "short-term", "--no-wait", "--id", "e2e-steer");
    SimulationWorkflow steer = referenceSpace.client().newWorkflowStub(SimulationWorkflow.class, "e2e-steer");
    awaitStep(steer, 2);
    assertTrue(cli("pause", "e2e-steer").contains("Pause requested"));
    assertTrue(steer.progress().paused());
    // the step in progress ends, then no other starts
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!steer.runningAgentSteps().isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "the step in progress did not end: " + steer.runningAgentSteps());
      Thread.sleep(20);
    }
    int held = steer.progress().step();
    String world = cli("world", "e2e-steer");
    assertTrue(world.contains("\"agents\"") && world.contains("\"citizen-3\""), world);
    String cop = cli("agent-state", "e2e-steer", "cop-0");
    assertTrue(cop.contains("\"memory\"") && cop.contains("\"kind\" : \"SHORT_TERM\""), cop);
    assertEquals(held, steer.progress().step(), "paused");
    assertTrue(cli("describe", "e2e-steer").contains(", paused"));
    assertEquals(held, steer.progress().step(), "paused");
    cli("resume", "e2e-steer");
    awaitStep(steer, held + 3);
    assertTrue(cli("stop", "e2e-steer").contains("Stop requested"));
    String attached = cli("attach", "e2e-steer", "--progress", "lines");
    assertTrue(attached.contains("Stopped e2e-steer: ") && attached.contains("Final counts: "), attached);
    SimulationResult stopped = referenceSpace.client().newUntypedWorkflowStub("e2e-steer")
        .getResultAsync(SimulationResult.class).get(180, TimeUnit.SECONDS);
    assertTrue(stopped.stopped() && stopped.steps() >= held + 3 && stopped.runs() > 1, stopped.toString());
  }

  /** {@code durable-agents <args>} in the steered run's namespace. */
  private static String cli(String... args) throws Exception {
    return KilledWorkerRuns.starter(referenceSpace, args);
  }

  /**
   * A long run that continues as new every 3 steps, with long-term memory (LLM consolidations in the
   * simulation workflow itself): the worker is killed in the second run, once a call of step 5 is done, and
   * the run ends exactly as an undisturbed one; no completed call runs again; every run of both closes and
   * replays; list and describe show them as one simulation each.
   */
  @Test
  @Order(2)
  void aLongRunContinuedAsNewSurvivesAKill() throws Exception {
    int steps = 6;
    int runs = steps / 3;
    String[] run = concat(new String[] {"simulate", "--steps", Integer.toString(steps), "--seed", "7",
        "--continue-as-new-every", "3", "--memory", "long-term", "--memory-capacity", "2", "--progress", "lines",
        "--max-concurrent-agents", "4"}, AGENTS);
    Process w1 = e2e.killableWorker(canSpace);
    Path crashJournal = journalOf(canSpace);
    Path csv = DIR.resolve("can-ref.csv");
    Path png = DIR.resolve("can-ref.png");
    Files.deleteIfExists(csv);
    Files.deleteIfExists(png);

    e2e.starter(concat(run, "--no-wait", "--id", "e2e-can-crash"));
    Future<Reference> referenceRun = e2e.referenceRun(concat(run, "--csv", csv.toAbsolutePath().toString(),
        "--chart", png.toAbsolutePath().toString(), "--id", "e2e-can-ref"));
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
    e2e.takeOver("worker-can-2");
    SimulationResult crashed = e2e.result("e2e-can-crash");

    Reference ref = await(referenceRun);
    String out = ref.out();
    assertTrue(out.contains(steps + "/" + steps) && out.contains("in " + runs + " runs (continue-as-new)"), out);
    assertEquals(steps + 1, Files.readAllLines(csv).size());
    assertEquals("step,active,quiet,jailed,llm_calls,tokens", Files.readAllLines(csv).get(0));
    assertTrue(Files.size(png) > 1000);
    SimulationResult reference = ref.result();
    assertEquals(runs, reference.runs());
    assertEquals(reference.perStep(), crashed.perStep());
    assertEquals(reference.finalCounts(), crashed.finalCounts());
    assertEquals(reference.llmCalls(), crashed.llmCalls());
    assertEquals(reference.usage(), crashed.usage());
    assertEquals(runs, crashed.runs());
    // the crash run's histories, fetched once: its runs, and its calls and theirs (the same as the
    // reference's, whose counts it has)
    Map<String, WorkflowExecutionHistory> crashRuns = CompletedActivities.runsById(e2e.client(), "e2e-can-crash");
    assertEquals(runs, crashRuns.size());
    Map<String, Integer> completed = CompletedActivities.byRun(e2e.client(), "e2e-can-crash");
    assertTrue(callsAtKill < completed.size(), "the kill must land mid-run: " + callsAtKill + " of "
        + completed.size() + " calls done");
    int retried = assertNoCompletedCallRanAgain("e2e-can-crash", completed, crashJournal);
    // every run of both, exported by the CLI, ends with its closing event and replays (the test server
    // lost the closing event of a run queried while it continued as new: --progress lines queries)
    assertEveryRunClosedAndReplays(referenceSpace, "e2e-can-ref", runs);
    assertEveryRunClosedAndReplays(canSpace, "e2e-can-crash", runs);
    // list: one row per simulation, with its status, close time and runs; describe: all runs
    List<String> rows = KilledWorkerRuns.starter(referenceSpace, "list", "--limit", "100").lines()
        .filter(l -> l.startsWith("e2e-can-ref ")).toList();
    assertEquals(1, rows.size(), rows.toString());
    assertTrue(rows.get(0).matches("e2e-can-ref\\s+completed\\s+.+\\s" + runs) && !rows.get(0).contains(" - "),
        rows.get(0));
    String described = KilledWorkerRuns.starter(referenceSpace, "describe", "e2e-can-ref");
    assertTrue(described.contains(" events in " + runs + " runs (continued as new; ")
        && described.contains("Strategies:    cot, model rules"), described);
    System.out.printf("continue-as-new every 3: kill -9 after %d of %d calls, %d calls retried in flight, "
        + "history events per run %s%n", callsAtKill, completed.size(), retried,
        crashRuns.values().stream().map(h -> h.getEvents().size()).toList());
  }
}
