package io.durableagents.starter.benchmark;

import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.starter.StartChecks;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The benchmark program: measures what durability costs and what parallelism and plan reuse save,
 * with a latency-injected model ({@code rules+<n>ms}: the offline rules model's deterministic answers
 * after a fixed delay), on the embedded Temporal in its own process, and prints Markdown tables.
 * Every comparison is measured side by side in the same run. The scale and recovery parts also run each
 * row on the Temporal CLI's real dev server, taking turns ({@code --servers in-memory,dev-server}, the
 * default where a CLI is found), and print the two side by side ({@link ServerComparison}).
 *
 * <p>This class checks the options, starts the server and writes the report; each part is a class of its
 * own ({@link OverheadBenchmark}, {@link ParallelBenchmark}, {@link ScaleBenchmark}, {@link
 * RecoveryBenchmark}, {@link HistoryCostBenchmark}, {@link ForkBenchmark}) that reads the options and
 * the server's client from here and writes its tables with {@link #line}.
 *
 * <pre>{@code
 * java -jar starter/target/durable-agents.jar benchmark                 # everything (about 15 min)
 * java -jar starter/target/durable-agents.jar benchmark --quick         # a smoke run (about 2 min)
 * java -jar starter/target/durable-agents.jar benchmark --parts overhead,parallel
 * java -jar starter/target/durable-agents.jar benchmark --parts scale --servers in-memory,dev-server \
 *     --agents 200,1000 --steps 3 --time-limit 3 --yardstick ../shared/naive-bench
 * }</pre>
 */
@Command(name = "benchmark",
    description = "Measure durability overhead, parallel plan levels, scale, recovery, history size and "
        + "cost per agent step, and print Markdown tables (see BENCHMARKS.md).")
public final class BenchmarkCommand implements Callable<Integer> {
  static final List<String> PARTS =
      List.of("overhead", "parallel", "scale", "recovery", "history", "cost", "fork", "experiment", "cold-start",
          "profile");

  @Option(names = "--parts", split = ",", description = "Which parts to run (default: all of "
      + "overhead, parallel, scale, recovery, history, cost, fork, experiment, cold-start; profile only when named).")
  List<String> parts = PARTS.stream().filter(p -> !p.equals("profile")).toList(); // profile: only when asked

  @Option(names = "--agents", split = ",", description = "Agent counts of the scale part (default: 50,200,500).")
  List<Integer> agents = List.of(50, 200, 500);

  @Option(names = "--latencies", split = ",",
      description = "Model latencies of the scale part, in ms (default: 0,100,1000).")
  List<Integer> latencies = List.of(0, 100, 1000);

  @Option(names = "--agents-per-workflow", split = ",", paramLabel = "N",
      description = "Agents per workflow of the scale and recovery parts, side by side (default: 1,50: a "
          + "workflow per agent step, and group steps of 50 agents).")
  List<Integer> agentsPerWorkflow = List.of(1, 50);

  @Option(names = "--repeat", defaultValue = "1", paramLabel = "N",
      description = "Runs of each scale configuration, taking turns; the table shows the median and the range "
          + "(default: ${DEFAULT-VALUE}).")
  int repeat;

  @Option(names = "--pollers", split = ",", paramLabel = "N",
      description = "Worker pollers per task queue (DURABLE_AGENTS_POLLERS) of the scale part, side by side "
          + "(default: the worker's default).")
  List<Integer> pollers;

  @Option(names = "--steps", defaultValue = "10", description = "Simulation steps of the scale part (default: ${DEFAULT-VALUE}).")
  int steps;

  @Option(names = "--jvm", description = "Java executables to run the scale part's worker on (default: this "
      + "JVM, and a JDK 21+ from /usr/lib/jvm if this one is older, so that virtual threads are measured too).")
  List<String> jvms;

  @Option(names = "--eager-llm-calls", split = ",", arity = "1", paramLabel = "BOOL",
      description = "The scale part's worker with DURABLE_AGENTS_EAGER_LLM_CALLS set to each, side by side "
          + "(default: false; false,true compares them).")
  List<Boolean> eagerLlmCalls = List.of(true);

  @Option(names = "--no-sticky-comparison",
      description = "Skip the scale part's extra L = 0 rows with sticky execution off.")
  boolean noStickyComparison;

