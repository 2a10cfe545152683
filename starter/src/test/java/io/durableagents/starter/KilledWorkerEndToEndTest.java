package io.durableagents.starter;

import static io.durableagents.starter.KilledWorkerRuns.AGENTS;
import static io.durableagents.starter.KilledWorkerRuns.DIR;
import static io.durableagents.starter.KilledWorkerRuns.assertNoCompletedCallRanAgain;
import static io.durableagents.starter.KilledWorkerRuns.await;
import static io.durableagents.starter.KilledWorkerRuns.awaitStep;
import static io.durableagents.starter.KilledWorkerRuns.concat;
import static io.durableagents.starter.KilledWorkerRuns.journalOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.KilledWorkerRuns.Reference;
import io.durableagents.testkit.WorkflowHistories;
import io.durableagents.worker.CompletedActivities;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.common.WorkflowExecutionHistory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Future;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * As a user runs them: the real dev server, a worker process killed with {@code kill -9} midway and a new
 * worker that takes over, and the starter CLI ({@link KilledWorkerRuns} has what they share). The Epstein
 * demo runs once undisturbed, and once with its worker killed, in plain steps and then with ReWOO plans
 * that live several steps. The interrupted run must end with the same counts at every step, and no LLM or
 * tool call that had completed may have run again. Each kill is timed by the crash run alone (a step
 * reached), so the undisturbed reference run goes on at the same time as the crash run. The worker process
 * each kill test kills starts while the test before it runs (the first test's commands need no worker
 * process: they run on the reference runs' worker in this JVM). A long run continued as new across a kill is
 * {@link ContinuedAsNewEndToEndTest}'s (a class of its own, so that the two run in the two test JVMs at
 * once).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KilledWorkerEndToEndTest {
  /** Enough steps for a kill a third of the way in to land mid-run (the run's length is not the point). */
  private static final int STEPS = 6;
  private static final long SEED = 7;

  /** The crash runs of the first test (a kill mid-run). */
  @RegisterExtension
  static final OnSharedDevServer midRunSpace = new OnSharedDevServer("end-to-end");
  /** The crash runs of the TTL plans' test. */
  @RegisterExtension
  static final OnSharedDevServer ttlSpace = new OnSharedDevServer("end-to-end-ttl");
  /** Where the undisturbed reference runs go, beside the crash runs: their own namespace and worker. */
  @RegisterExtension
  static final OnSharedDevServer referenceSpace = new OnSharedDevServer("end-to-end-ref");
  /** After the namespaces: their servers are up before it starts its workers, and closed after it. */
  @RegisterExtension
  @Order(Integer.MAX_VALUE)
  static final KilledWorkerRuns e2e = new KilledWorkerRuns(referenceSpace, midRunSpace, ttlSpace);

  /**
   * A simulation in group steps: {@code show} prints each call of a group with its agent. Then single
   * tasks with every strategy, through {@code agent}. On the reference runs' worker in this JVM, first,
   * while the worker process that the next test kills starts.
   */
  @Test
  @Order(1)
  void showPrintsTheCallsOfAGroupStepAndAgentRunsSingleTasks() throws Exception {
    KilledWorkerRuns.starter(referenceSpace, concat(new String[] {"simulate", "--steps", "2",
        "--agents-per-workflow", "10", "--progress", "lines", "--id", "e2e-groups"}, AGENTS));
    String group = KilledWorkerRuns.starter(referenceSpace, "show", "e2e-groups/step-1/group-1");
    assertTrue(group.contains("started AgentGroupStep e2e-groups/step-1/group-1")
        && group.contains("llm: rules · citizen-0 (cot-reasoning, tool choice none)"), group);
    for (String strategy : List.of("cot", "react", "rewoo")) {
      String answer = KilledWorkerRuns.starter(referenceSpace, "agent", "--no-worker", "--strategy", strategy,
          "--id", "e2e-agent-" + strategy, "-p", "What is 17 * (23 + 4)?");
      assertTrue(answer.contains("459") && answer.contains("Strategy " + strategy), answer);
    }
  }

  @Test
  @Order(2)
  void aWorkerKilledMidRunIsReplacedAndTheRunEndsAsIfNothingHappened() throws Exception {
    Process w1 = e2e.killableWorker(midRunSpace);
    Path crashJournal = journalOf(midRunSpace);
    String[] run = concat(new String[] {"simulate", "--steps", Integer.toString(STEPS), "--seed",
        Long.toString(SEED)}, AGENTS);

    // 1. the run whose worker is killed midway
    e2e.starter(concat(run, "--no-wait", "--id", "e2e-crash"));
    // 2. the undisturbed reference run, through the CLI, beside it
    Future<Reference> referenceRun = e2e.referenceRun(concat(run, "--id", "e2e-ref"));

    SimulationWorkflow sim = e2e.client().newWorkflowStub(SimulationWorkflow.class, "e2e-crash");
    int stepAtKill = awaitStep(sim, STEPS / 3);
    w1.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook, no goodbye to the server
    assertTrue(stepAtKill < STEPS, "the kill must land mid-run, was at step " + stepAtKill);
    e2e.takeOver("worker-2");
    SimulationResult crashed = e2e.result("e2e-crash");
    Reference ref = await(referenceRun);
    assertTrue(ref.out().contains("Final counts: "), ref.out());
    assertTrue(ref.out().contains(STEPS + "/" + STEPS), ref.out());
    SimulationResult reference = ref.result();

    // first: the same counts at every step as the undisturbed run
    assertEquals(reference.perStep(), crashed.perStep());
    assertEquals(reference.finalCounts(), crashed.finalCounts());
    assertEquals(reference.llmCalls(), crashed.llmCalls());

    // second: no call that had completed ran again
    int retriedInFlight = assertNoCompletedCallRanAgain("e2e-crash",
        CompletedActivities.byRun(e2e.client(), "e2e-crash"), crashJournal);
    // the other commands, on the finished runs
    String list = e2e.starter("list");
    assertTrue(list.contains("e2e-crash") && list.contains("completed") && !list.contains("e2e-ref"), list);
    String referenceList = KilledWorkerRuns.starter(referenceSpace, "list");
    assertTrue(referenceList.contains("e2e-ref") && referenceList.contains("completed"), referenceList);
    String describe = e2e.starter("describe", "e2e-crash");
    assertTrue(describe.contains("Status:        completed") && describe.contains("Counts per step:"), describe);
    assertTrue(describe.contains("Scenario=\"epstein\"") && describe.contains("SimStep=" + STEPS), describe);
    String show = e2e.starter("show", "e2e-crash/agent-citizen-0/step-1");
    assertTrue(show.contains("llm: rules (cot-reasoning, tool choice none)"), show);
    assertTrue(show.contains(" out tokens (at most 512), "), "the maximum output length each call sent: " + show);
    assertTrue(show.contains("[rules] This answer comes from a rule-based policy, not an LLM."), show);
    Path exported = DIR.resolve("e2e-crash-history.json");
    e2e.starter("history", "e2e-crash", "-o", exported.toAbsolutePath().toString());
    WorkflowHistories.replay(DurableAgentsPlugin.newBuilder().configureFromClasspath().build(),
        WorkflowExecutionHistory.fromJson(Files.readString(exported), "e2e-crash"));

    System.out.printf("kill -9 at step %d of %d; %d retried because they were in flight%n",
        stepAtKill, STEPS, retriedInFlight);
  }

  /**
   * ReWOO with a plan TTL of 3: the worker is killed while agents are in the middle of their plans.
   * The new worker continues every agent at its exact remaining planned step: the run makes the same
   * plans, serves the same steps from them with no LLM call, and ends with the same counts as the
   * undisturbed run; no completed call runs again.
   */
  @Test
  @Order(3)
  void aWorkerKilledInTheMiddleOfTtlPlansResumesAtTheExactRemainingStep() throws Exception {
    // plans made at steps 1, 4 and 7: the kill at step 5 lands mid-plan, with steps left after it
    int steps = 8;
    String[] run = concat(new String[] {"simulate", "--strategy", "rewoo", "--ttl", "3", "--steps",
        Integer.toString(steps), "--seed", "5"}, AGENTS);
    Process w1 = e2e.killableWorker(ttlSpace);
    Path crashJournal = journalOf(ttlSpace);

    e2e.starter(concat(run, "--no-wait", "--id", "e2e-ttl-crash"));
    Future<Reference> referenceRun = e2e.referenceRun(concat(run, "--id", "e2e-ttl-ref"));
    SimulationWorkflow sim = e2e.client().newWorkflowStub(SimulationWorkflow.class, "e2e-ttl-crash");
    // step 5 is in the middle of the plans made at step 4 (or of re-plans since)
    int stepAtKill = awaitStep(sim, 5);
    long midPlan = sim.plans().stream().filter(p -> p.remainingPlannedSteps() > 0).count();
    w1.destroyForcibly().waitFor();
    assertTrue(stepAtKill < steps, "the kill must land mid-run, was at step " + stepAtKill);
    assertTrue(midPlan > 0, "agents held unfinished plans at the kill");
    e2e.takeOver("worker-ttl-2");
    SimulationResult crashed = e2e.result("e2e-ttl-crash");

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
    assertNoCompletedCallRanAgain("e2e-ttl-crash",
        CompletedActivities.byRun(e2e.client(), "e2e-ttl-crash"), crashJournal);

    String plans = e2e.starter("plans", "e2e-ttl-crash", "--all");
    assertTrue(plans.contains("citizen-0") && plans.contains("rewoo"), plans);
    String describe = e2e.starter("describe", "e2e-ttl-crash");
    assertTrue(describe.contains("steps reused (no LLM call)"), describe);
    System.out.printf("kill -9 at step %d of %d with %d agents mid-plan; plans %s%n",
        stepAtKill, steps, midPlan, crashed.planCounts());
  }
}
