package io.durableagents.starter.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.CliFailuresTest;
import io.durableagents.starter.Failures;
import io.durableagents.starter.OnSharedDevServer;
import io.durableagents.starter.WorkerInThisJvm;
import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.workflows.experiment.ExperimentResult;
import io.durableagents.workflows.experiment.ExperimentRunOutcome;
import io.durableagents.workflows.experiment.ExperimentWorkflow;
import io.durableagents.workflows.experiment.RunStatus;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.StepCounts;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code sweep} and the commands that take an experiment's id, on the shared dev server with the worker
 * and the command line in this JVM (a sweep's Ctrl-C in a process of its own): a sweep's lines, summary and CSV files against the
 * experiment's own result; a dry run that starts nothing; pause, resume, stop, describe and attach of a
 * running experiment (and a run of it by its {@code <experiment>/run-NNN} id); what-ifs of a recorded run.
 */
class SweepAgainstServerTest {
  private static Path dir;
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("sweep-against-server");
  private static WorkerInThisJvm worker;
  private static WorkflowServiceStubs service;
  private static WorkflowClient client;

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createDirectories(Path.of("target", "sweep"));
    // slowed a little, so that a longer experiment is still running while the tests signal it; in this JVM,
    // as the commands are (its own process is not what these tests are about)
    worker = WorkerInThisJvm.start("sweep-worker", temporal.env(Map.of("DURABLE_AGENTS_RULES_DELAY_MS", "5")));
    service = temporal.service();
    client = temporal.client();
  }

  @AfterAll
  static void stop() throws Exception {
    if (worker != null) {
      worker.close();
    }
  }

  private static String address() {
    return temporal.address();
  }

  private static CliFailuresTest.Run cli(String name, String... args) throws Exception {
    Map<String, String> env = new HashMap<>();
    env.putAll(temporal.env());
    env.put("DURABLE_AGENTS_DEBUG", null);
    env.put("DURABLE_AGENTS_MODEL", null);
    CliFailuresTest.Run r = CliFailuresTest.run(env, args);
    Files.writeString(dir.resolve(name + ".out"), r.out() + "\n--- stderr\n" + r.err());
    return r;
  }

  private static CliFailuresTest.Run ok(String name, String... args) throws Exception {
    CliFailuresTest.Run r = cli(name, args);
    assertEquals(0, r.exitCode(), r.out() + r.err());
    return r;
  }

  private static ExperimentResult result(String id) throws Exception {
    return client.newUntypedWorkflowStub(id).getResult(60, TimeUnit.SECONDS, ExperimentResult.class);
  }

  private static List<Map<String, String>> csv(Path file) throws Exception {
    List<String> lines = Files.readAllLines(file);
    String[] header = lines.get(0).split(",", -1);
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      assertEquals(header.length, cells.length, line);
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 0; i < header.length; i++) {
        row.put(header[i], cells[i]);
      }
      rows.add(row);
    }
    return rows;
  }

  @Test
  void aSweepPrintsALinePerRunAndASummaryAndWritesTheTableOfItsResult() throws Exception {
    Path perStep = dir.resolve("grid.csv");
    Path perRun = dir.resolve("grid-runs.csv");
    CliFailuresTest.Run r = ok("sweep-grid", "sweep", "--id", "exp-grid", "--steps", "3", "--citizens", "4",
        "--cops", "1", "--param", "legitimacy=0.3,0.9", "--seeds", "3", "--seed", "5", "--max-concurrent-runs", "2",
        "--csv", perStep.toString(), "--runs-csv", perRun.toString(), "--name", "legitimacy study");
    ExperimentResult result = result("exp-grid");
    assertEquals(6, result.runs().size());
    assertEquals(6, result.count(RunStatus.COMPLETED));
    assertTrue(r.out().startsWith("Started experiment exp-grid on " + address()), r.out());
    for (ExperimentRunOutcome o : result.runs()) {
      assertTrue(r.out().contains(String.format(Locale.ROOT, "run %03d  legitimacy=%s, seed=%d  COMPLETED  step 3  ",
          o.index(), o.values().get("legitimacy"), o.seed())), "a line for run " + o.index() + ":\n" + r.out());
    }
    assertTrue(r.out().contains("6/6 runs ended") || r.out().contains("Experiment exp-grid ended: 6 completed"),
        r.out());
    assertTrue(r.out().contains("Experiment exp-grid ended: 6 completed, 0 stopped, 0 failed, 0 not started of 6 "
        + "runs; " + result.llmCalls() + " LLM calls"), r.out());

    // --csv: Mesa's layout, one row per run and step, the workflow's rows
    List<Map<String, String>> rows = csv(perStep);
    assertEquals(List.of("run_id", "run", "legitimacy", "seed", "step", "active", "quiet", "jailed", "llm_calls",
        "tokens"), new ArrayList<>(rows.get(0).keySet()));
    assertEquals(18, rows.size());
    int i = 0;
    for (ExperimentRunOutcome o : result.runs()) {
      for (StepCounts s : o.result().perStep()) {
        Map<String, String> row = rows.get(i++);
        assertEquals(o.runId(), row.get("run_id"));
        assertEquals("exp-grid/run-00" + o.index(), row.get("run_id"));
        assertEquals(o.values().get("legitimacy"), row.get("legitimacy"));
        assertEquals(String.valueOf(o.seed()), row.get("seed"));
        assertEquals(String.valueOf(s.step()), row.get("step"));
        for (String count : List.of("active", "quiet", "jailed")) {
          assertEquals(s.counts().get(count).toString(), row.get(count));
        }
        assertEquals(String.valueOf(s.llmCalls()), row.get("llm_calls"));
        assertEquals(String.valueOf(s.tokens()), row.get("tokens"));
      }
    }
    // --runs-csv: one row per run at its end
    List<Map<String, String>> runs = csv(perRun);
    assertEquals(6, runs.size());
    for (ExperimentRunOutcome o : result.runs()) {
      Map<String, String> row = runs.get(o.index() - 1);
      assertEquals("COMPLETED", row.get("status"));
      assertEquals("1", row.get("attempts"));
      assertEquals(String.valueOf(o.result().llmCalls()), row.get("llm_calls"));
      assertEquals(String.valueOf(o.result().agentSteps()), row.get("agent_steps"));
      assertEquals(o.result().finalCounts().get("jailed").toString(), row.get("jailed"));
    }
    // the summary's means are those of the rows' last steps, by legitimacy over the seeds
    for (String legitimacy : List.of("0.3", "0.9")) {
      for (String count : List.of("active", "quiet", "jailed", "llm_calls")) {
        double mean = rows.stream().filter(row -> row.get("legitimacy").equals(legitimacy) && row.get("step").equals("3"))
            .mapToDouble(row -> Double.parseDouble(row.get(count))).average().orElseThrow();
        String block = r.out().substring(r.out().indexOf("  legitimacy=" + legitimacy + "  n=3"));
        assertTrue(block.contains("    " + count + " " + ExperimentTable.format(mean) + " ± "),
            count + " at " + legitimacy + " should have the mean " + mean + ":\n" + block);
      }
    }

    // attach and describe of the finished experiment show the same runs and summary
    CliFailuresTest.Run attached = ok("attach-grid", "attach", "exp-grid");
    String summary = r.out().substring(r.out().indexOf("Summary"), r.out().indexOf("Wrote"));
    assertTrue(attached.out().contains(summary), attached.out());
    CliFailuresTest.Run described = ok("describe-grid", "describe", "exp-grid");
    assertTrue(described.out().contains("Type:          Experiment"), described.out());
    assertTrue(described.out().contains("Name:          legitimacy study"), described.out());
    assertTrue(described.out().contains("run 006  legitimacy=0.9, seed=7  COMPLETED"), described.out());
    assertTrue(described.out().contains(summary), described.out());

    // list names the experiment after the simulations
    CliFailuresTest.Run listed = ok("list-grid", "list");
    String experiments = listed.out().substring(listed.out().indexOf("EXPERIMENT "));
    assertTrue(experiments.contains("exp-grid ") && experiments.contains("completed"), listed.out());

    // a run is a simulation like any other, by its <experiment>/run-NNN id
    CliFailuresTest.Run run = ok("describe-run", "describe", "exp-grid/run-002");
    assertTrue(run.out().contains("Type:          Simulation"), run.out());
    assertTrue(run.out().contains("Scenario:      epstein, seed 6, 3 steps"), run.out());
    Path history = dir.resolve("run-002.json");
    ok("history-run", "history", "exp-grid/run-002", "-o", history.toString());
    assertTrue(Files.readString(history).contains("WorkflowExecutionStarted")
        || Files.readString(history).contains("WORKFLOW_EXECUTION_STARTED"));
  }

  @Test
  void aDryRunStartsNothing() throws Exception {
    CliFailuresTest.Run r = ok("dry", "sweep", "--dry-run", "--id", "exp-dry", "--steps", "3",
        "--param", "legitimacy=0.3,0.9", "--seeds", "2");
    assertTrue(r.out().contains("Dry run: nothing was started."), r.out());
    CliFailuresTest.Run d = cli("describe-dry", "describe", "exp-dry");
    assertEquals(Failures.NOT_FOUND, d.exitCode(), d.out() + d.err());
  }

  @Test
  void pauseResumeStopDescribeAndAttachActOnTheWholeExperiment() throws Exception {
    ok("start-ctl", "sweep", "--no-wait", "--id", "exp-ctl", "--steps", "300", "--citizens", "4", "--cops", "1",
        "--param", "legitimacy=0.3,0.9", "--max-concurrent-runs", "1");
    SimulationWorkflow first = client.newWorkflowStub(SimulationWorkflow.class, "exp-ctl/run-001");
    waitFor(() -> {
      try {
        return first.progress() != null && first.progress().step() >= 1;
      } catch (RuntimeException e) {
        return false;
      }
    });
    CliFailuresTest.Run paused = ok("pause-ctl", "pause", "exp-ctl");
    assertTrue(paused.out().startsWith("Pause requested: experiment exp-ctl"), paused.out());
    waitFor(() -> first.progress().paused());
    ExperimentWorkflow experiment = client.newWorkflowStub(ExperimentWorkflow.class, "exp-ctl");
    assertTrue(experiment.progress().paused());
    CliFailuresTest.Run described = ok("describe-ctl", "describe", "exp-ctl");
    assertTrue(described.out().contains("Progress:      0/2 runs ended"), described.out());
    assertTrue(described.out().contains(", paused"), described.out());
    assertTrue(described.out().contains("run 001  legitimacy=0.3, seed=42  RUNNING  (exp-ctl/run-001)"), described.out());
    assertTrue(described.out().contains("run 002  legitimacy=0.9, seed=42  WAITING"), described.out());

    CliFailuresTest.Run resumed = ok("resume-ctl", "resume", "exp-ctl");
    assertEquals("Resumed experiment exp-ctl.", resumed.out().strip());
    waitFor(() -> !first.progress().paused());
    CliFailuresTest.Run again = cli("resume-ctl-again", "resume", "exp-ctl");
    assertEquals(Failures.USAGE, again.exitCode(), again.out() + again.err());
    assertTrue(again.errLines().get(0).startsWith("resume: experiment 'exp-ctl' is not paused: 0/2 runs ended"),
        again.err());

    // a run of it takes the simulation commands by its own id
    ok("pause-run", "pause", "exp-ctl/run-001");
    waitFor(() -> first.progress().paused());
    ok("resume-run", "resume", "exp-ctl/run-001");

    CliFailuresTest.Run stopped = ok("stop-ctl", "stop", "exp-ctl");
    assertTrue(stopped.out().startsWith("Stop requested: experiment exp-ctl"), stopped.out());
    CliFailuresTest.Run attached = ok("attach-ctl", "attach", "exp-ctl", "--runs-csv", dir.resolve("ctl.csv").toString());
    assertTrue(attached.out().contains("Experiment exp-ctl was stopped: 0 completed, 1 stopped, 0 failed, 1 not started"),
        attached.out());
    assertTrue(attached.out().contains("run 002  legitimacy=0.9, seed=42  NOT_STARTED: "), attached.out());
    ExperimentResult result = result("exp-ctl");
    assertTrue(result.stopped());
    assertTrue(result.runs().get(0).result().steps() < 300);
    List<Map<String, String>> runs = csv(dir.resolve("ctl.csv"));
    assertEquals("STOPPED", runs.get(0).get("status"));
    assertEquals("NOT_STARTED", runs.get(1).get("status"));
    assertFalse(runs.get(1).get("reason").isEmpty());
    // a stopped experiment cannot be stopped again
    CliFailuresTest.Run late = cli("stop-ctl-late", "stop", "exp-ctl");
    assertEquals(Failures.USAGE, late.exitCode(), late.out() + late.err());
  }

  @Test
  void whatIfsForkARecordedRunAtAStepWithTheirValues() throws Exception {
    ok("whatif-ref", "simulate", "--id", "whatif-ref", "--steps", "6", "--citizens", "4", "--cops", "1",
        "--progress", "lines");
    SimulationResult reference = client.newUntypedWorkflowStub("whatif-ref").getResult(SimulationResult.class);
    // a parameter fixed when the world is made cannot change after step 3
    CliFailuresTest.Run fixed = cli("whatif-fixed", "sweep", "--from", "whatif-ref", "--at-step", "3",
        "--param", "citizens=4,5");
    assertEquals(Failures.USAGE, fixed.exitCode(), fixed.out() + fixed.err());
    assertTrue(fixed.errLines().get(0).startsWith("sweep: --param: parameter 'citizens' of scenario epstein is "
        + "fixed when the world is made"), fixed.err());
    // nor can the world's options
    CliFailuresTest.Run world = cli("whatif-world", "sweep", "--from", "whatif-ref", "--at-step", "3",
        "--scenario", "negotiation");
    assertEquals(Failures.USAGE, world.exitCode(), world.out() + world.err());

    Path perStep = dir.resolve("whatif.csv");
    CliFailuresTest.Run r = ok("whatif", "sweep", "--from", "whatif-ref", "--at-step", "3", "--id", "exp-whatif",
        "--param", "legitimacy=0.1,0.95", "--csv", perStep.toString());
    ExperimentResult result = result("exp-whatif");
    assertEquals("whatif-ref", result.whatIfOf());
    assertEquals(3, result.whatIfStep());
    assertEquals(2, result.count(RunStatus.COMPLETED));
    assertTrue(r.out().contains("what-ifs of whatif-ref after step 3"), r.out());
    long callsBy3 = reference.perStep().get(2).llmCalls();
    for (ExperimentRunOutcome o : result.runs()) {
      assertEquals(List.of(4, 5, 6), o.result().perStep().stream().map(StepCounts::step).toList());
      SimulationResult run = client.newUntypedWorkflowStub(o.runId()).getResult(SimulationResult.class);
      // the recorded steps, read by replay: the same counts and no call of their own
      assertEquals(reference.perStep().subList(0, 3).stream().map(StepCounts::counts).toList(),
          run.perStep().subList(0, 3).stream().map(StepCounts::counts).toList());
      assertEquals(run.llmCalls() - callsBy3, o.result().llmCalls());
      assertEquals(1, run.interventions().size());
      assertEquals(4, run.interventions().get(0).atStep());
      assertEquals(Double.parseDouble(o.values().get("legitimacy")),
          run.interventions().get(0).parameters().get("legitimacy").asDouble());
      assertNotNull(o.result());
      assertEquals(null, o.seed(), "without --seeds a what-if keeps the recorded random state");
    }
    List<Map<String, String>> rows = csv(perStep);
    assertEquals(6, rows.size());
    assertEquals("4", rows.get(0).get("step"));
    assertEquals("", rows.get(0).get("seed"));
  }

  @Test
  void ctrlCDetachesAndTheExperimentGoesOn() throws Exception {
    List<String> command = new ArrayList<>(List.of(ChildProcesses.javaBinary(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC", "-cp", ChildProcesses.classpath(), io.durableagents.starter.StarterMain.class.getName(),
        "sweep", "--id", "exp-detach", "--steps", "300", "--citizens", "4", "--cops", "1", "--param",
        "legitimacy=0.3,0.9", "--max-concurrent-runs", "1"));
    Path out = dir.resolve("detach.out");
    Path err = dir.resolve("detach.err");
    ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().putAll(temporal.env());
    pb.environment().remove("DURABLE_AGENTS_DEBUG");
    pb.environment().remove("DURABLE_AGENTS_MODEL");
    Process p = pb.start();
    try {
      waitFor(() -> {
        try {
          return Files.readString(out).contains("Started experiment exp-detach");
        } catch (java.io.IOException e) {
          return false;
        }
      });
      Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).inheritIO().start();
      assertEquals(0, kill.waitFor());
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "sweep did not exit on Ctrl-C");
      assertEquals(130, p.exitValue(), Files.readString(out) + Files.readString(err));
      assertTrue(Files.readString(err).contains("sweep: detached; the run goes on: attach exp-detach"),
          Files.readString(err));
      // the experiment goes on without the command line
      ExperimentWorkflow experiment = client.newWorkflowStub(ExperimentWorkflow.class, "exp-detach");
      waitFor(() -> experiment.progress().byStatus().get(RunStatus.RUNNING) == 1);
    } finally {
      p.destroyForcibly().waitFor();
      client.newWorkflowStub(ExperimentWorkflow.class, "exp-detach").stop();
    }
  }

  static void waitFor(BooleanSupplier condition) {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (true) {
      boolean met;
      try {
        met = condition.getAsBoolean();
      } catch (RuntimeException e) {
        met = false;
      }
      if (met) {
        return;
      }
      if (System.nanoTime() > end) {
        throw new AssertionError("condition not met within 90 s");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }
}
