package io.durableagents.starter.benchmark;

import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parts 5 and 6 of the benchmark, history size and cost: the same Epstein runs, one per strategy, read
 * back from their histories (events and bytes per agent step, and the longest run that stays well within
 * Temporal's limits) and from their results (LLM calls, tokens and plans per agent step).
 */
final class HistoryCostBenchmark {
  private final BenchmarkCommand bench;

  HistoryCostBenchmark(BenchmarkCommand bench) {
    this.bench = bench;
  }

  /** 5 and 6. Events and bytes per agent step, and LLM calls and tokens per agent step, per strategy. */
  void run() throws Exception {
    int n = bench.quick ? 20 : 50;
    int simSteps = bench.quick ? 5 : 10;
    BenchmarkWorker worker = BenchmarkWorker.start(bench, "history", ChildProcesses.javaBinary(), Map.of());
    List<String[]> variants = List.of(new String[] {"cot", "1"}, new String[] {"react", "1"},
        new String[] {"rewoo", "1"}, new String[] {"rewoo", "3"}, new String[] {"rewoo", "5"});
    List<String> historyRows = new ArrayList<>();
    List<String> costRows = new ArrayList<>();
    try {
      for (String[] v : variants) {
        Strategy s = Strategy.parse(v[0]);
        int ttl = Integer.parseInt(v[1]);
        String id = "bench-history-" + v[0] + "-" + ttl + "-" + System.nanoTime();
        SimulationResult r = bench.runSimulation(bench.simulationInput(n, simSteps, 0, s, ttl), id);
        WorkflowExecutionHistory sim = bench.client.fetchHistory(id);
        long simEvents = sim.getEvents().size();
        long simBytes = sim.getHistory().getSerializedSize();
        long stepEvents = 0;
        long stepBytes = 0;
        long children = 0;
        for (HistoryEvent e : sim.getEvents()) {
          if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
            WorkflowExecutionHistory child = bench.client.fetchHistory(
                e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId());
            stepEvents += child.getEvents().size();
            stepBytes += child.getHistory().getSerializedSize();
            children++;
          }
        }
        String label = s.label() + (s == Strategy.REWOO ? " TTL " + ttl : "");
        double eventsPerSimStep = (double) simEvents / simSteps;
        double bytesPerSimStep = (double) simBytes / simSteps;
        long maxSteps = (long) Math.min(5_000 / eventsPerSimStep, 5_000_000 / bytesPerSimStep);
        historyRows.add(String.format(Locale.ROOT, "| %s | %.1f | %.0f | %.1f | %.0f | %d |", label,
            (double) stepEvents / children, (double) stepBytes / children,
            eventsPerSimStep / n, bytesPerSimStep / n, maxSteps));
        costRows.add(String.format(Locale.ROOT, "| %s | %.2f | %.0f | %.0f | %d / %d / %d |", label,
            (double) r.llmCalls() / r.agentSteps(), (double) r.usage().input() / r.agentSteps(),
            (double) r.usage().output() / r.agentSteps(), r.planCounts().plansMade(),
            r.planCounts().planStepsReused(), r.planCounts().replans()));
      }
    } finally {
      worker.stop();
    }
    if (bench.parts.contains("history")) {
      bench.section("5. History size",
          "Epstein, " + n + " agents x " + simSteps + " steps, `rules` model. An agent step is its own "
          + "workflow (`AgentStep`); the simulation's own history grows by the columns 'per agent in the "
          + "simulation' for every agent and step. Temporal's limits per workflow run: 50,000 events, 50 MB; "
          + "the last column is the longest run of " + n + " agents whose simulation history stays under 10% "
          + "of both (5,000 events, 5 MB).");
      bench.table("| strategy | events per agent step | bytes per agent step | simulation events per agent-step "
          + "| simulation bytes per agent-step | longest run under 10% (steps, " + n + " agents) |",
          "| --- | ---: | ---: | ---: | ---: | ---: |", historyRows);
    }
    if (bench.parts.contains("cost")) {
      bench.section("6. Cost per agent step",
          "The same runs: LLM calls and tokens per simulated agent step (the `rules` model's token counts are "
          + "estimates, four characters a token), and plans made / agent steps served from a plan / re-plans.");
      bench.table("| strategy | LLM calls per agent step | input tokens per agent step | output tokens per agent step "
          + "| plans made / steps reused / re-plans |", "| --- | ---: | ---: | ---: | ---: |", costRows);
    }
  }
}
