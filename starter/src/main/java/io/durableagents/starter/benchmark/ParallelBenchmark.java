package io.durableagents.starter.benchmark;

import io.durableagents.activities.llm.LatencyChatModel;
import io.durableagents.activities.tools.ToolRegistry;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Part 2 of the benchmark, parallel plan levels: a task of independent slow look-ups run by ReWOO (one
 * level of parallel activities) and by ReAct (one look-up per turn), on a worker in the driver's JVM, and
 * a table of their wall times.
 */
final class ParallelBenchmark {
  private final BenchmarkCommand bench;

  ParallelBenchmark(BenchmarkCommand bench) {
    this.bench = bench;
  }

  /** 2. A task of 8 independent 200 ms look-ups: ReWOO vs ReAct. */
  void run() throws Exception {
    long toolMillis = 200;
    long latency = 50;
    DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder()
        .setTools(ToolRegistry.newBuilder().addExternalTools(new BenchmarkModels.SlowLookupTool(toolMillis))
            .addControlTools(new io.durableagents.activities.tools.FinishTool()).build())
        .registerModel("lookup-task", new LatencyChatModel(new BenchmarkModels.LookupTaskModel(),
            Duration.ofMillis(latency)))
        .setStickyExecution(false)
        .build();
    WorkflowClient pluggedClient = WorkflowClient.newInstance(bench.service,
        WorkflowClientOptions.newBuilder().setPlugins(plugin).build());
    WorkerFactory factory = WorkerFactory.newInstance(pluggedClient);
    factory.start();
    try {
      bench.section("2. Parallel plan levels",
          "A task of " + BenchmarkModels.KEYS + " independent look-ups, each tool call taking " + toolMillis
          + " ms, each LLM call " + latency + " ms (a deterministic scripted model). ReWOO plans all "
          + "look-ups at once and runs them as one level of parallel activities; ReAct looks up one key "
          + "per turn, as the classic loop does. Worker in the driver's JVM.");
      bench.tableHeader("| strategy | wall time (ms) | LLM calls | tool calls |", "| --- | ---: | ---: | ---: |");
      Map<Strategy, Long> wall = new LinkedHashMap<>();
      for (Strategy s : List.of(Strategy.REWOO, Strategy.REACT)) {
        runTask(pluggedClient, s, "warm");
        long t0 = System.nanoTime();
        AgentTaskResult r = runTask(pluggedClient, s, "run");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        wall.put(s, ms);
        bench.line(String.format(Locale.ROOT, "| %s | %d | %d | %d |", s.label(), ms, r.llmCalls(), r.toolCalls()));
      }
      bench.line(String.format(Locale.ROOT, "| **ratio react / rewoo** | **%.2f** | | |",
          (double) wall.get(Strategy.REACT) / wall.get(Strategy.REWOO)));
      bench.line("");
    } finally {
      factory.shutdown();
      factory.awaitTermination(20, TimeUnit.SECONDS);
    }
  }

  private static AgentTaskResult runTask(WorkflowClient client, Strategy s, String tag) {
    return client.newWorkflowStub(AgentTaskWorkflow.class, WorkflowOptions.newBuilder()
            .setTaskQueue(TaskQueues.AGENTS).setWorkflowId("bench-parallel-" + s.label() + "-" + tag + "-"
                + System.nanoTime()).build())
        .run(new AgentTaskInput("Look up the values of keys k1 to k8.", List.of(BenchmarkModels.LOOKUP),
            AgentOptions.newBuilder().setStrategy(s).setModel("lookup-task").setMaxIterations(12).build()));
  }
}
