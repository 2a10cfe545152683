package io.durableagents.starter.benchmark;

import static io.durableagents.starter.benchmark.BenchmarkStatistics.median;

import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.worker.CompletedActivities;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Part 4 of the benchmark, recovery: a simulation whose worker is killed with kill -9 again and again, on
 * each server, measuring the time from each kill to the next completed activity and checking that no
 * completed call ran again and that the result equals an undisturbed run's; on the dev server, also its
 * own kill -9 ({@link ServerKillRecovery}).
 */
final class RecoveryBenchmark {
  private final BenchmarkCommand bench;

  RecoveryBenchmark(BenchmarkCommand bench) {
    this.bench = bench;
  }

  /** Part 4: the settings that recovery depends on, then the kills on each server, side by side. */
  void run() throws Exception {
    bench.section("4. Recovery",
        "Settings: LLM calls' heartbeat timeout " + io.durableagents.workflows.llm.LlmCallOptions.HEARTBEAT_TIMEOUT
        .toSeconds() + " s (a heartbeat every " + io.durableagents.activities.llm.LlmActivitiesImpl.HEARTBEAT_INTERVAL
        .toSeconds() + " s while a call waits), retried after " + io.durableagents.workflows.llm.LlmCallOptions.RETRY
        .getInitialInterval().toSeconds() + " s; sticky queue timeout 5 s (the SDK's default); the simulation's "
        + "workflow task timeout " + io.durableagents.workflows.simulation.SimulationTaskTimeout.forAgents(200)
        .toSeconds() + " s (SimulationTaskTimeout, 200 agents), its children's 10 s (Temporal's default); "
        + io.durableagents.worker.WorkerSettings.defaultWorkflowTaskSlots()
        + " workflow tasks at once per worker; deadlock detection after "
        + io.durableagents.worker.DurableAgentsPlugin.DEADLOCK_DETECTION_TIMEOUT_MS / 1000 + " s. Load average "
        + "when the part started: " + MachineReadings.loadAverage() + ".");
    ServerComparison.RecoveryRows byServer = new ServerComparison.RecoveryRows();
    for (int perWorkflow : bench.agentsPerWorkflow) {
      for (BenchmarkServer.Kind kind : bench.serverKinds) {
        bench.restartServer(kind, "2g");
        byServer.add(perWorkflow, kind, recovery(perWorkflow));
      }
    }
    byServer.lines().forEach(bench::line);
    if (bench.serverKinds.contains(BenchmarkServer.Kind.DEV_SERVER)) {
      for (int perWorkflow : bench.agentsPerWorkflow) {
        bench.restartServer(BenchmarkServer.Kind.DEV_SERVER, "2g");
        new ServerKillRecovery(bench, bench.logs).run(perWorkflow, recoveryAgents(), recoverySteps());
      }
    }
  }

