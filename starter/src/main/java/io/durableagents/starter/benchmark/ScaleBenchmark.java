package io.durableagents.starter.benchmark;

import static io.durableagents.starter.benchmark.BenchmarkStatistics.median;
import static io.durableagents.starter.benchmark.BenchmarkStatistics.spread;
import static io.durableagents.starter.benchmark.MachineReadings.cpuMillis;
import static io.durableagents.starter.benchmark.MachineReadings.javaLabel;

import io.durableagents.starter.Environment;
import io.durableagents.starter.local.ChildJvmTuning;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Part 3 of the benchmark, scale: Epstein simulations of growing size at growing latency, on each worker
 * configuration (JVM, sticky execution, pollers, eager LLM calls) and each server, every configuration
 * {@code --repeat} times, taking turns; then the table of the rows, the growth lines, the servers side by
 * side, the yardstick's rows and what the histories say each row cost Temporal.
 */
final class ScaleBenchmark {
  private final BenchmarkCommand bench;

  ScaleBenchmark(BenchmarkCommand bench) {
    this.bench = bench;
  }

  /** One configuration of the scale part's worker: its JVM, sticky setting and pollers. */
  private record ScaleWorker(String java, String sticky, Integer pollers, boolean eagerLlmCalls) {
    Map<String, String> env() {
      Map<String, String> env = new java.util.HashMap<>(Map.of("DURABLE_AGENTS_STICKY", sticky));
      if (pollers != null) {
        env.put("DURABLE_AGENTS_POLLERS", Integer.toString(pollers));
      }
      env.put(io.durableagents.worker.WorkerSettings.EAGER_LLM_CALLS, Boolean.toString(eagerLlmCalls));
      return env;
    }

    @Override
    public String toString() {
      return javaLabel(java) + ", sticky " + sticky + (pollers == null ? "" : ", " + pollers + " pollers")
          + (eagerLlmCalls ? ", eager LLM calls" : ", LLM calls on their own queue");
    }
  }