  @Option(names = "--warmup-agent-steps", defaultValue = "4000", paramLabel = "N",
      description = "Agent steps each fresh worker and server of the scale part run, per shape, before their "
          + "first measured row (0 measures cold JVMs, whose JIT compilers take about half of the CPU in their "
          + "first minute; default: ${DEFAULT-VALUE}).")
  int warmupAgentSteps;

  @Option(names = "--server-heap", paramLabel = "SIZE",
      description = "Maximum heap of the scale part's embedded Temporal, which keeps every history in memory "
          + "(default: 2g, and 10g when a row has 2,000 agents or more). A server is started afresh, with a "
          + "new worker, before a row that would take it past 120,000 agent steps.")
  String serverHeap;

  @Option(names = "--kills", defaultValue = "5", paramLabel = "N",
      description = "Worker kills (kill -9) in each run of the recovery part (default: ${DEFAULT-VALUE}).")
  int kills;

  @Option(names = "--servers", split = ",", paramLabel = "KIND",
      description = "Temporals the scale and recovery parts run each row on, taking turns, side by side: in-memory "
          + "(the embedded Java test server), dev-server (the Temporal CLI's dev server, a fresh SQLite file each "
          + "time; its kill -9 is measured too). Default: both where a Temporal CLI is found, else in-memory.")
  List<String> servers;

  @Option(names = "--yardstick", paramLabel = "DIR",
      description = "The yardstick ../shared/naive-bench: run it after the scale rows of each server, on the same "
          + "server (-Dtarget), with the rows' agent counts and steps at L = 0; compiled against this jar's SDK.")
  Path yardstick;

  @Option(names = "--recovery-agents", paramLabel = "N",
      description = "Agents and steps of the recovery part's runs, as N or N:STEPS (default: 200:20, --quick 50).")
  String recoverySize;

  @Option(names = "--time-limit", paramLabel = "MINUTES",
      description = "Give up a scale row (terminating its run) after this many minutes (default: none).")
  Integer timeLimitMinutes;

  @Option(names = "--experiment-runs", defaultValue = "100", paramLabel = "N",
      description = "Runs of the experiment part's experiment (default: ${DEFAULT-VALUE}).")
  int experimentRuns;

  @Option(names = "--experiment-agents", defaultValue = "50", paramLabel = "N",
      description = "Agents of each run of the experiment part (default: ${DEFAULT-VALUE}).")
  int experimentAgents;

  @Option(names = "--experiment-steps", defaultValue = "20", paramLabel = "N",
      description = "Steps of each run of the experiment part (default: ${DEFAULT-VALUE}).")
  int experimentSteps;

  @Option(names = "--experiment-concurrency", paramLabel = "N",
      description = "Runs at once in the experiment part (default: all of them, as one simulation runs every agent).")
  Integer experimentConcurrency;

  @picocli.CommandLine.Mixin
  ProfileOptions profile = new ProfileOptions();

  @Option(names = "--cold-start-rounds", defaultValue = "5", paramLabel = "N",
      description = "Rounds of the cold-start part: each runs demo once per variant, taking turns (default: "
          + "${DEFAULT-VALUE}; --quick 2).")
  int coldStartRounds;

  @Option(names = "--cold-start-baseline", paramLabel = "JAR",
      description = "An earlier build's shaded jar whose demo the cold-start part runs too, taking turns (before/after).")
  Path coldStartBaseline;

  @Option(names = "--quick", description = "A smoke run: fewer agents, latencies and repetitions.")
  boolean quick;

  @Option(names = {"-o", "--out"}, description = "Also write the tables to this Markdown file.")
  Path out;

  final Path logs = Path.of("runs", "benchmark");
  private final StringBuilder report = new StringBuilder();
  int port;
  BenchmarkServer server;
  List<BenchmarkServer.Kind> serverKinds = List.of(BenchmarkServer.Kind.IN_MEMORY);
  Path temporalCli;
  WorkflowServiceStubs service;
  WorkflowClient client;