  /**
   * 4. Kill -9 of the worker, again and again, in one 200-agent run: each time a new worker is
   * started at once, and the time from the kill to the next completed activity is measured; the next
   * kill comes once that worker has done its share of the run's calls.
   */
  private ServerComparison.RecoveryOutcome recovery(int perWorkflow) throws Exception {
    int n = recoveryAgents();
    int latency = 100;
    int simSteps = recoverySteps();
    long seed = System.nanoTime() % 1000;
    Random random = new Random(seed);
    Path journal = bench.logs.resolve("journal-recovery.log");
    Files.deleteIfExists(journal);
    Map<String, String> env = Map.of("DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString());
    String shape = perWorkflow == 1 ? "per-step" : "group" + perWorkflow;
    BenchmarkWorker worker = BenchmarkWorker.start(bench, "recovery-" + shape + "-0", ChildProcesses.javaBinary(), env);
    String id = "bench-recovery-" + System.nanoTime();
    SimulationInput input = bench.simulationInput(n, simSteps, latency, Strategy.COT, 1)
        .withAgentsPerWorkflow(perWorkflow);
    // An undisturbed run first: how many calls the run makes, and the result the killed one must equal.
    SimulationResult reference = bench.runSimulation(input, id + "-reference");
    int skip = Files.readAllLines(journal).size();
    io.temporal.client.WorkflowStub stub = bench.startSimulation(input, id);
    // Kill k comes after (10 + 60 * k / kills)% of the run's calls (+-3%), read from the execution
    // journal, and never before the worker started after the previous kill has completed a call.
    List<RecoveryKill> killed = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(20);
    for (int k = 0; k < bench.kills && System.nanoTime() < deadline; k++) {
      double share = 0.1 + 0.6 * k / Math.max(1, bench.kills) + 0.06 * (random.nextDouble() - 0.5);
      long killAfter = (long) (reference.llmCalls() * share);
      long pid = worker.pid();
      while ((CompletedActivities.doneInJournal(journal, skip) < killAfter || RecoveryJournal.firstDone(journal, skip, pid) < 0)
          && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      if (stub.describe().getStatus() != io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
        break; // the run ended before this kill
      }
      long killedAt = System.currentTimeMillis();
      worker.kill();
      long doneAtKill = CompletedActivities.doneInJournal(journal, skip);
      worker = BenchmarkWorker.start(bench, "recovery-" + shape + "-" + (k + 1), ChildProcesses.javaBinary(), env);
      killed.add(new RecoveryKill(killedAt, doneAtKill, System.currentTimeMillis(), worker));
    }
    SimulationResult r = stub.getResult(20, TimeUnit.MINUTES, SimulationResult.class);
    worker.stop();
    boolean sameResult = reference.perStep().equals(r.perStep()) && reference.llmCalls() == r.llmCalls()
        && reference.usage().equals(r.usage());

    Map<String, Integer> completed = CompletedActivities.byRun(bench.client, id);
    int[] ranAgainAndRetried = RecoveryJournal.ranAgain(journal, skip, completed);
    int ranAgainAfterCompletion = ranAgainAndRetried[0];
    int retriedInFlight = ranAgainAndRetried[1];
    bench.line("On the " + bench.server.kind.label + ": a " + n + "-agent CoT run (L = " + latency + " ms, " + simSteps + " steps, " + (perWorkflow == 1
        ? "a workflow per agent step" : perWorkflow + " agents per workflow") + ", seed " + seed + ") whose worker "
        + "is killed with kill -9 " + killed.size() + " times; after each kill a new worker (a new JVM) is started "
        + "at once, and the next kill comes once it has completed a call and the run has gone on.");
    bench.tableHeader("| kill | after LLM calls | kill -9 to the new worker polling (ms) | kill -9 to the next "
        + "completed activity (ms) | that activity | TMPRL1101 in the new worker's log |",
        "| ---: | ---: | ---: | ---: | --- | ---: |");
    List<Double> nextDone = new ArrayList<>();
    int k = 0;
    for (RecoveryKill kill : killed) {
      k++;
      long[] first = RecoveryJournal.firstDoneWithAttempt(journal, skip, kill.worker().pid());
      String after = first[0] < 0 ? "n/a" : Long.toString(first[0] - kill.killedAt());
      if (first[0] >= 0) {
        nextDone.add((double) (first[0] - kill.killedAt()));
      }
      bench.line("| " + k + " | " + kill.doneAtKill() + " | " + (kill.readyAt() - kill.killedAt()) + " | " + after + " | "
          + (first[0] < 0 ? "-" : first[1] > 1 ? "a call in flight at the kill, retried (attempt " + first[1] + ")"
              : "a call not yet started at the kill") + " | " + MachineReadings.countInLog(kill.worker().log(), "TMPRL1101") + " |");
    }
    bench.line("");
    bench.tableHeader("| measure | value |", "| --- | ---: |");
    if (!nextDone.isEmpty()) {
      bench.line(String.format(Locale.ROOT, "| kill -9 to the next completed activity, median / worst (ms) | **%.0f** / **%.0f** |",
          median(nextDone), nextDone.stream().mapToDouble(Double::doubleValue).max().orElse(0)));
    }
    bench.line("| activities completed in the run | " + completed.size() + " |");
    bench.line("| completed calls executed again | **" + ranAgainAfterCompletion + "** |");
    bench.line("| calls in flight at a kill, retried (at-least-once) | " + retriedInFlight + " |");
    bench.line("| agent steps, LLM calls | " + r.agentSteps() + ", " + r.llmCalls() + " |");
    bench.line("| result equal to the undisturbed run's | " + (sameResult ? "yes" : "**no**") + " |");
    bench.line("");
    return new ServerComparison.RecoveryOutcome(nextDone, ranAgainAfterCompletion, sameResult);
  }

  private int recoveryAgents() {
    return bench.recoverySize != null ? Integer.parseInt(bench.recoverySize.split(":")[0]) : bench.quick ? 50 : 200;
  }

  private int recoverySteps() {
    return bench.recoverySize != null && bench.recoverySize.contains(":") ? Integer.parseInt(bench.recoverySize.split(":")[1])
        : bench.quick ? bench.steps : Math.max(bench.steps, 20);
  }

  /** One kill of the recovery part: when, after how many calls, when its successor polled, and which. */
  private record RecoveryKill(long killedAt, long doneAtKill, long readyAt, BenchmarkWorker worker) {}
}