  /**
   * 3. Simulations of growing size at growing latency, on each JVM; every configuration {@code
   * --repeat} times, round robin, so that the machine's slow and fast moments fall on all of them.
   */
  void run() throws Exception {
    bench.section("3. Scale",
        "Epstein simulations with CoT (2 sequential LLM calls per agent step), " + bench.steps + " steps, one worker "
        + "in its own JVM (-Xmx" + BenchmarkWorker.HEAP + "), `--max-concurrent-agents` = the agent count. Critical path = "
        + "steps x 2 x L. Heap and threads are the worker's maxima, sampled from its metrics endpoint every "
        + "second. The worker's JVM maps the `worker` command's class-data sharing archive, as the worker `demo` "
        + "starts does (" + io.durableagents.starter.local.ClassDataArchive.VARIABLE + "=off: none); the first "
        + "worker after a build makes it, at its exit. "
        + (bench.warmupAgentSteps > 0 ? "Each fresh worker and server first ran " + bench.warmupAgentSteps + " agent steps "
            + "per shape, unmeasured (the JIT compilers of both JVMs take about half of their CPU in their first "
            + "minute). " : "Cold JVMs: no warm-up. ")
        + (bench.repeat > 1 ? "Each row is the median of " + bench.repeat + " runs (min-max in brackets), the configurations "
            + "taking turns." : "One run per row."));
    List<String> javas = MachineReadings.jvmsToMeasure(bench.jvms);
    List<Integer> pollerCounts = bench.pollers == null || bench.pollers.isEmpty() ? java.util.Collections.singletonList(null) : bench.pollers;
    List<ScaleWorker> configurations = new ArrayList<>();
    for (String java : javas) {
      for (Integer p : pollerCounts) {
        for (boolean eager : bench.eagerLlmCalls) {
          configurations.add(new ScaleWorker(java, "auto", p, eager));
        }
      }
    }
    // Side by side, on the first JVM at L = 0: sticky execution off, which replays every workflow's
    // history at each of its tasks (auto keeps it on: the embedded Temporal times sticky queues out).
    if (!bench.noStickyComparison) {
      configurations.add(new ScaleWorker(javas.get(0), "off", pollerCounts.get(0), bench.eagerLlmCalls.get(0)));
    }
    String heap = bench.serverHeap != null ? bench.serverHeap
        : bench.agents.stream().mapToInt(Integer::intValue).max().orElse(0) >= 2000 ? "10g" : "2g";
    Map<String, List<ScaleRun>> runs = new LinkedHashMap<>();
    Map<String, String> rowStart = new LinkedHashMap<>();
    Map<String, AgentStepShape> shapes = new LinkedHashMap<>();
    Map<String, String> stuck = new LinkedHashMap<>();
    Map<String, List<Double>> databaseBytes = new LinkedHashMap<>();
    List<String> yardstickLines = new ArrayList<>();
    List<String> archiveNotes = new ArrayList<>();
    Map<String, AgentStepShape> yardstickShapes = new LinkedHashMap<>();
    List<String> timelines = new ArrayList<>();
    for (int round = 0; round < bench.repeat; round++) {
      for (ScaleWorker configuration : configurations) {
       for (BenchmarkServer.Kind kind : bench.serverKinds) {
        ScaleStack stack = null;
        try {
          for (int latency : configuration.sticky().equals("off") ? List.of(0) : bench.latencies) {
            for (int n : bench.agents) {
              for (int perWorkflow : bench.agentsPerWorkflow) {
                String key = kind.label + "|" + configuration + "|" + latency + "|" + n + "|" + perWorkflow;
                rowStart.put(key, String.format(Locale.ROOT, "| %s | %s | %s | %s | %d | %d | %d |", kind.label,
                    javaLabel(configuration.java()) + ", "
                        + ChildJvmTuning.fromEnvironment(Environment.variablesWith(configuration.env())).value()
                        + (configuration.eagerLlmCalls() ? ", eager LLM calls" : ""),
                    configuration.sticky().equals("off") ? "off" : "on (auto)",
                    configuration.pollers() == null ? "5" : configuration.pollers().toString(), perWorkflow, n,
                    latency));
                if (stuck.containsKey(key)) {
                  continue; // it did not finish in an earlier round: do not wait for it again
                }
                long rowAgentSteps = (long) n * bench.steps;
                if (stack == null || stack.agentSteps + rowAgentSteps > SERVER_AGENT_STEPS) {
                  if (stack != null) {
                    stack.worker.stop();
                  }
                  // A fresh embedded server (it keeps every finished workflow in memory: a server grown by
                  // earlier runs slows the later ones down, and a 10,000-agent row needs its heap) and a
                  // fresh worker, warmed up.
                  bench.restartServer(kind, heap);
                  stack = new ScaleStack(BenchmarkWorker.start(bench, "scale-" + javaLabel(configuration.java())
                      .replaceAll("[^A-Za-z0-9]", "") + "-" + configuration.sticky() + "-" + configuration.pollers()
                      + "-" + System.nanoTime(), configuration.java(), configuration.env()));
                  bench.warmUp("bench-scale-warm-");
                }
                BenchmarkWorker worker = stack.worker;
                worker.resetSamples();
                String id = "bench-scale-" + n + "-" + latency + "-" + perWorkflow + "-" + System.nanoTime();
                double workerCpu0 = cpuMillis(worker.pid());
                double serverCpu0 = bench.server.cpuMillis();
                long database0 = bench.server.databaseBytes();
                long t0 = System.nanoTime();
                SimulationResult r;
                // rows of groups at a latency: where a step's wall goes, with the cores busy in each part
                StepTimeline.Sampler sampler = latency > 0 && perWorkflow > 1
                    ? new StepTimeline.Sampler(bench.server::cpuMillis, worker.pid()) : null;
                try {
                  r = new WatchedSimulation(bench).run(bench.simulationInput(n, bench.steps, latency, Strategy.COT, 1)
                      .withAgentsPerWorkflow(perWorkflow), id, worker);
                } catch (WatchedSimulation.StuckRun e) {
                  stuck.put(key, e.getMessage());
                  if (e.agentStepsDone >= 0) {
                    // a row cut by --time-limit: its rate until then, marked in the tables
                    double wall = (System.nanoTime() - t0) / 1e9;
                    runs.computeIfAbsent(key, k -> new ArrayList<>()).add(new ScaleRun(wall,
                        e.agentStepsDone / wall, 0, worker.maxHeapMb(), worker.maxThreads(),
                        (cpuMillis(worker.pid()) - workerCpu0) / Math.max(1, e.agentStepsDone),
                        (bench.server.cpuMillis() - serverCpu0) / Math.max(1, e.agentStepsDone)));
                    rowStart.put(key, rowStart.get(key).replaceFirst("\\| (\\d+) \\|$",
                        "| $1 (cut at " + bench.timeLimitMinutes + " min: " + e.agentStepsDone + " agent steps) |"));
                  }
                  System.out.printf(Locale.ROOT, "  round %d/%d: %s did not finish: %s%n", round + 1, bench.repeat,
                      rowStart.get(key), e.getMessage());
                  stack.worker.stop();
                  stack = null;
                  continue;
                } finally {
                  if (sampler != null) {
                    sampler.close();
                  }
                }
                stack.agentSteps += rowAgentSteps;
                double wall = (System.nanoTime() - t0) / 1e9;
                double workerCpu = (cpuMillis(worker.pid()) - workerCpu0) / r.agentSteps();
                double serverCpu = (bench.server.cpuMillis() - serverCpu0) / r.agentSteps();
                if (sampler != null && round == 0) {
                  // after the row's CPU is read: reading the groups' histories is the server's work too
                  int step = Math.min(bench.steps, Math.max(2, bench.steps / 2 + 1));
                  timelines.addAll(StepTimeline.rows(kind.label + ", " + n + " agents, groups of " + perWorkflow
                      + ", L = " + latency + " ms", step, StepTimeline.of(bench.client, id, step, sampler)));
                }
                if (kind == BenchmarkServer.Kind.DEV_SERVER) {
                  databaseBytes.computeIfAbsent(key, k -> new ArrayList<>())
                      .add((double) (bench.server.databaseBytes() - database0) / r.agentSteps());
                }
                runs.computeIfAbsent(key, k -> new ArrayList<>()).add(new ScaleRun(wall, r.agentSteps() / wall,
                    r.llmCalls(), worker.maxHeapMb(), worker.maxThreads(), workerCpu, serverCpu));
                if (!shapes.containsKey(key)) {
                  // after the timings: the same in every round, read once
                  shapes.put(key, AgentStepShape.of(bench.client, id, r));
                }
                System.out.printf(Locale.ROOT, "  round %d/%d: %s %.1f s (worker's class-data archive: %s)%n", round + 1,
                    bench.repeat, rowStart.get(key), wall, worker.archiveState());
                if (!worker.archiveState().equals("mapped")) {
                  archiveNotes.add(rowStart.get(key) + " round " + (round + 1) + ": " + worker.archiveState());
                }
              }
            }
          }
          if (bench.yardstick != null && configuration == configurations.get(0)) {
            stack.worker.stop(); // the yardstick's own worker has the machine to itself
            stack = null;
            // and a fresh server, as our rows had: cold JVMs on both sides, not ours cold and its server
            // warmed by our rows
            bench.restartServer(kind, heap);
            // at the smallest agent count only: on the real server it takes minutes (bounded by --time-limit)
            yardstickLines.add(Yardstick.run(bench.yardstick, bench.logs, bench.server, bench.agents.get(0), bench.steps, round,
                bench.timeLimitMinutes == null ? 20 : bench.timeLimitMinutes));
            String yardstickId = yardstickShapes.containsKey(kind.label) ? null
                : EventBreakdown.yardstickWorkflowId(bench.client);
            if (yardstickId != null) {
              // its events, read like ours: the same in every round, read once
              yardstickShapes.put(kind.label, AgentStepShape.of(bench.client, yardstickId,
                  (long) bench.agents.get(0) * bench.steps, bench.steps, 0, 0));
            }
          }
        } finally {
          if (stack != null) {
            stack.worker.stop();
          }
        }
       }
      }
    }
    bench.tableHeader(CONFIGURATION_HEADER + " wall (s) | agent steps/s | critical path (s) | wall / critical path "
        + "| CPU ms per agent step (worker + server) | LLM calls | max heap (MB) | max threads |",
        CONFIGURATION_ALIGNMENT + " ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (Map.Entry<String, String> row : rowStart.entrySet()) {
      List<ScaleRun> measured = runs.get(row.getKey());
      if (measured == null) {
        bench.line(row.getValue() + " did not finish: " + stuck.get(row.getKey()) + " | | | | | | | |");
        continue;
      }
      int latency = Integer.parseInt(row.getKey().split("\\|")[2]);
      double critical = bench.steps * 2 * latency / 1000.0;
      double wall = median(measured.stream().map(ScaleRun::wall).toList());
      bench.line(String.format(Locale.ROOT, "%s %.1f | %s | %s | %s | %.1f + %.1f | %d | %d | %d |", row.getValue(),
          wall,
          spread(measured.stream().map(ScaleRun::agentStepsPerSecond).toList(), "%.0f", false),
          latency == 0 ? "0" : String.format(Locale.ROOT, "%.1f", critical),
          latency == 0 ? "-" : spread(measured.stream().map(m -> m.wall() / critical).toList(), "%.2f", true),
          median(measured.stream().map(ScaleRun::workerCpuMs).toList()),
          median(measured.stream().map(ScaleRun::serverCpuMs).toList()),
          measured.get(0).llmCalls(),
          measured.stream().mapToLong(ScaleRun::heapMb).max().orElse(0),
          measured.stream().mapToLong(ScaleRun::threads).max().orElse(0)));
    }
    bench.line("");
    for (String growth : ScaleRows.growthLines(runs)) {
      bench.line(growth);
    }
    if (bench.serverKinds.size() > 1) {
      bench.paragraph("The same rows on the two servers, side by side (medians; the ratio is the dev server's agent "
          + "steps/s over the in-memory one's; events and workflow tasks per agent step read from each run's "
          + "histories; SQLite bytes: the growth of the dev server's database file and its journal over the run, per "
          + "agent step):");
      ScaleRows.comparison(runs, shapes, databaseBytes).lines().forEach(bench::line);
    }
    if (!archiveNotes.isEmpty()) {
      bench.paragraph("Rows whose worker did not map a class-data sharing archive (its first run makes it, and "
          + "loads every class from the jar): " + String.join("; ", archiveNotes) + ".");
    }
    if (!yardstickLines.isEmpty()) {
      bench.paragraph("The yardstick (`" + bench.yardstick + "`, L = 0, its agent steps per second), run on each "
          + "server after its rows (`-Dtarget`) on a fresh server of its own, compiled against this jar's SDK; its "
          + "CPU per agent step is its JVM's whole life (start, its warm-up of 10 agent steps, the run), ours only "
          + "the measured run's:");
      bench.table("| round | server | agents | steps | agent steps/s | wall (s) | CPU ms per agent step (yardstick + server) |",
          "| ---: | --- | ---: | ---: | ---: | ---: | ---: |", yardstickLines);
    }
    if (!timelines.isEmpty()) {
      bench.paragraph("Where a simulation step's wall goes, for the rows of groups at a latency (a step from the "
          + "middle of the row's first round, read from its group step workflows' histories): the step's boundary "
          + "(the simulation's task, the groups' starts and their first tasks), each wave of LLM calls in flight, "
          + "and between waves the results coming back and the next calls going out; and the cores busy in each "
          + "part (of the machine's, the server's processes' and the worker's, sampled from /proc every 50 ms). "
          + "Parts with the cores near all busy are where the machine's CPU, not the calls, sets the pace.");
      bench.table(StepTimeline.HEADER, StepTimeline.ALIGNMENT, timelines);
    }
    eventBreakdowns(configurations.get(0), shapes, yardstickShapes);
    shapeTable("What each configuration's simulation cost Temporal per agent step, read from its histories "
        + "after the run (every workflow of the simulation: its runs and the agent or group step workflows it "
        + "started), and the bytes of an agent step's input and result (`agentStepBytes` in its result).",
        AgentStepShape.HEADER, " ---: | ---: | ---: | ---: | ---: | ---: |", rowStart, shapes, AgentStepShape::cells);
    shapeTable("Per simulation step, from the same histories: events and history KB of every workflow together "
        + "and of the simulation workflow alone (all its runs), and the largest workflow task any of them "
        + "completed (the events its commands wrote and their size: what one completion sent the server); and "
        + "the workflow task attempts that timed out or failed (each is tried again by a worker that replays the "
        + "workflow's history).",
        AgentStepShape.STEP_HEADER, " ---: | ---: | ---: | ---: | --- | ---: |", rowStart, shapes, AgentStepShape::stepCells);
  }

