package io.durableagents.starter.benchmark;

import static io.durableagents.starter.benchmark.BenchmarkStatistics.median;
import static io.durableagents.starter.benchmark.MachineReadings.cpuMillis;

import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.experiment.ExperimentInput;
import io.durableagents.workflows.experiment.ExperimentResult;
import io.durableagents.workflows.experiment.ExperimentRun;
import io.durableagents.workflows.experiment.ExperimentWorkflow;
import io.durableagents.workflows.experiment.RunStatus;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's experiment part (issue 35): an experiment of R runs of A agents each against one
 * simulation of R x A agents, the same steps, the same shape, side by side on each server: wall time,
 * agent steps/s and CPU per agent step; the experiment with one worker and with two sharing it.
 */
final class ExperimentBenchmark {
  private final BenchmarkCommand bench;

  ExperimentBenchmark(BenchmarkCommand bench) {
    this.bench = bench;
  }

  private record Row(String what, int workers, double wall, long agentSteps, double workerCpuMs, double serverCpuMs,
      List<Double> cpuSecondsPerWorker, long llmCalls) {}

  void run() throws Exception {
    int runs = bench.quick ? 6 : bench.experimentRuns;
    int agents = bench.quick ? 20 : bench.experimentAgents;
    int steps = bench.quick ? 4 : bench.experimentSteps;
    int perWorkflow = bench.agentsPerWorkflow.stream().mapToInt(Integer::intValue).max().orElse(50);
    int concurrency = bench.experimentConcurrency == null ? runs : bench.experimentConcurrency;
    bench.section("8. Experiments",
        "An experiment (`sweep`) of " + runs + " runs of " + agents + " agents x " + steps + " steps (Epstein, CoT, the "
        + "rules model, seeds 1-" + runs + ", " + perWorkflow + " agents per workflow, " + concurrency + " runs at once) "
        + "against one simulation of the same total size (" + (runs * agents) + " agents x " + steps + " steps, the "
        + "same grid density and shape), each on a fresh server with fresh workers, taking turns ("
        + bench.repeat + " round(s)); medians, the rounds in brackets. Two workers sharing the experiment show "
        + "the CPU seconds each spent.");
    Map<String, List<Row>> rows = new LinkedHashMap<>();
    for (int round = 0; round < bench.repeat; round++) {
      for (BenchmarkServer.Kind kind : bench.serverKinds) {
        rows.computeIfAbsent(kind.label + "|one simulation|1", k -> new ArrayList<>())
            .add(measure(kind, 1, "one simulation", () -> {
              SimulationInput big = bench.simulationInput(runs * agents, steps, 0, Strategy.COT, 1)
                  .withAgentsPerWorkflow(perWorkflow);
              SimulationResult r = bench.runSimulation(big, "bench-exp-one-" + System.nanoTime());
              return new long[] {r.agentSteps(), r.llmCalls()};
            }));
        for (int workers : List.of(1, 2)) {
          rows.computeIfAbsent(kind.label + "|experiment|" + workers, k -> new ArrayList<>())
              .add(measure(kind, workers, "experiment", () -> experiment(runs, agents, steps, perWorkflow, concurrency)));
        }
      }
    }
    bench.tableHeader("| server | what | workers | wall (s) | agent steps | agent steps/s | against one simulation "
        + "| CPU ms per agent step (worker + server) | CPU s per worker | LLM calls |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |");
    for (Map.Entry<String, List<Row>> e : rows.entrySet()) {
      String server = e.getKey().split("\\|")[0];
      List<Row> measured = e.getValue();
      List<Row> one = rows.get(server + "|one simulation|1");
      double rate = median(measured.stream().map(r -> r.agentSteps() / r.wall()).toList());
      double oneRate = median(one.stream().map(r -> r.agentSteps() / r.wall()).toList());
      Row first = measured.get(0);
      bench.line(String.format(Locale.ROOT, "| %s | %s | %d | %.1f (%s) | %d | %.0f | %.2f | %.1f + %.1f | %s | %d |",
          server, first.what(), first.workers(), median(measured.stream().map(Row::wall).toList()),
          String.join(", ", measured.stream().map(r -> String.format(Locale.ROOT, "%.1f", r.wall())).toList()),
          first.agentSteps(), rate, rate / oneRate,
          median(measured.stream().map(Row::workerCpuMs).toList()),
          median(measured.stream().map(Row::serverCpuMs).toList()),
          String.join(" / ", first.cpuSecondsPerWorker().stream()
              .map(c -> String.format(Locale.ROOT, "%.0f", c)).toList()),
          first.llmCalls()));
    }
    bench.line("");
  }

