package io.durableagents.starter.benchmark;

import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.worker.CompletedActivities;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowStub;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The benchmark's kill -9 of the real dev server in the middle of a simulation: the Temporal CLI's
 * process and its {@code dev-server} JVM are killed, and the server is started again at once on the same
 * SQLite file and port while the worker keeps running. Measured: the time from the restart (the server
 * listening again) and from the kill to the next activity the worker completes. The run must end with the
 * result of an undisturbed run of the same input, and no completed call may run again (the checks of the
 * worker-kill part).
 */
final class ServerKillRecovery {
  /** One kill: when, when the server listened again, after how many calls, and the next completion (-1: none). */
  record ServerKill(long killedAt, long readyAt, long doneAtKill, long nextDoneAt) {}

  private final BenchmarkCommand bench;
  private final Path logs;

  ServerKillRecovery(BenchmarkCommand bench, Path logs) {
    this.bench = bench;
    this.logs = logs;
  }

  /** Runs {@code n} agents for {@code simSteps} steps at L = 100 ms, killing the dev server 3 times. */
  void run(int perWorkflow, int n, int simSteps) throws Exception {
    int latency = 100;
    int serverKills = 3;
    Path journal = logs.resolve("journal-server-kill.log");
    Files.deleteIfExists(journal);
    Map<String, String> env = Map.of("DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString());
    BenchmarkWorker worker = BenchmarkWorker.start(bench, "server-kill-" + perWorkflow,
        ChildProcesses.javaBinary(), env);
    List<ServerKill> killed = new ArrayList<>();
    SimulationResult reference;
    SimulationResult r;
    String id = "bench-server-kill-" + System.nanoTime();
    try {
      SimulationInput input = bench.simulationInput(n, simSteps, latency, Strategy.COT, 1)
          .withAgentsPerWorkflow(perWorkflow);
      reference = bench.runSimulation(input, id + "-reference");
      int skip = Files.readAllLines(journal).size();
      WorkflowStub stub = bench.startSimulation(input, id);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
      for (int k = 0; k < serverKills && System.nanoTime() < deadline; k++) {
        long killAfter = (long) (reference.llmCalls() * (0.2 + 0.5 * k / serverKills));
        while (CompletedActivities.doneInJournal(journal, skip) < killAfter && System.nanoTime() < deadline) {
          Thread.sleep(5);
        }
        if (stub.describe().getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
          break;
        }
        long killedAt = System.currentTimeMillis();
        bench.server.kill();
        long doneAtKill = CompletedActivities.doneInJournal(journal, skip);
        bench.server.restart();
        long readyAt = System.currentTimeMillis();
        long next = -1;
        long wait = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (next < 0 && System.nanoTime() < wait) {
          Thread.sleep(20);
          next = firstDoneAfter(journal, skip, readyAt);
        }
        killed.add(new ServerKill(killedAt, readyAt, doneAtKill, next));
        System.out.printf(Locale.ROOT, "  dev server kill %d: restarted after %d ms, next completed activity %d ms "
            + "after the restart%n", k + 1, readyAt - killedAt, next < 0 ? -1 : next - readyAt);
      }
      r = stub.getResult(20, TimeUnit.MINUTES, SimulationResult.class);
      int[] check = RecoveryJournal.ranAgain(journal, skip, CompletedActivities.byRun(bench.client, id));
      boolean sameResult = reference.perStep().equals(r.perStep()) && reference.llmCalls() == r.llmCalls()
          && reference.usage().equals(r.usage());
      report(perWorkflow, n, simSteps, latency, killed, check, sameResult, r);
    } finally {
      worker.stop();
    }
  }

  private void report(int perWorkflow, int n, int simSteps, int latency, List<ServerKill> killed, int[] check,
      boolean sameResult, SimulationResult r) {
    bench.line("Kill -9 of the dev server (the Temporal CLI's process and its `dev-server` JVM) in a " + n
        + "-agent CoT run (L = " + latency + " ms, " + simSteps + " steps, " + (perWorkflow == 1
        ? "a workflow per agent step" : "groups of " + perWorkflow) + "), " + killed.size() + " times; each time it "
        + "is started again at once on the same SQLite file and port, the worker left running.");
    bench.line("");
    bench.line("| kill | after LLM calls | kill -9 to listening again (ms) | restart to the next completed activity (ms) "
        + "| kill -9 to the next completed activity (ms) |");
    bench.line("| ---: | ---: | ---: | ---: | ---: |");
    List<Double> fromRestart = new ArrayList<>();
    List<Double> fromKill = new ArrayList<>();
    int k = 0;
    for (ServerKill kill : killed) {
      k++;
      boolean done = kill.nextDoneAt() >= 0;
      if (done) {
        fromRestart.add((double) (kill.nextDoneAt() - kill.readyAt()));
        fromKill.add((double) (kill.nextDoneAt() - kill.killedAt()));
      }
      bench.line("| " + k + " | " + kill.doneAtKill() + " | " + (kill.readyAt() - kill.killedAt()) + " | "
          + (done ? kill.nextDoneAt() - kill.readyAt() : "none in 3 min") + " | "
          + (done ? kill.nextDoneAt() - kill.killedAt() : "-") + " |");
    }
    bench.line("");
    bench.line("| measure | value |");
    bench.line("| --- | ---: |");
    if (!fromRestart.isEmpty()) {
      bench.line(String.format(Locale.ROOT, "| restart to the next completed activity, median / worst (ms) | **%.0f** / "
          + "**%.0f** |", median(fromRestart), max(fromRestart)));
      bench.line(String.format(Locale.ROOT, "| kill -9 to the next completed activity, median / worst (ms) | %.0f / %.0f |",
          median(fromKill), max(fromKill)));
    }
    bench.line("| completed calls executed again | **" + check[0] + "** |");
    bench.line("| calls in flight at a kill, retried (at-least-once) | " + check[1] + " |");
    bench.line("| agent steps, LLM calls | " + r.agentSteps() + ", " + r.llmCalls() + " |");
    bench.line("| result equal to the undisturbed run's | " + (sameResult ? "yes" : "**no**") + " |");
    bench.line("");
  }

  /** The first activity the journal (from line {@code skip}) records done at or after {@code from} (epoch ms), or -1. */
  static long firstDoneAfter(Path journal, int skip, long from) throws IOException {
    long[] first = {-1};
    try (Stream<String> lines = Files.lines(journal)) {
      lines.skip(skip).forEach(l -> {
        String[] f = l.split("\t");
        if (f.length > 1 && f[1].equals("done")) {
          long at = Long.parseLong(f[0]);
          if (at >= from && (first[0] < 0 || at < first[0])) {
            first[0] = at;
          }
        }
      });
    }
    return first[0];
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static double max(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
  }
}
