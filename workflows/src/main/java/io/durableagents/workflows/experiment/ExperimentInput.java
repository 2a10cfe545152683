package io.durableagents.workflows.experiment;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.durableagents.workflows.simulation.SimulationInput;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What an experiment runs: a base simulation and the runs made from it (a grid of parameters, seeds,
 * strategies or models, crossed), how many run at once, a budget, and what a failed run does.
 *
 * <pre>{@code
 * ExperimentInput input = new ExperimentInput("legitimacy", SimulationInput.of("epstein", 20, 0L),
 *     List.of(new ExperimentRun(1, Map.of("legitimacy", "0.3"), 1L, params03, null, null, null), ...),
 *     4, new ExperimentBudget(10_000L, null), RunFailurePolicy.SKIP, null, 300L, null, null, null);
 * WorkflowClient.start(experiment::run, input);
 * }</pre>
 *
 * @param name what the experiment is about, for people (may be null)
 * @param base the simulation every run starts from: scenario, steps, options; for what-ifs the input of
 *     a recorded run at a step, with its state
 * @param runs the runs, in the order they start; indices from 1, each once
 * @param maxConcurrentRuns how many runs go at once (default {@link #DEFAULT_MAX_CONCURRENT_RUNS})
 * @param budget what all runs together may spend (null: no bound)
 * @param onRunFailure what a failed run does (default {@link RunFailurePolicy#SKIP})
 * @param runRetries how many times a failed run starts again with {@link RunFailurePolicy#RETRY}
 *     (default 1)
 * @param estimatedCallsPerRun what a run is expected to call, for the budget until runs have finished
 *     (null: none; the mean of the completed runs replaces it once there is one)
 * @param estimatedTokensPerRun the same in tokens
 * @param whatIfOf for what-ifs, the simulation whose recorded state {@code base} carries (null: none)
 * @param whatIfStep the step of that state
 * @param agentsPerRun how many agents a run has, for its workflow task timeout ({@link
 *     io.durableagents.workflows.simulation.SimulationTaskTimeout}, as {@code simulate} gives one; null:
 *     Temporal's default)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExperimentInput(
    String name,
    SimulationInput base,
    List<ExperimentRun> runs,
    Integer maxConcurrentRuns,
    ExperimentBudget budget,
    RunFailurePolicy onRunFailure,
    Integer runRetries,
    Long estimatedCallsPerRun,
    Long estimatedTokensPerRun,
    String whatIfOf,
    Integer whatIfStep,
    Integer agentsPerRun) {

  public static final int DEFAULT_MAX_CONCURRENT_RUNS = 4;
  /**
   * The most runs one experiment holds: each run adds a few events and its result to the experiment's
   * history, which Temporal bounds (50,000 events, 50 MB); split a larger study into experiments.
   */
  public static final int MAX_RUNS = 2_000;
  /**
   * The most per-step rows (runs x steps) the experiment's result and its {@code runs} query carry: a
   * payload Temporal takes is bounded (2 MB by default); beyond it each run's rows stay in its own
   * simulation's result, and the experiment keeps the runs' totals and final counts.
   */
  public static final int MAX_TABLE_ROWS = 10_000;
  /**
   * The most runs x steps one experiment takes: every run's result, its rows with it, lands in the
   * experiment's history, which Temporal bounds at 50 MB.
   */
  public static final long MAX_RUN_STEPS = 200_000;

  /** Without the agents per run (Temporal's default workflow task timeout for every run). */
  public ExperimentInput(String name, SimulationInput base, List<ExperimentRun> runs, Integer maxConcurrentRuns,
      ExperimentBudget budget, RunFailurePolicy onRunFailure, Integer runRetries, Long estimatedCallsPerRun,
      Long estimatedTokensPerRun, String whatIfOf, Integer whatIfStep) {
    this(name, base, runs, maxConcurrentRuns, budget, onRunFailure, runRetries, estimatedCallsPerRun,
        estimatedTokensPerRun, whatIfOf, whatIfStep, null);
  }

  public ExperimentInput {
    runs = runs == null ? List.of() : List.copyOf(runs);
    maxConcurrentRuns = maxConcurrentRuns == null ? DEFAULT_MAX_CONCURRENT_RUNS : maxConcurrentRuns;
    onRunFailure = onRunFailure == null ? RunFailurePolicy.SKIP : onRunFailure;
    runRetries = runRetries == null ? 1 : runRetries;
  }

  /**
   * Checks the experiment, so that a bad one fails at once naming what is wrong.
   *
   * @throws IllegalArgumentException naming the bad field
   */
  public void validate() {
    if (base == null) {
      throw new IllegalArgumentException("base must be the simulation every run starts from, was null");
    }
    base.validate();
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("runs must hold at least one run, was empty");
    }
    if (runs.size() > MAX_RUNS) {
      throw new IllegalArgumentException("runs: " + runs.size() + " runs, more than the " + MAX_RUNS
          + " one experiment holds; split the grid into several experiments");
    }
    if ((long) runs.size() * base.steps() > MAX_RUN_STEPS) {
      throw new IllegalArgumentException("runs x steps: " + runs.size() + " x " + base.steps() + " = "
          + (long) runs.size() * base.steps() + ", more than the " + MAX_RUN_STEPS + " one experiment holds (every "
          + "run's rows land in its history); split the grid into several experiments");
    }
    Set<Integer> seen = new HashSet<>();
    for (ExperimentRun run : runs) {
      if (run.index() < 1 || !seen.add(run.index())) {
        throw new IllegalArgumentException("runs: index " + run.index() + " is below 1 or given twice");
      }
    }
    if (maxConcurrentRuns < 1) {
      throw new IllegalArgumentException("maxConcurrentRuns must be >= 1, was " + maxConcurrentRuns);
    }
    if (runRetries < 0) {
      throw new IllegalArgumentException("runRetries must be >= 0, was " + runRetries);
    }
  }
}
