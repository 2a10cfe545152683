package io.durableagents.starter.benchmark;

import static io.durableagents.starter.benchmark.BenchmarkStatistics.median;

import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark's fork part: how long reading the state after a step of a recorded run from its history
 * takes (what {@code fork} does before it starts the new run), at a continue-as-new run's start and in
 * the middle of one, against the time the recorded steps took.
 */
final class ForkBenchmark {
  private final BenchmarkCommand bench;

  ForkBenchmark(BenchmarkCommand bench) {
    this.bench = bench;
  }

  /**
   * The time to read the state after a step of a recorded run from its history (what {@code fork}
   * does before it starts the new run), at the start of a continue-as-new run (its input holds the
   * state) and in the middle of one (a prefix replayed, found by bisection), against the time the
   * recorded steps took.
   */
  void run() throws Exception {
    int n = 20;
    int total = bench.quick ? 100 : 1000;
    int every = SimulationInput.DEFAULT_CONTINUE_AS_NEW_EVERY;
    BenchmarkWorker worker = BenchmarkWorker.start(bench, "fork", ChildProcesses.javaBinary(), Map.of());
    String id = "bench-fork-" + System.nanoTime();
    long started = System.nanoTime();
    try {
      bench.runSimulation(bench.simulationInput(n, total, 0, Strategy.COT, 1), id);
    } finally {
      worker.stop();
    }
    double recordedSeconds = (System.nanoTime() - started) / 1e9;
    bench.section("5. Forks",
        "A " + total + "-step simulation of " + n + " agents (CoT, the rules model, continue-as-new every " + every
        + " steps or earlier when the history budget says so) recorded in " + String.format(Locale.ROOT, "%.0f", recordedSeconds) + " s; then the state "
        + "after a step read from its history as `fork` reads it (no worker, no LLM call), 5 times each:");
    bench.tableHeader("| fork at step | where it is | runs fetched | prefixes replayed | ms min / median / max |",
        "| ---: | --- | ---: | ---: | --- |");
    int[] steps = forkPoints(total, every);
    io.durableagents.worker.DurableAgentsPlugin plugin =
        io.durableagents.worker.DurableAgentsPlugin.newBuilder().configureFromClasspath().build();
    for (int at : steps) {
      List<Double> millis = new ArrayList<>();
      int replays = 0;
      int runs = 0;
      for (int i = 0; i < 5; i++) {
        io.durableagents.worker.SimulationReplay replay = new io.durableagents.worker.SimulationReplay(bench.client, plugin);
        try {
          long t = System.nanoTime();
          io.durableagents.workflows.simulation.Checkpoint c = replay.stateAfter(bench.client, id, at);
          millis.add((System.nanoTime() - t) / 1e6);
          if (c.step() != at) {
            throw new IllegalStateException("read step " + c.step() + " for " + at);
          }
          replays = replay.replays();
          runs = replay.fetched();
        } finally {
          replay.close();
        }
      }
      java.util.Collections.sort(millis);
      bench.line(String.format(Locale.ROOT, "| %d | %s | %d | %d | %.0f / %.0f / %.0f |", at,
          replays == 0 ? "a run's start (its input)" : "inside a run",
          runs, replays, millis.get(0), median(millis), millis.get(millis.size() - 1)));
    }
    bench.line("");
  }

  /**
   * The steps to fork at: at a run's start, inside one of the last runs and inside an early one; a
   * short simulation ({@code --quick}: one run of 100 steps) only those it reaches.
   */
  static int[] forkPoints(int total, int every) {
    return java.util.stream.IntStream.of(total * 9 / 10, total * 9 / 10 + every / 2, total / 10 + every / 2)
        .filter(step -> step <= total).distinct().toArray();
  }
}