  @Override
  public Integer call() throws Exception {
    for (String p : parts) {
      if (!PARTS.contains(p)) {
        System.err.println("benchmark: --parts '" + p + "' is not one of: " + String.join(", ", PARTS));
        return 2;
      }
    }
    if (repeat < 1) {
      System.err.println("benchmark: --repeat must be >= 1, was " + repeat);
      return 2;
    }
    for (List<Integer> counts : List.of(agentsPerWorkflow, pollers == null ? List.<Integer>of() : pollers)) {
      for (int c : counts) {
        if (c < 1) {
          System.err.println("benchmark: --agents-per-workflow and --pollers must be >= 1, was " + c);
          return 2;
        }
      }
    }
    if (quick) {
      agents = List.of(20, 50);
      latencies = List.of(0, 100);
      steps = 5;
      warmupAgentSteps = Math.min(warmupAgentSteps, 500);
      coldStartRounds = Math.min(coldStartRounds, 2);
    }
    if (coldStartRounds < 1) {
      System.err.println("benchmark: --cold-start-rounds must be >= 1, was " + coldStartRounds);
      return 2;
    }
    if (coldStartBaseline != null && !Files.isRegularFile(coldStartBaseline)) {
      System.err.println("benchmark: --cold-start-baseline must be a jar file, was '" + coldStartBaseline + "'");
      return 2;
    }
    if (warmupAgentSteps < 0) {
      System.err.println("benchmark: --warmup-agent-steps must be >= 0, was " + warmupAgentSteps);
      return 2;
    }
    Files.createDirectories(logs);
    temporalCli = io.durableagents.devserver.TemporalCli.find(System.getenv(), Path.of("")).orElse(null);
    try {
      serverKinds = BenchmarkServer.kinds(servers, temporalCli, System.out::println);
    } catch (IllegalArgumentException e) {
      System.err.println("benchmark: " + e.getMessage());
      return 2;
    }
    // the cold-start part starts its own (each demo does): no server idles beside it
    boolean needsServer = parts.stream().anyMatch(p -> !p.equals("cold-start"));
    if (needsServer) {
      startServer();
    }
    try {
      line("# Durable Agents benchmarks");
      line("");
      line("Machine: " + Runtime.getRuntime().availableProcessors() + " cores, "
          + (Runtime.getRuntime().maxMemory() >> 20) + " MB max heap for the driver; driver JVM "
          + System.getProperty("java.vm.name") + " " + Runtime.version() + "; Temporal in its own process: "
          + serverKinds.stream().map(k -> k == BenchmarkServer.Kind.IN_MEMORY ? "the in-memory one (Temporal's "
              + "Java test server)" : "the Temporal CLI's dev server (" + temporalCli + ", SQLite)")
              .collect(java.util.stream.Collectors.joining(" and ")) + ". Load average at the start: "
          + MachineReadings.loadAverage() + ".");
      line("Command: `java -jar starter/target/durable-agents.jar benchmark"
          + (quick ? " --quick" : "") + (parts.equals(PARTS) ? "" : " --parts " + String.join(",", parts))
          + (parts.contains("cold-start") ? " --cold-start-rounds " + coldStartRounds
              + (coldStartBaseline == null ? "" : " --cold-start-baseline " + coldStartBaseline) : "")
          + " --servers " + serverKinds.stream().map(k -> k.label).collect(java.util.stream.Collectors.joining(","))
          + "`");
      line("");
      if (parts.contains("parallel")) {
        new ParallelBenchmark(this).run();
      }
      if (parts.contains("overhead")) {
        new OverheadBenchmark(this).run();
      }
      if (parts.contains("history") || parts.contains("cost")) {
        new HistoryCostBenchmark(this).run();
      }
      if (parts.contains("scale")) {
        new ScaleBenchmark(this).run();
      }
      if (parts.contains("fork")) {
        new ForkBenchmark(this).run();
      }
      if (parts.contains("recovery")) {
        new RecoveryBenchmark(this).run();
      }
      if (parts.contains("experiment")) {
        new ExperimentBenchmark(this).run();
      }
      if (parts.contains("profile")) {
        new ProfileBenchmark(this).run();
      }
      if (parts.contains("cold-start")) {
        new ColdStartBenchmark(this).run();
      }
    } finally {
      if (needsServer) {
        service.shutdownNow();
        server.stop();
      }
    }
    if (out != null) {
      Files.writeString(out, report.toString());
      System.out.println("Wrote " + out);
    }
    return 0;
  }