  private interface Work {
    long[] run() throws Exception;
  }

  private Row measure(BenchmarkServer.Kind kind, int workers, String what, Work work) throws Exception {
    bench.restartServer(kind, "2g");
    List<BenchmarkWorker> started = new ArrayList<>();
    try {
      for (int i = 0; i < workers; i++) {
        started.add(BenchmarkWorker.start(bench, "experiment-" + what.replace(' ', '-') + "-" + i + "-" + System.nanoTime(),
            ChildProcesses.javaBinary(), Map.of()));
      }
      // classes loaded and the JIT warmed on a small run, as every part does
      bench.runSimulation(bench.simulationInput(20, 3, 0, Strategy.COT, 1), "bench-exp-warm-" + System.nanoTime());
      List<Double> cpu0 = new ArrayList<>();
      for (BenchmarkWorker w : started) {
        cpu0.add(cpuMillis(w.pid()));
      }
      double server0 = bench.server.cpuMillis();
      long t0 = System.nanoTime();
      long[] done = work.run();
      double wall = (System.nanoTime() - t0) / 1e9;
      List<Double> perWorker = new ArrayList<>();
      double workerCpu = 0;
      for (int i = 0; i < started.size(); i++) {
        double c = cpuMillis(started.get(i).pid()) - cpu0.get(i);
        perWorker.add(c / 1000);
        workerCpu += c;
      }
      double serverCpu = bench.server.cpuMillis() - server0;
      System.out.printf(Locale.ROOT, "  %s %s, %d worker(s): %.1f s, %d agent steps%n", kind.label, what, workers, wall,
          done[0]);
      return new Row(what, workers, wall, done[0], workerCpu / done[0], serverCpu / done[0], perWorker, done[1]);
    } finally {
      for (BenchmarkWorker w : started) {
        w.stop();
      }
    }
  }

  private long[] experiment(int runs, int agents, int steps, int perWorkflow, int concurrency) throws Exception {
    SimulationInput base = bench.simulationInput(agents, steps, 0, Strategy.COT, 1).withAgentsPerWorkflow(perWorkflow);
    List<ExperimentRun> planned = new ArrayList<>();
    for (int i = 1; i <= runs; i++) {
      planned.add(new ExperimentRun(i, Map.of(), (long) i, null, null, null, null));
    }
    String id = "bench-exp-" + System.nanoTime();
    ExperimentWorkflow experiment = bench.client.newWorkflowStub(ExperimentWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
    WorkflowClient.start(experiment::run, new ExperimentInput("benchmark", base, planned, concurrency, null, null,
        null, null, null, null, null, agents));
    ExperimentResult result = WorkflowStub.fromTyped(experiment).getResultAsync(ExperimentResult.class)
        .get(bench.timeLimitMinutes == null ? 120 : bench.timeLimitMinutes, TimeUnit.MINUTES);
    if (result.count(RunStatus.COMPLETED) != runs) {
      throw new IllegalStateException(id + ": " + result.count(RunStatus.COMPLETED) + " of " + runs + " runs completed");
    }
    long agentSteps = 0;
    long calls = 0;
    for (var run : result.runs()) {
      agentSteps += run.result().agentSteps();
      calls += run.result().llmCalls();
    }
    return new long[] {agentSteps, calls};
  }
}