  /**
   * For each server the yardstick ran on, the events per agent step of a workflow per agent step (the first
   * configuration, the smallest agent count, L = 0 if measured) beside the yardstick's, by type.
   */
  private void eventBreakdowns(ScaleWorker first, Map<String, AgentStepShape> shapes,
      Map<String, AgentStepShape> yardstickShapes) {
    for (Map.Entry<String, AgentStepShape> yardstick : yardstickShapes.entrySet()) {
      AgentStepShape ours = null;
      for (Map.Entry<String, AgentStepShape> e : shapes.entrySet()) {
        String[] key = e.getKey().split("\\|");
        if (key[0].equals(yardstick.getKey()) && key[1].equals(first.toString())
            && key[3].equals(bench.agents.get(0).toString()) && key[4].equals("1")
            && (ours == null || key[2].equals("0"))) {
          ours = e.getValue();
        }
      }
      if (ours == null) {
        continue;
      }
      bench.paragraph("Events per agent step on the " + yardstick.getKey() + ", by the workflow that wrote them and "
          + "their type: a workflow per agent step (" + bench.agents.get(0) + " agents x " + bench.steps + " steps) "
          + "beside the yardstick's run of the same size, read from both runs' histories (the simulation's runs "
          + "and every child workflow). The simulation's rows are its share per agent step: the child's start, "
          + "its start and its end written into the parent, and the parent's workflow tasks that those wake.");
      List<String> table = EventBreakdown.table(ours, yardstick.getValue());
      bench.table(table.get(0), table.get(1), table.subList(2, table.size()));
    }
  }

