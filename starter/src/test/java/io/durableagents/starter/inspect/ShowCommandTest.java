package io.durableagents.starter.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.devserver.EmbeddedTemporal;
import io.durableagents.starter.CliFailuresTest;
import io.durableagents.starter.Failures;
import io.durableagents.testkit.DurableAgentsTestEnvironment;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.simulation.InterventionRequest;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code show} of a simulation and of a step a jailed citizen did not take, against an Epstein run of the
 * demo's world (citizens are jailed within a few steps) on the embedded Temporal: the run has an
 * intervention from step 4 and a fork after step 3.
 */
class ShowCommandTest {
  private static final String SIMULATION = "show-sim";
  private static final String FORK = "show-sim-fork";
  private static final int STEPS = 8;

  private static EmbeddedTemporal temporal;
  private static Map<String, String> env;
  private static SimulationResult result;
  private static int intervenedAt;

  @BeforeAll
  static void run() throws Exception {
    temporal = EmbeddedTemporal.newBuilder()
        .setPlugins(DurableAgentsPlugin.newBuilder().configureFromClasspath().build()).start();
    env = Map.of("TEMPORAL_ADDRESS", temporal.target());
    WorkflowClient client = temporal.client();
    SimulationWorkflow sim = DurableAgentsTestEnvironment.simulation(client, SIMULATION);
    WorkflowClient.start(sim::run, SimulationInput.of("epstein", STEPS, 42));
    SimulationWorkflow running = client.newWorkflowStub(SimulationWorkflow.class, SIMULATION);
    running.pause();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!running.progress().paused()) {
      assertTrue(System.nanoTime() < deadline, "the run did not pause");
      beforeAskingAgain();
    }
    intervenedAt = running.progress().step() + 2;
    running.intervene(new InterventionRequest(Map.of("legitimacy", "0.3"), intervenedAt, "crackdown"));
    running.resume();
    result = client.newUntypedWorkflowStub(SIMULATION).getResult(120, TimeUnit.SECONDS, SimulationResult.class);
    // one step of its own (a total of 4): show names the fork, whatever it ran
    CliFailuresTest.Run fork = CliFailuresTest.run(env, "fork", SIMULATION, "--at-step", "3", "--steps", "4",
        "--id", FORK, "--no-wait");
    assertEquals(Failures.OK, fork.exitCode(), fork.out() + fork.err());
    client.newUntypedWorkflowStub(FORK).getResult(120, TimeUnit.SECONDS, SimulationResult.class);
  }

  /**
   * Between two queries of a condition: a query is a workflow task on the worker of this JVM, and asking
   * without a pause took the two cores from the run it waits for.
   */
  private static void beforeAskingAgain() {
    try {
      TimeUnit.MILLISECONDS.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @AfterAll
  static void stop() {
    if (temporal != null) {
      temporal.close();
    }
  }

  @Test
  void aSimulationShowsItsStepsWithTheirCountsCallsTokensInterventionsAndForks() {
    CliFailuresTest.Run show = CliFailuresTest.run(env, "show", SIMULATION);
    assertEquals(Failures.OK, show.exitCode(), show.out() + show.err());
    List<String> lines = show.out().lines().toList();
    assertEquals("Simulation " + SIMULATION + ": epstein, seed 42, completed, " + STEPS + " of " + STEPS
        + " steps, 1 run", lines.get(0), show.out());
    assertTrue(lines.get(1).matches("step +agent steps +LLM calls +tokens +active +quiet +jailed"), lines.get(1));
    int rows = 0;
    long calls = 0;
    for (String line : lines) {
      Matcher row = Pattern.compile(" *(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+)").matcher(line);
      if (row.matches()) {
        rows++;
        assertEquals(rows, Integer.parseInt(row.group(1)), line);
        var counts = result.perStep().get(rows - 1).counts();
        assertEquals(List.of(counts.get("active").intValue(), counts.get("quiet").intValue(),
            counts.get("jailed").intValue()), List.of(Integer.parseInt(row.group(5)), Integer.parseInt(row.group(6)),
            Integer.parseInt(row.group(7))), line);
        calls += Long.parseLong(row.group(3));
      }
    }
    assertEquals(STEPS, rows, show.out());
    assertEquals(result.llmCalls(), calls, "the steps' LLM calls add up to the run's");
    String intervention = "from step " + intervenedAt + ": intervention 1: legitimacy 0.5 -> 0.3 (crackdown)";
    assertTrue(lines.indexOf(intervention) > 0, show.out());
    assertTrue(lines.get(lines.indexOf(intervention) + 1).matches(" *" + intervenedAt + " .*"),
        "the intervention comes before the step it applies from:\n" + show.out());
    String fork = "after step 3: fork " + FORK + " (completed)";
    assertTrue(lines.indexOf(fork) > 0 && lines.get(lines.indexOf(fork) - 1).matches(" *3 .*"),
        "the fork comes after the step it goes on from:\n" + show.out());
    assertTrue(show.out().contains("Total: " + result.agentSteps() + " agent steps, " + result.llmCalls()
        + " LLM calls, "), show.out());
  }

  /** A running (here paused) simulation's steps come from its worker: the same rows, and the run says so. */
  @Test
  void aRunningSimulationShowsTheStepsItHasCompleted() {
    String id = "show-running";
    WorkflowClient client = temporal.client();
    WorkflowClient.start(DurableAgentsTestEnvironment.simulation(client, id)::run,
        SimulationInput.of("epstein", 200, 7));
    SimulationWorkflow running = client.newWorkflowStub(SimulationWorkflow.class, id);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (running.progress().step() < 2) {
      assertTrue(System.nanoTime() < deadline, "the run did not reach step 2");
      beforeAskingAgain();
    }
    running.pause();
    // paused, and the step that was in progress when the signal came has ended
    while (!running.progress().paused() || !running.runningAgentSteps().isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "the run did not pause");
      beforeAskingAgain();
    }
    int done = running.stepsAfter(0).size();
    try {
      CliFailuresTest.Run show = CliFailuresTest.run(env, "show", id);
      assertEquals(Failures.OK, show.exitCode(), show.out() + show.err());
      List<String> lines = show.out().lines().toList();
      assertEquals("Simulation " + id + ": epstein, seed 7, running, " + done + " of 200 steps, 1 run", lines.get(0),
          show.out());
      long rows = lines.stream().filter(l -> l.matches(" *\\d+ +\\d+ +\\d+ +\\d+ +\\d+ +\\d+ +\\d+")).count();
      assertEquals(done, rows, "a row with counts for every completed step:\n" + show.out());
      assertTrue(!show.out().contains("Total:"), "no result yet:\n" + show.out());
    } finally {
      running.stop(); // a paused run ends at once
    }
  }

  /** In a simulation of group steps an agent's step has no workflow of its own: show names its group's. */
  @Test
  void anAgentsStepInAGroupStepIsPointedToItsGroup() {
    String id = "show-groups";
    DurableAgentsTestEnvironment.simulation(temporal.client(), id)
        .run(SimulationInput.of("epstein", 1, 42).withAgentsPerWorkflow(10));
    CliFailuresTest.Run show = CliFailuresTest.run(env, "show", id + "/agent-citizen-0/step-1");
    assertEquals(Failures.OK, show.exitCode(), show.out() + show.err());
    assertTrue(show.out().matches("(?s)citizen-0's step 1 ran in the group step " + id + "/step-1/group-\\d+ \\(the "
        + "simulation runs several agents' steps in one workflow\\): durable-agents show " + id
        + "/step-1/group-\\d+\\R"), show.out());
  }

  @Test
  void aStepAJailedCitizenDidNotTakeSaysSoForHowLongAndNamesItsLastStep() {
    // from the recorded agent steps: a citizen that acted at step a, not at a + 1, and again at b
    Pattern own = Pattern.compile(Pattern.quote(SIMULATION) + "/agent-(citizen-\\d+)/step-(\\d+)");
    Map<String, TreeSet<Integer>> acted = new TreeMap<>();
    for (HistoryEvent e : temporal.client().fetchHistory(SIMULATION).getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
        Matcher m = own.matcher(e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId());
        if (m.matches()) {
          acted.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(Integer.parseInt(m.group(2)));
        }
      }
    }
    String jailed = null;
    int last = 0;
    Integer next = null;
    for (var a : acted.entrySet()) {
      for (int s : a.getValue()) {
        if (s < STEPS && !a.getValue().contains(s + 1)) {
          jailed = a.getKey();
          last = s;
          next = a.getValue().higher(s);
          break;
        }
      }
      if (jailed != null) {
        break;
      }
    }
    assertTrue(jailed != null, "a citizen missed a step: " + acted);
    int missed = last + 1;
    String id = SIMULATION + "/agent-" + jailed + "/step-" + missed;
    CliFailuresTest.Run show = CliFailuresTest.run(env, "show", id);
    assertEquals(Failures.OK, show.exitCode(), show.out() + show.err());
    List<String> lines = show.out().lines().toList();
    assertEquals(jailed + " took no step at step " + missed + " of " + SIMULATION + ": it could not act from step "
        + missed + " " + (next == null ? "to the end (step " + STEPS + ")"
            : "to step " + (next - 1) + " (it acted again at step " + next + ")") + ".", lines.get(0), show.out());
    assertTrue(lines.get(1).startsWith("After step " + last + " it was: condition jailed, ")
        && lines.get(1).contains("jail_sentence "), show.out());
    assertEquals("Its last step: step " + last + ", durable-agents show " + SIMULATION + "/agent-" + jailed + "/step-"
        + last, lines.get(2));

    CliFailuresTest.Run beyond = CliFailuresTest.run(env, "show", SIMULATION + "/agent-" + jailed + "/step-99");
    assertEquals(Failures.NOT_FOUND, beyond.exitCode(), beyond.out() + beyond.err());
    assertTrue(beyond.err().contains("'" + SIMULATION + "' has not run step 99 (its agents' steps go up to step "
        + STEPS + "; agents act from step 1)"), beyond.err());
    CliFailuresTest.Run nobody = CliFailuresTest.run(env, "show", SIMULATION + "/agent-citizen-999/step-2");
    assertEquals(Failures.NOT_FOUND, nobody.exitCode(), nobody.out() + nobody.err());
    assertTrue(nobody.err().contains("'" + SIMULATION + "' has no agent 'citizen-999' that took a step"), nobody.err());
    CliFailuresTest.assertNoTrace(nobody);
  }
}