  /**
   * {@code --warmup-agent-steps} per shape of {@code --agents-per-workflow}, on 200 agents (fewer when all rows
   * are smaller), unmeasured; with 0, only the small run that loads the classes. Its ids start with
   * {@code idPrefix}.
   */
  void warmUp(String idPrefix) {
    int n = warmupAgentSteps == 0 ? 20
        : Math.max(20, Math.min(200, agents.stream().mapToInt(Integer::intValue).max().orElse(200)));
    int warmSteps = Math.max(3, (int) Math.ceil((double) warmupAgentSteps / n));
    for (int perWorkflow : agentsPerWorkflow) {
      runSimulation(simulationInput(n, warmSteps, 0, Strategy.COT, 1).withAgentsPerWorkflow(perWorkflow),
          idPrefix + System.nanoTime());
    }
  }

  /** An Epstein simulation of {@code n} agents (a fifth of them cops) on a grid sized to them, with the rules model. */
  SimulationInput simulationInput(int n, int simSteps, int latencyMs, Strategy s, int ttl) {
    int side = Math.max(10, (int) Math.ceil(Math.sqrt(2.0 * n)));
    int cops = Math.max(1, n / 5);
    EpsteinParameters p = new EpsteinParameters(side, side, n - cops, cops, 5, 0.5, 0.1, 2.3, 30);
    String model = latencyMs == 0 ? "rules" : "rules+" + latencyMs + "ms";
    return new SimulationInput("epstein", simSteps, 42, p,
        AgentOptions.newBuilder().setStrategy(s).setModel(model).setTtl(ttl).build(), null, n);
  }

  /** The workflow task timeout simulate gives a simulation of this size (SimulationTaskTimeout). */
  private static java.time.Duration taskTimeout(SimulationInput input) {
    return io.durableagents.workflows.simulation.SimulationTaskTimeout.forAgents(
        StartChecks.agentCount(input, LocalCatalog.get()));
  }

  /** Starts simulation {@code id} as simulate does (its workflow task timeout sized by its agents). */
  io.temporal.client.WorkflowStub startSimulation(SimulationInput input, String id) {
    io.temporal.client.WorkflowStub stub = client.newUntypedWorkflowStub("Simulation", WorkflowOptions.newBuilder()
        .setTaskQueue(TaskQueues.SIMULATIONS).setWorkflowId(id).setWorkflowTaskTimeout(taskTimeout(input)).build());
    stub.start(input);
    return stub;
  }

  /** Runs simulation {@code id} as simulate does, and waits for its result. */
  SimulationResult runSimulation(SimulationInput input, String id) {
    return client.newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.SIMULATIONS).setWorkflowId(id)
            .setWorkflowTaskTimeout(taskTimeout(input)).build()).run(input);
  }

  /** The in-memory Temporal, for the parts that are not compared across servers. */
  private void startServer() throws Exception {
    startServer(BenchmarkServer.Kind.IN_MEMORY, "2g");
  }

  /** A fresh server of {@code kind} (the dev server on a new SQLite file), and a client of it. */
  private void startServer(BenchmarkServer.Kind kind, String heap) throws Exception {
    server = BenchmarkServer.start(kind, heap, logs, temporalCli);
    port = server.port;
    connect();
  }

  /** A new client of the current server (after it was started again on its port). */
  void connect() {
    service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + port).build());
    client = WorkflowClient.newInstance(service, WorkflowClientOptions.newBuilder().build());
  }

  /** Stops the current server and its client, and starts a fresh server of {@code kind} with a client of it. */
  void restartServer(BenchmarkServer.Kind kind, String heap) throws Exception {
    service.shutdownNow();
    server.stop();
    startServer(kind, heap);
  }

  /** A line of the report: printed at once, and kept for {@code --out}. */
  void line(String text) {
    System.out.println(text);
    System.out.flush();
    report.append(text).append('\n');
  }

  /** A part's heading ({@code ## heading}) and the paragraph that says what it measures. */
  void section(String heading, String text) {
    line("## " + heading);
    line("");
    paragraph(text);
  }

  /** A paragraph of the report and the blank line after it. */
  void paragraph(String text) {
    line(text);
    line("");
  }

  /** A table's header row ({@code | a | b |}) and its alignment row ({@code | --- | ---: |}). */
  void tableHeader(String header, String alignment) {
    line(header);
    line(alignment);
  }

  /** A whole table: its header and alignment rows, its rows, and the blank line after it. */
  void table(String header, String alignment, List<String> rows) {
    tableHeader(header, alignment);
    rows.forEach(this::line);
    line("");
  }
}