  /** A table of what each configuration's histories say: its text, then a row per configuration. */
  private void shapeTable(String text, String header, String alignment, Map<String, String> rowStart,
      Map<String, AgentStepShape> shapes, java.util.function.Function<AgentStepShape, String> cells) {
    bench.paragraph(text);
    bench.tableHeader(CONFIGURATION_HEADER + " " + header, CONFIGURATION_ALIGNMENT + alignment);
    for (Map.Entry<String, AgentStepShape> e : shapes.entrySet()) {
      bench.line(rowStart.get(e.getKey()) + " " + cells.apply(e.getValue()));
    }
    bench.line("");
  }

  /** The columns that name a configuration, first in every table of the scale part (and their alignment). */
  private static final String CONFIGURATION_HEADER =
      "| server | worker JVM | sticky | pollers | agents per workflow | agents | L (ms) |";

  private static final String CONFIGURATION_ALIGNMENT = "| --- | --- | --- | ---: | ---: | ---: | ---: |";

  /** Agent steps one embedded server of the scale part keeps before a fresh one is started. */
  private static final long SERVER_AGENT_STEPS = 120_000;

  /** A scale-part server's worker and the agent steps the server has run. */
  private static final class ScaleStack {
    final BenchmarkWorker worker;
    long agentSteps;

    ScaleStack(BenchmarkWorker worker) {
      this.worker = worker;
    }
  }
}
