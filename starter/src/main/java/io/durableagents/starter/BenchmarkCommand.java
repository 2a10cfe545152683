package io.durableagents.starter;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ToolChoice;
import io.durableagents.activities.llm.LatencyChatModel;
import io.durableagents.activities.rules.RulesChatModel;
import io.durableagents.activities.tools.EpsteinActions;
import io.durableagents.activities.tools.ToolRegistry;
import io.durableagents.worker.CompletedActivities;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepWorkflow;
import io.durableagents.workflows.agent.Observation;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.simulation.SeededRandom;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.epstein.EpsteinParameters;
import io.durableagents.workflows.simulation.epstein.EpsteinScenario;
import io.durableagents.workflows.simulation.epstein.EpsteinWorld;
import io.durableagents.workflows.task.AgentTaskInput;
import io.durableagents.workflows.task.AgentTaskResult;
import io.durableagents.workflows.task.AgentTaskWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.WorkerFactory;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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
final class BenchmarkCommand implements Callable<Integer> {
  static final List<String> PARTS =
      List.of("overhead", "parallel", "scale", "recovery", "history", "cost", "fork");

  @Option(names = "--parts", split = ",", description = "Which parts to run (default: all of "
      + "overhead, parallel, scale, recovery, history, cost, fork).")
  List<String> parts = PARTS;

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

  @Option(names = "--quick", description = "A smoke run: fewer agents, latencies and repetitions.")
  boolean quick;

  @Option(names = {"-o", "--out"}, description = "Also write the tables to this Markdown file.")
  Path out;

  final Path logs = Path.of("runs", "benchmark");
  private final StringBuilder report = new StringBuilder();
  int port;
  BenchmarkServer server;
  private List<BenchmarkServer.Kind> serverKinds = List.of(BenchmarkServer.Kind.IN_MEMORY);
  private Path temporalCli;
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
    startServer();
    try {
      line("# Durable Agents benchmarks");
      line("");
      line("Machine: " + Runtime.getRuntime().availableProcessors() + " cores, "
          + (Runtime.getRuntime().maxMemory() >> 20) + " MB max heap for the driver; driver JVM "
          + System.getProperty("java.vm.name") + " " + Runtime.version() + "; Temporal in its own process: "
          + serverKinds.stream().map(k -> k == BenchmarkServer.Kind.IN_MEMORY ? "the in-memory one (Temporal's "
              + "Java test server)" : "the Temporal CLI's dev server (" + temporalCli + ", SQLite)")
              .collect(java.util.stream.Collectors.joining(" and ")) + ". Load average at the start: "
          + loadAverage() + ".");
      line("Command: `java -jar starter/target/durable-agents.jar benchmark"
          + (quick ? " --quick" : "") + (parts.equals(PARTS) ? "" : " --parts " + String.join(",", parts))
          + " --servers " + serverKinds.stream().map(k -> k.label).collect(java.util.stream.Collectors.joining(","))
          + "`");
      line("");
      if (parts.contains("parallel")) {
        parallel();
      }
      if (parts.contains("overhead")) {
        overhead();
      }
      if (parts.contains("history") || parts.contains("cost")) {
        historyAndCost();
      }
      if (parts.contains("scale")) {
        scale();
      }
      if (parts.contains("fork")) {
        fork();
      }
      if (parts.contains("recovery")) {
        line("## 4. Recovery");
        line("");
        line("Settings: LLM calls' heartbeat timeout " + io.durableagents.workflows.llm.LlmCallOptions.HEARTBEAT_TIMEOUT
            .toSeconds() + " s (a heartbeat every " + io.durableagents.activities.llm.LlmActivitiesImpl.HEARTBEAT_INTERVAL
            .toSeconds() + " s while a call waits), retried after " + io.durableagents.workflows.llm.LlmCallOptions.RETRY
            .getInitialInterval().toSeconds() + " s; sticky queue timeout 5 s (the SDK's default); the simulation's "
            + "workflow task timeout " + io.durableagents.workflows.simulation.SimulationTaskTimeout.forAgents(200)
            .toSeconds() + " s (SimulationTaskTimeout, 200 agents), its children's 10 s (Temporal's default); "
            + io.durableagents.worker.WorkerSettings.defaultWorkflowTaskSlots()
            + " workflow tasks at once per worker; deadlock detection after "
            + io.durableagents.worker.DurableAgentsPlugin.DEADLOCK_DETECTION_TIMEOUT_MS / 1000 + " s. Load average "
            + "when the part started: " + loadAverage() + ".");
        line("");
        ServerComparison.RecoveryRows byServer = new ServerComparison.RecoveryRows();
        for (int perWorkflow : agentsPerWorkflow) {
          for (BenchmarkServer.Kind kind : serverKinds) {
            restartServer(kind, "2g");
            byServer.add(perWorkflow, kind, recovery(perWorkflow));
          }
        }
        byServer.lines().forEach(this::line);
        if (serverKinds.contains(BenchmarkServer.Kind.DEV_SERVER)) {
          for (int perWorkflow : agentsPerWorkflow) {
            restartServer(BenchmarkServer.Kind.DEV_SERVER, "2g");
            new ServerKillRecovery(this, logs).run(perWorkflow, recoveryAgents(), recoverySteps());
          }
        }
      }
    } finally {
      service.shutdownNow();
      server.stop();
    }
    if (out != null) {
      Files.writeString(out, report.toString());
      System.out.println("Wrote " + out);
    }
    return 0;
  }

  // ------------------------------------------------------------------------------------ parts

  /** 1. The same agent step (2 LLM calls of 50 ms) durable vs in-process. */
  private void overhead() throws Exception {
    long latency = 50;
    int runs = quick ? 5 : 20;
    BenchmarkWorker worker = BenchmarkWorker.start(this, "overhead", ChildProcesses.javaBinary(), Map.of());
    try {
      AgentStepInput input = overheadInput("rules+" + latency + "ms");
      AgentStepWorkflow warm = client.newWorkflowStub(AgentStepWorkflow.class,
          WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("bench-overhead-warm").build());
      warm.step(input);
      long[] durable = new long[runs];
      for (int i = 0; i < runs; i++) {
        AgentStepWorkflow step = client.newWorkflowStub(AgentStepWorkflow.class,
            WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS)
                .setWorkflowId("bench-overhead-" + i + "-" + System.nanoTime()).build());
        long t0 = System.nanoTime();
        step.step(input);
        durable[i] = System.nanoTime() - t0;
      }
      ChatModel model = new LatencyChatModel(new RulesChatModel(), Duration.ofMillis(latency));
      inProcessStep(model, input);
      long[] direct = new long[runs];
      for (int i = 0; i < runs; i++) {
        long t0 = System.nanoTime();
        inProcessStep(model, input);
        direct[i] = System.nanoTime() - t0;
      }
      double d = median(durable) / 1e6;
      double p = median(direct) / 1e6;
      line("## 1. Overhead of durability");
      line("");
      line("One CoT agent step: 2 LLM calls of L = " + latency + " ms (the `rules` model with added latency), "
          + "median of " + runs + " sequential runs. Durable: an `AgentStep` workflow on the embedded "
          + "Temporal, each call an activity (worker in its own JVM). In-process: the same 2 calls through "
          + "LangChain4j's `ChatModel`, no Temporal.");
      line("");
      line("| | wall time per step (ms) | per LLM call (ms) |");
      line("| --- | ---: | ---: |");
      line(String.format(Locale.ROOT, "| durable (Temporal) | %.1f | %.1f |", d, d / 2));
      line(String.format(Locale.ROOT, "| in-process (LangChain4j) | %.1f | %.1f |", p, p / 2));
      line(String.format(Locale.ROOT, "| **ratio durable / in-process** | **%.2f** | overhead **%.1f ms** per call |",
          d / p, (d - p) / 2));
      line("");
    } finally {
      worker.stop();
    }
  }

  /** An Epstein citizen's CoT step, the same every time. */
  private static AgentStepInput overheadInput(String model) {
    EpsteinWorld world = EpsteinWorld.create(EpsteinParameters.DEFAULTS, new SeededRandom(1));
    return new AgentStepInput("bench-overhead", EpsteinScenario.NAME, "citizen-2", EpsteinScenario.CITIZEN,
        world.observe("citizen-2", 1), null, EpsteinScenario.CITIZEN_TOOLS, EpsteinScenario.WORLD_ACTIONS,
        AgentOptions.newBuilder().setModel(model).build());
  }

  /** The two calls of that CoT step, made directly: the reasoning pass, then the execution pass. */
  private static void inProcessStep(ChatModel model, AgentStepInput in) {
    List<ToolSpecification> tools = ToolSpecifications.toolSpecificationsFrom(new EpsteinActions()).stream()
        .filter(t -> in.tools().contains(t.name())).toList();
    Observation o = in.observation();
    EpsteinScenario prompts = new EpsteinScenario();
    AiMessage plan = model.chat(ChatRequest.builder()
        .messages(SystemMessage.from(CotPrompts.reasoningSystem(prompts.roleDescription(in.role()), o, null,
            in.tools())), UserMessage.from(prompts.stepPrompt(in.role())))
        .toolSpecifications(tools).toolChoice(ToolChoice.NONE).build()).aiMessage();
    model.chat(ChatRequest.builder()
        .messages(SystemMessage.from(CotPrompts.executionSystem()),
            UserMessage.from(CotPrompts.executionUser(plan.text())))
        .toolSpecifications(tools).toolChoice(ToolChoice.AUTO).build());
  }

  /** 2. A task of 8 independent 200 ms look-ups: ReWOO vs ReAct. */
  private void parallel() throws Exception {
    long toolMillis = 200;
    long latency = 50;
    DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder()
        .setTools(ToolRegistry.newBuilder().addExternalTools(new BenchmarkModels.SlowLookupTool(toolMillis))
            .addControlTools(new io.durableagents.activities.tools.FinishTool()).build())
        .registerModel("lookup-task", new LatencyChatModel(new BenchmarkModels.LookupTaskModel(),
            Duration.ofMillis(latency)))
        .setStickyExecution(false)
        .build();
    WorkflowClient pluggedClient = WorkflowClient.newInstance(service,
        WorkflowClientOptions.newBuilder().setPlugins(plugin).build());
    WorkerFactory factory = WorkerFactory.newInstance(pluggedClient);
    factory.start();
    try {
      line("## 2. Parallel plan levels");
      line("");
      line("A task of " + BenchmarkModels.KEYS + " independent look-ups, each tool call taking " + toolMillis
          + " ms, each LLM call " + latency + " ms (a deterministic scripted model). ReWOO plans all "
          + "look-ups at once and runs them as one level of parallel activities; ReAct looks up one key "
          + "per turn, as the classic loop does. Worker in the driver's JVM.");
      line("");
      line("| strategy | wall time (ms) | LLM calls | tool calls |");
      line("| --- | ---: | ---: | ---: |");
      Map<Strategy, Long> wall = new LinkedHashMap<>();
      for (Strategy s : List.of(Strategy.REWOO, Strategy.REACT)) {
        runTask(pluggedClient, s, "warm");
        long t0 = System.nanoTime();
        AgentTaskResult r = runTask(pluggedClient, s, "run");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        wall.put(s, ms);
        line(String.format(Locale.ROOT, "| %s | %d | %d | %d |", s.label(), ms, r.llmCalls(), r.toolCalls()));
      }
      line(String.format(Locale.ROOT, "| **ratio react / rewoo** | **%.2f** | | |",
          (double) wall.get(Strategy.REACT) / wall.get(Strategy.REWOO)));
      line("");
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

  /** One measured run of the scale part. */
  record ScaleRun(double wall, double agentStepsPerSecond, long llmCalls, long heapMb, long threads,
      double workerCpuMs, double serverCpuMs) {}

  /**
   * For each configuration, latency and group size measured at several agent counts: the median agent
   * steps per second at each count and its ratio to the smallest count's (1.00 = no cost per agent from
   * scale). Rows of one agent count repeated in a run (500,10000,500) are one median.
   */
  static List<String> growthLines(Map<String, List<ScaleRun>> runs) {
    Map<String, java.util.TreeMap<Integer, Double>> byShape = new LinkedHashMap<>();
    Set<String> configurations = new HashSet<>();
    for (String key : runs.keySet()) {
      configurations.add(key.substring(0, nthLastBar(key, 3)));
    }
    for (Map.Entry<String, List<ScaleRun>> e : runs.entrySet()) {
      // configuration | latency | agents | agents per workflow
      String key = e.getKey();
      String[] k = key.substring(nthLastBar(key, 3) + 1).split("\\|");
      String shape = k[2] + " per workflow, L = " + k[0] + " ms"
          + (configurations.size() > 1 ? " (" + key.substring(0, nthLastBar(key, 3)) + ")" : "");
      byShape.computeIfAbsent(shape, x -> new java.util.TreeMap<>())
          .put(Integer.parseInt(k[1]), median(e.getValue().stream().map(ScaleRun::agentStepsPerSecond).toList()));
    }
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, java.util.TreeMap<Integer, Double>> e : byShape.entrySet()) {
      if (e.getValue().size() < 2) {
        continue;
      }
      double base = e.getValue().firstEntry().getValue();
      StringBuilder b = new StringBuilder("Agent steps per second against the smallest agent count, "
          + e.getKey() + ":");
      String sep = " ";
      for (Map.Entry<Integer, Double> n : e.getValue().entrySet()) {
        b.append(String.format(Locale.ROOT, "%s%,d agents %.0f (%.2f)", sep, n.getKey(), n.getValue(),
            base == 0 ? 0 : n.getValue() / base));
        sep = ", ";
      }
      lines.add(b.append('.').toString());
    }
    if (!lines.isEmpty()) {
      lines.add("");
    }
    return lines;
  }

  /** The index of the {@code n}th '|' from the end of {@code key}. */
  private static int nthLastBar(String key, int n) {
    int i = key.length();
    for (int found = 0; found < n; found++) {
      i = key.lastIndexOf('|', i - 1);
    }
    return i;
  }

  /**
   * CPU time (user + system) a process has used so far, in ms, from Linux's {@code /proc/<pid>/stat};
   * -1 where there is no such file. CPU time per agent step is much steadier than wall time on a shared
   * machine, whose other tenants slow every run down by different amounts.
   */
  static double cpuMillis(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // fields 14 and 15 of the whole line (utime, stime) are 12 and 13 after the command name
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 1000.0 / CLOCK_TICKS;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
  private static final double CLOCK_TICKS = 100.0;

  /**
   * 3. Simulations of growing size at growing latency, on each JVM; every configuration {@code
   * --repeat} times, round robin, so that the machine's slow and fast moments fall on all of them.
   */
  private void scale() throws Exception {
    line("## 3. Scale");
    line("");
    line("Epstein simulations with CoT (2 sequential LLM calls per agent step), " + steps + " steps, one worker "
        + "in its own JVM (-Xmx" + WORKER_HEAP + "), `--max-concurrent-agents` = the agent count. Critical path = "
        + "steps x 2 x L. Heap and threads are the worker's maxima, sampled from its metrics endpoint every "
        + "second. "
        + (warmupAgentSteps > 0 ? "Each fresh worker and server first ran " + warmupAgentSteps + " agent steps "
            + "per shape, unmeasured (the JIT compilers of both JVMs take about half of their CPU in their first "
            + "minute). " : "Cold JVMs: no warm-up. ")
        + (repeat > 1 ? "Each row is the median of " + repeat + " runs (min-max in brackets), the configurations "
            + "taking turns." : "One run per row."));
    line("");
    List<String> javas = jvmsToMeasure();
    List<Integer> pollerCounts = pollers == null || pollers.isEmpty() ? java.util.Collections.singletonList(null) : pollers;
    List<ScaleWorker> configurations = new ArrayList<>();
    for (String java : javas) {
      for (Integer p : pollerCounts) {
        for (boolean eager : eagerLlmCalls) {
          configurations.add(new ScaleWorker(java, "auto", p, eager));
        }
      }
    }
    // Side by side, on the first JVM at L = 0: sticky execution off, which replays every workflow's
    // history at each of its tasks (auto keeps it on: the embedded Temporal times sticky queues out).
    if (!noStickyComparison) {
      configurations.add(new ScaleWorker(javas.get(0), "off", pollerCounts.get(0), eagerLlmCalls.get(0)));
    }
    String heap = serverHeap != null ? serverHeap
        : agents.stream().mapToInt(Integer::intValue).max().orElse(0) >= 2000 ? "10g" : "2g";
    Map<String, List<ScaleRun>> runs = new LinkedHashMap<>();
    Map<String, String> rowStart = new LinkedHashMap<>();
    Map<String, AgentStepShape> shapes = new LinkedHashMap<>();
    Map<String, String> stuck = new LinkedHashMap<>();
    Map<String, List<Double>> databaseBytes = new LinkedHashMap<>();
    List<String> yardstickLines = new ArrayList<>();
    for (int round = 0; round < repeat; round++) {
      for (ScaleWorker configuration : configurations) {
       for (BenchmarkServer.Kind kind : serverKinds) {
        ScaleStack stack = null;
        try {
          for (int latency : configuration.sticky().equals("off") ? List.of(0) : latencies) {
            for (int n : agents) {
              for (int perWorkflow : agentsPerWorkflow) {
                String key = kind.label + "|" + configuration + "|" + latency + "|" + n + "|" + perWorkflow;
                rowStart.put(key, String.format(Locale.ROOT, "| %s | %s | %s | %s | %d | %d | %d |", kind.label,
                    javaLabel(configuration.java()) + (configuration.eagerLlmCalls() ? ", eager LLM calls" : ""),
                    configuration.sticky().equals("off") ? "off" : "on (auto)",
                    configuration.pollers() == null ? "5" : configuration.pollers().toString(), perWorkflow, n,
                    latency));
                if (stuck.containsKey(key)) {
                  continue; // it did not finish in an earlier round: do not wait for it again
                }
                long rowAgentSteps = (long) n * steps;
                if (stack == null || stack.agentSteps + rowAgentSteps > SERVER_AGENT_STEPS) {
                  if (stack != null) {
                    stack.worker.stop();
                  }
                  // A fresh embedded server (it keeps every finished workflow in memory: a server grown by
                  // earlier runs slows the later ones down, and a 10,000-agent row needs its heap) and a
                  // fresh worker, warmed up.
                  restartServer(kind, heap);
                  stack = new ScaleStack(BenchmarkWorker.start(this, "scale-" + javaLabel(configuration.java())
                      .replaceAll("[^A-Za-z0-9]", "") + "-" + configuration.sticky() + "-" + configuration.pollers()
                      + "-" + System.nanoTime(), configuration.java(), configuration.env()));
                  warmUp();
                }
                BenchmarkWorker worker = stack.worker;
                worker.resetSamples();
                String id = "bench-scale-" + n + "-" + latency + "-" + perWorkflow + "-" + System.nanoTime();
                double workerCpu0 = cpuMillis(worker.pid());
                double serverCpu0 = server.cpuMillis();
                long database0 = server.databaseBytes();
                long t0 = System.nanoTime();
                SimulationResult r;
                try {
                  r = runWatched(simulationInput(n, steps, latency, Strategy.COT, 1)
                      .withAgentsPerWorkflow(perWorkflow), id, worker);
                } catch (StuckRun e) {
                  stuck.put(key, e.getMessage());
                  if (e.agentStepsDone >= 0) {
                    // a row cut by --time-limit: its rate until then, marked in the tables
                    double wall = (System.nanoTime() - t0) / 1e9;
                    runs.computeIfAbsent(key, k -> new ArrayList<>()).add(new ScaleRun(wall,
                        e.agentStepsDone / wall, 0, worker.maxHeapMb(), worker.maxThreads(),
                        (cpuMillis(worker.pid()) - workerCpu0) / Math.max(1, e.agentStepsDone),
                        (server.cpuMillis() - serverCpu0) / Math.max(1, e.agentStepsDone)));
                    rowStart.put(key, rowStart.get(key).replaceFirst("\\| (\\d+) \\|$",
                        "| $1 (cut at " + timeLimitMinutes + " min: " + e.agentStepsDone + " agent steps) |"));
                  }
                  System.out.printf(Locale.ROOT, "  round %d/%d: %s did not finish: %s%n", round + 1, repeat,
                      rowStart.get(key), e.getMessage());
                  stack.worker.stop();
                  stack = null;
                  continue;
                }
                stack.agentSteps += rowAgentSteps;
                double wall = (System.nanoTime() - t0) / 1e9;
                double workerCpu = (cpuMillis(worker.pid()) - workerCpu0) / r.agentSteps();
                double serverCpu = (server.cpuMillis() - serverCpu0) / r.agentSteps();
                if (kind == BenchmarkServer.Kind.DEV_SERVER) {
                  databaseBytes.computeIfAbsent(key, k -> new ArrayList<>())
                      .add((double) (server.databaseBytes() - database0) / r.agentSteps());
                }
                runs.computeIfAbsent(key, k -> new ArrayList<>()).add(new ScaleRun(wall, r.agentSteps() / wall,
                    r.llmCalls(), worker.maxHeapMb(), worker.maxThreads(), workerCpu, serverCpu));
                if (!shapes.containsKey(key)) {
                  // after the timings: the same in every round, read once
                  shapes.put(key, AgentStepShape.of(client, id, r));
                }
                System.out.printf(Locale.ROOT, "  round %d/%d: %s %.1f s%n", round + 1, repeat, rowStart.get(key), wall);
              }
            }
          }
          if (yardstick != null && configuration == configurations.get(0)) {
            stack.worker.stop(); // the yardstick's own worker has the machine to itself
            stack = null;
            // at the smallest agent count only: on the real server it takes minutes (bounded by --time-limit)
            yardstickLines.add(Yardstick.run(yardstick, logs, kind, port, agents.get(0), steps, round,
                timeLimitMinutes == null ? 20 : timeLimitMinutes));
          }
        } finally {
          if (stack != null) {
            stack.worker.stop();
          }
        }
       }
      }
    }
    line("| server | worker JVM | sticky | pollers | agents per workflow | agents | L (ms) | wall (s) | agent steps/s "
        + "| critical path (s) | wall / critical path | CPU ms per agent step (worker + server) | LLM calls "
        + "| max heap (MB) | max threads |");
    line("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (Map.Entry<String, String> row : rowStart.entrySet()) {
      List<ScaleRun> measured = runs.get(row.getKey());
      if (measured == null) {
        line(row.getValue() + " did not finish: " + stuck.get(row.getKey()) + " | | | | | | | |");
        continue;
      }
      int latency = Integer.parseInt(row.getKey().split("\\|")[2]);
      double critical = steps * 2 * latency / 1000.0;
      double wall = median(measured.stream().map(ScaleRun::wall).toList());
      line(String.format(Locale.ROOT, "%s %.1f | %s | %s | %s | %.1f + %.1f | %d | %d | %d |", row.getValue(),
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
    line("");
    for (String growth : growthLines(runs)) {
      line(growth);
    }
    if (serverKinds.size() > 1) {
      line("The same rows on the two servers, side by side (medians; the ratio is the dev server's agent steps/s "
          + "over the in-memory one's; events and workflow tasks per agent step read from each run's histories; "
          + "SQLite bytes: the growth of the dev server's database file and its journal over the run, per agent step):");
      line("");
      comparison(runs, shapes, databaseBytes).lines().forEach(this::line);
    }
    if (!yardstickLines.isEmpty()) {
      line("The yardstick (`" + yardstick + "`, L = 0, its agent steps per second), run on each server after its "
          + "rows (`-Dtarget`), compiled against this jar's SDK:");
      line("");
      line("| round | server | agents | steps | agent steps/s | wall (s) |");
      line("| ---: | --- | ---: | ---: | ---: | ---: |");
      yardstickLines.forEach(this::line);
      line("");
    }
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

  /** The scale rows measured on both servers: what {@link ServerComparison} prints side by side. */
  private ServerComparison comparison(Map<String, List<ScaleRun>> runs, Map<String, AgentStepShape> shapes,
      Map<String, List<Double>> databaseBytes) {
    ServerComparison c = new ServerComparison();
    for (Map.Entry<String, List<ScaleRun>> e : runs.entrySet()) {
      String key = e.getKey();
      BenchmarkServer.Kind kind = BenchmarkServer.Kind.parse(key.substring(0, key.indexOf('|')));
      String[] k = key.substring(nthLastBar(key, 3) + 1).split("\\|"); // latency | agents | per workflow
      String jvm = key.contains("sticky=off") ? ", sticky off" : "";
      String row = String.format(Locale.ROOT, "%,d agents, %s, L = %s ms%s%s", Integer.parseInt(k[1]),
          k[2].equals("1") ? "a workflow per agent step" : "groups of " + k[2], k[0],
          configurationsMeasured(runs) > 1 ? ", " + key.substring(key.indexOf('|') + 1, nthLastBar(key, 3)) : "", jvm);
      List<ScaleRun> m = e.getValue();
      AgentStepShape shape = shapes.get(key);
      c.add(row, kind, new ServerComparison.Measured(median(m.stream().map(ScaleRun::agentStepsPerSecond).toList()),
          median(m.stream().map(ScaleRun::workerCpuMs).toList()), median(m.stream().map(ScaleRun::serverCpuMs).toList()),
          shape == null ? -1 : shape.perAgentStep(shape.events()),
          shape == null ? -1 : shape.perAgentStep(shape.workflowTasks()),
          databaseBytes.containsKey(key) ? median(databaseBytes.get(key)) : -1));
    }
    return c;
  }

  /** How many worker configurations (JVM, sticky, pollers) the scale rows span. */
  private static long configurationsMeasured(Map<String, List<ScaleRun>> runs) {
    return runs.keySet().stream().map(k -> k.substring(k.indexOf('|') + 1, nthLastBar(k, 3))).distinct().count();
  }

  /** A table of what each configuration's histories say: its text, then a row per configuration. */
  private void shapeTable(String text, String header, String alignment, Map<String, String> rowStart,
      Map<String, AgentStepShape> shapes, java.util.function.Function<AgentStepShape, String> cells) {
    line(text);
    line("");
    line("| server | worker JVM | sticky | pollers | agents per workflow | agents | L (ms) | " + header);
    line("| --- | --- | --- | ---: | ---: | ---: | ---: |" + alignment);
    for (Map.Entry<String, AgentStepShape> e : shapes.entrySet()) {
      line(rowStart.get(e.getKey()) + " " + cells.apply(e.getValue()));
    }
    line("");
  }

  /** The worker's heap in the scale part: the 10,000-agent goal of issue 16 is to stay within 2 GB. */
  static final String WORKER_HEAP = "2g";

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

  /** {@code --warmup-agent-steps} per shape, on 200 agents (fewer when all rows are smaller). */
  private void warmUp() {
    // --warmup-agent-steps 0: only the small run that loads the classes, as before the warm-up existed
    int n = warmupAgentSteps == 0 ? 20
        : Math.max(20, Math.min(200, agents.stream().mapToInt(Integer::intValue).max().orElse(200)));
    int warmSteps = Math.max(3, (int) Math.ceil((double) warmupAgentSteps / n));
    for (int perWorkflow : agentsPerWorkflow) {
      runSimulation(simulationInput(n, warmSteps, 0, Strategy.COT, 1).withAgentsPerWorkflow(perWorkflow),
          "bench-scale-warm-" + System.nanoTime());
    }
  }

  /** A scale-part run that did not finish: its workflow task kept failing, or its worker died. */
  private static final class StuckRun extends Exception {
    /** Agent steps done when a run was given up at its time limit, else -1. */
    final long agentStepsDone;

    StuckRun(String message, long agentStepsDone) {
      super(message);
      this.agentStepsDone = agentStepsDone;
    }
  }

  /**
   * Runs a simulation and waits for it, but never forever: it gives up (terminating the run) when the
   * run's workflow task keeps failing, the worker has exited, or no agent step has ended for 10 minutes.
   */
  private SimulationResult runWatched(SimulationInput input, String id, BenchmarkWorker worker) throws StuckRun {
    io.temporal.client.WorkflowStub stub = startSimulation(input, id);
    long lastProgress = System.nanoTime();
    long lastEvents = -1;
    long giveUpAt = timeLimitMinutes == null ? Long.MAX_VALUE
        : System.nanoTime() + TimeUnit.MINUTES.toNanos(timeLimitMinutes);
    for (int wait = 1; ; wait++) {
      try {
        try {
          return stub.getResult(5, TimeUnit.SECONDS, SimulationResult.class);
        } catch (io.temporal.client.WorkflowServiceException e) {
          // The real server answers a long poll of a workflow whose lock its children's starts and
          // completions hold with RESOURCE_EXHAUSTED "Workflow is busy"; the SDK retries it until the
          // poll's 5 s run out and then throws it: a wait like any other.
          if (!(e.getCause() instanceof io.grpc.StatusRuntimeException s)
              || s.getStatus().getCode() != io.grpc.Status.Code.RESOURCE_EXHAUSTED) {
            throw e;
          }
          throw new java.util.concurrent.TimeoutException(e.getCause().getMessage());
        }
      } catch (java.util.concurrent.TimeoutException e) {
        String reason = null;
        long done = -1;
        // every 30 s (reading the history costs the server CPU that the row measures)
        java.util.Optional<FailingWorkflowTask> failing = wait % 6 == 0
            ? FailingWorkflowTask.of(service, "default", id) : java.util.Optional.empty();
        if (failing.isPresent()) {
          reason = failing.get().describe();
        } else if (System.nanoTime() > giveUpAt) {
          done = PartialRun.agentStepsDone(client, id, input.agentsPerWorkflow());
          reason = "not finished within its time limit of " + timeLimitMinutes + " minutes: " + done
              + " agent steps done by then";
        } else if (!worker.alive()) {
          reason = "the worker exited; see " + worker.log();
        } else {
          long events = stub.describe().getHistoryLength();
          if (events != lastEvents) {
            lastEvents = events;
            lastProgress = System.nanoTime();
          } else if (System.nanoTime() - lastProgress > TimeUnit.MINUTES.toNanos(10)) {
            reason = "no progress for 10 minutes";
          }
        }
        if (reason != null) {
          try {
            stub.terminate("benchmark: " + reason);
          } catch (RuntimeException ignored) {
            // it ended meanwhile
          }
          throw new StuckRun(reason, done);
        }
      }
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** The median in {@code format}, bold if {@code bold}, with the range when there are several values. */
  private static String spread(List<Double> values, String format, boolean bold) {
    String median = String.format(Locale.ROOT, format, median(values));
    String text = bold ? "**" + median + "**" : median;
    if (values.size() < 2) {
      return text;
    }
    return text + String.format(Locale.ROOT, " (" + format + "-" + format + ")",
        values.stream().mapToDouble(Double::doubleValue).min().orElse(0),
        values.stream().mapToDouble(Double::doubleValue).max().orElse(0));
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
    Path journal = logs.resolve("journal-recovery.log");
    Files.deleteIfExists(journal);
    Map<String, String> env = Map.of("DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString());
    String shape = perWorkflow == 1 ? "per-step" : "group" + perWorkflow;
    BenchmarkWorker worker = BenchmarkWorker.start(this, "recovery-" + shape + "-0", ChildProcesses.javaBinary(), env);
    String id = "bench-recovery-" + System.nanoTime();
    SimulationInput input = simulationInput(n, simSteps, latency, Strategy.COT, 1)
        .withAgentsPerWorkflow(perWorkflow);
    // An undisturbed run first: how many calls the run makes, and the result the killed one must equal.
    SimulationResult reference = runSimulation(input, id + "-reference");
    int skip = Files.readAllLines(journal).size();
    io.temporal.client.WorkflowStub stub = startSimulation(input, id);
    // Kill k comes after (10 + 60 * k / kills)% of the run's calls (+-3%), read from the execution
    // journal, and never before the worker started after the previous kill has completed a call.
    List<RecoveryKill> killed = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(20);
    for (int k = 0; k < kills && System.nanoTime() < deadline; k++) {
      double share = 0.1 + 0.6 * k / Math.max(1, kills) + 0.06 * (random.nextDouble() - 0.5);
      long killAfter = (long) (reference.llmCalls() * share);
      long pid = worker.pid();
      while ((CompletedActivities.doneInJournal(journal, skip) < killAfter || firstDone(journal, skip, pid) < 0)
          && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      if (stub.describe().getStatus() != io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
        break; // the run ended before this kill
      }
      long killedAt = System.currentTimeMillis();
      worker.kill();
      long doneAtKill = CompletedActivities.doneInJournal(journal, skip);
      worker = BenchmarkWorker.start(this, "recovery-" + shape + "-" + (k + 1), ChildProcesses.javaBinary(), env);
      killed.add(new RecoveryKill(killedAt, doneAtKill, System.currentTimeMillis(), worker));
    }
    SimulationResult r = stub.getResult(20, TimeUnit.MINUTES, SimulationResult.class);
    worker.stop();
    boolean sameResult = reference.perStep().equals(r.perStep()) && reference.llmCalls() == r.llmCalls()
        && reference.usage().equals(r.usage());

    Map<String, Integer> completed = CompletedActivities.byRun(client, id);
    int[] ranAgainAndRetried = ranAgain(journal, skip, completed);
    int ranAgainAfterCompletion = ranAgainAndRetried[0];
    int retriedInFlight = ranAgainAndRetried[1];
    line("On the " + server.kind.label + ": a " + n + "-agent CoT run (L = " + latency + " ms, " + simSteps + " steps, " + (perWorkflow == 1
        ? "a workflow per agent step" : perWorkflow + " agents per workflow") + ", seed " + seed + ") whose worker "
        + "is killed with kill -9 " + killed.size() + " times; after each kill a new worker (a new JVM) is started "
        + "at once, and the next kill comes once it has completed a call and the run has gone on.");
    line("");
    line("| kill | after LLM calls | kill -9 to the new worker polling (ms) | kill -9 to the next completed "
        + "activity (ms) | that activity | TMPRL1101 in the new worker's log |");
    line("| ---: | ---: | ---: | ---: | --- | ---: |");
    List<Double> nextDone = new ArrayList<>();
    int k = 0;
    for (RecoveryKill kill : killed) {
      k++;
      long[] first = firstDoneWithAttempt(journal, skip, kill.worker().pid());
      String after = first[0] < 0 ? "n/a" : Long.toString(first[0] - kill.killedAt());
      if (first[0] >= 0) {
        nextDone.add((double) (first[0] - kill.killedAt()));
      }
      line("| " + k + " | " + kill.doneAtKill() + " | " + (kill.readyAt() - kill.killedAt()) + " | " + after + " | "
          + (first[0] < 0 ? "-" : first[1] > 1 ? "a call in flight at the kill, retried (attempt " + first[1] + ")"
              : "a call not yet started at the kill") + " | " + countInLog(kill.worker().log(), "TMPRL1101") + " |");
    }
    line("");
    line("| measure | value |");
    line("| --- | ---: |");
    if (!nextDone.isEmpty()) {
      line(String.format(Locale.ROOT, "| kill -9 to the next completed activity, median / worst (ms) | **%.0f** / **%.0f** |",
          median(nextDone), nextDone.stream().mapToDouble(Double::doubleValue).max().orElse(0)));
    }
    line("| activities completed in the run | " + completed.size() + " |");
    line("| completed calls executed again | **" + ranAgainAfterCompletion + "** |");
    line("| calls in flight at a kill, retried (at-least-once) | " + retriedInFlight + " |");
    line("| agent steps, LLM calls | " + r.agentSteps() + ", " + r.llmCalls() + " |");
    line("| result equal to the undisturbed run's | " + (sameResult ? "yes" : "**no**") + " |");
    line("");
    return new ServerComparison.RecoveryOutcome(nextDone, ranAgainAfterCompletion, sameResult);
  }

  /**
   * Checks an execution journal (from line {@code skip}) against the attempts that completed each call
   * ({@link CompletedActivities#byRun}): {completed calls that ran again, calls retried after being in
   * flight}. A completed call ran again if an attempt started after the one the history records as
   * completed, or if one attempt started twice. Earlier attempts were in flight at a kill: retried, as
   * at-least-once delivery allows (they may have finished on the dead worker, their results lost).
   */
  static int[] ranAgain(Path journal, int skip, Map<String, Integer> completed) throws IOException {
    Map<String, List<Integer>> executed = new HashMap<>();
    List<String> journalLines = Files.readAllLines(journal);
    for (String l : journalLines.subList(skip, journalLines.size())) {
      String[] f = l.split("\t");
      if (f[1].equals("start")) {
        executed.computeIfAbsent(f[2] + "|" + f[7] + "|" + f[3], k -> new ArrayList<>()).add(Integer.parseInt(f[4]));
      }
    }
    int ranAgainAfterCompletion = 0;
    int retriedInFlight = 0;
    for (Map.Entry<String, Integer> e : completed.entrySet()) {
      List<Integer> attempts = executed.getOrDefault(e.getKey(), List.of());
      for (int a : attempts) {
        if (e.getValue() != null && a > e.getValue()) {
          ranAgainAfterCompletion++;
        }
      }
      if (new HashSet<>(attempts).size() != attempts.size()) {
        ranAgainAfterCompletion++;
      }
      if (e.getValue() != null && e.getValue() > 1) {
        retriedInFlight++;
      }
    }
    return new int[] {ranAgainAfterCompletion, retriedInFlight};
  }

  private int recoveryAgents() {
    return recoverySize != null ? Integer.parseInt(recoverySize.split(":")[0]) : quick ? 50 : 200;
  }

  private int recoverySteps() {
    return recoverySize != null && recoverySize.contains(":") ? Integer.parseInt(recoverySize.split(":")[1])
        : quick ? steps : Math.max(steps, 20);
  }

  /** One kill of the recovery part: when, after how many calls, when its successor polled, and which. */
  private record RecoveryKill(long killedAt, long doneAtKill, long readyAt, BenchmarkWorker worker) {}

  /** When worker {@code pid} first completed an activity (epoch ms), or -1. */
  static long firstDone(Path journal, int skip, long pid) throws IOException {
    return firstDoneWithAttempt(journal, skip, pid)[0];
  }

  /** When worker {@code pid} first completed an activity (epoch ms, -1 if never) and that attempt. */
  static long[] firstDoneWithAttempt(Path journal, int skip, long pid) throws IOException {
    long[] first = {-1, 0};
    try (Stream<String> lines = Files.lines(journal)) {
      lines.skip(skip).forEach(l -> {
        String[] f = l.split("\t");
        if (f.length > 6 && f[1].equals("done") && f[6].equals(Long.toString(pid))) {
          long at = Long.parseLong(f[0]);
          if (first[0] < 0 || at < first[0]) {
            first[0] = at;
            first[1] = Integer.parseInt(f[4]);
          }
        }
      });
    }
    return first;
  }

  /** The machine's 1-minute load average, from /proc/loadavg, or "unknown". */
  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** How many lines of {@code log} contain {@code text}. */
  private static long countInLog(File log, String text) throws IOException {
    try (Stream<String> lines = Files.lines(log.toPath())) {
      return lines.filter(l -> l.contains(text)).count();
    }
  }

  /** 5 and 6. Events and bytes per agent step, and LLM calls and tokens per agent step, per strategy. */
  private void historyAndCost() throws Exception {
    int n = quick ? 20 : 50;
    int simSteps = quick ? 5 : 10;
    BenchmarkWorker worker = BenchmarkWorker.start(this, "history", ChildProcesses.javaBinary(), Map.of());
    List<String[]> variants = List.of(new String[] {"cot", "1"}, new String[] {"react", "1"},
        new String[] {"rewoo", "1"}, new String[] {"rewoo", "3"}, new String[] {"rewoo", "5"});
    List<String> historyRows = new ArrayList<>();
    List<String> costRows = new ArrayList<>();
    try {
      for (String[] v : variants) {
        Strategy s = Strategy.parse(v[0]);
        int ttl = Integer.parseInt(v[1]);
        String id = "bench-history-" + v[0] + "-" + ttl + "-" + System.nanoTime();
        SimulationResult r = runSimulation(simulationInput(n, simSteps, 0, s, ttl), id);
        WorkflowExecutionHistory sim = client.fetchHistory(id);
        long simEvents = sim.getEvents().size();
        long simBytes = sim.getHistory().getSerializedSize();
        long stepEvents = 0;
        long stepBytes = 0;
        long children = 0;
        for (HistoryEvent e : sim.getEvents()) {
          if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
            WorkflowExecutionHistory child = client.fetchHistory(
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
    if (parts.contains("history")) {
      line("## 5. History size");
      line("");
      line("Epstein, " + n + " agents x " + simSteps + " steps, `rules` model. An agent step is its own "
          + "workflow (`AgentStep`); the simulation's own history grows by the columns 'per agent in the "
          + "simulation' for every agent and step. Temporal's limits per workflow run: 50,000 events, 50 MB; "
          + "the last column is the longest run of " + n + " agents whose simulation history stays under 10% "
          + "of both (5,000 events, 5 MB).");
      line("");
      line("| strategy | events per agent step | bytes per agent step | simulation events per agent-step "
          + "| simulation bytes per agent-step | longest run under 10% (steps, " + n + " agents) |");
      line("| --- | ---: | ---: | ---: | ---: | ---: |");
      historyRows.forEach(this::line);
      line("");
    }
    if (parts.contains("cost")) {
      line("## 6. Cost per agent step");
      line("");
      line("The same runs: LLM calls and tokens per simulated agent step (the `rules` model's token counts are "
          + "estimates, four characters a token), and plans made / agent steps served from a plan / re-plans.");
      line("");
      line("| strategy | LLM calls per agent step | input tokens per agent step | output tokens per agent step "
          + "| plans made / steps reused / re-plans |");
      line("| --- | ---: | ---: | ---: | ---: |");
      costRows.forEach(this::line);
      line("");
    }
  }

  /**
   * The time to read the state after a step of a recorded run from its history (what {@code fork}
   * does before it starts the new run), at the start of a continue-as-new run (its input holds the
   * state) and in the middle of one (a prefix replayed, found by bisection), against the time the
   * recorded steps took.
   */
  private void fork() throws Exception {
    int n = 20;
    int total = quick ? 100 : 1000;
    int every = SimulationInput.DEFAULT_CONTINUE_AS_NEW_EVERY;
    BenchmarkWorker worker = BenchmarkWorker.start(this, "fork", ChildProcesses.javaBinary(), Map.of());
    String id = "bench-fork-" + System.nanoTime();
    long started = System.nanoTime();
    try {
      runSimulation(simulationInput(n, total, 0, Strategy.COT, 1), id);
    } finally {
      worker.stop();
    }
    double recordedSeconds = (System.nanoTime() - started) / 1e9;
    line("## 5. Forks");
    line("");
    line("A " + total + "-step simulation of " + n + " agents (CoT, the rules model, continue-as-new every " + every
        + " steps or earlier when the history budget says so) recorded in " + String.format(Locale.ROOT, "%.0f", recordedSeconds) + " s; then the state "
        + "after a step read from its history as `fork` reads it (no worker, no LLM call), 5 times each:");
    line("");
    line("| fork at step | where it is | runs fetched | prefixes replayed | ms min / median / max |");
    line("| ---: | --- | ---: | ---: | --- |");
    int[] steps = {total * 9 / 10, total * 9 / 10 + every / 2, total / 10 + every / 2};
    io.durableagents.worker.DurableAgentsPlugin plugin =
        io.durableagents.worker.DurableAgentsPlugin.newBuilder().configureFromClasspath().build();
    for (int at : steps) {
      List<Double> millis = new ArrayList<>();
      int replays = 0;
      int runs = 0;
      for (int i = 0; i < 5; i++) {
        io.durableagents.worker.SimulationReplay replay = new io.durableagents.worker.SimulationReplay(client, plugin);
        try {
          long t = System.nanoTime();
          io.durableagents.workflows.simulation.Checkpoint c = replay.stateAfter(client, id, at);
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
      line(String.format(Locale.ROOT, "| %d | %s | %d | %d | %.0f / %.0f / %.0f |", at,
          replays == 0 ? "a run's start (its input)" : "inside a run",
          runs, replays, millis.get(0), median(millis), millis.get(millis.size() - 1)));
    }
    line("");
  }

  // ---------------------------------------------------------------------------- infrastructure

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
        .setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).setWorkflowTaskTimeout(taskTimeout(input)).build());
    stub.start(input);
    return stub;
  }

  SimulationResult runSimulation(SimulationInput input, String id) {
    return client.newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id)
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

  private void restartServer() throws Exception {
    restartServer(BenchmarkServer.Kind.IN_MEMORY, "2g");
  }

  private void restartServer(BenchmarkServer.Kind kind, String heap) throws Exception {
    service.shutdownNow();
    server.stop();
    startServer(kind, heap);
  }

  private List<String> jvmsToMeasure() throws IOException {
    if (jvms != null && !jvms.isEmpty()) {
      return jvms;
    }
    List<String> result = new ArrayList<>(List.of(ChildProcesses.javaBinary()));
    if (Runtime.version().feature() < 21) {
      Path lib = Path.of("/usr/lib/jvm");
      if (Files.isDirectory(lib)) {
        try (Stream<Path> dirs = Files.list(lib)) {
          dirs.map(d -> d.resolve("bin").resolve("java")).filter(Files::isExecutable)
              .filter(j -> javaFeature(j.toString()) >= 21).sorted().findFirst()
              .ifPresent(j -> result.add(j.toString()));
        }
      }
    }
    return result;
  }

  /** The feature version of a java executable, from {@code java -version}; 0 when unknown. */
  static int javaFeature(String java) {
    try {
      Process p = new ProcessBuilder(java, "-version").redirectErrorStream(true).start();
      String text = new String(p.getInputStream().readAllBytes());
      p.waitFor(10, TimeUnit.SECONDS);
      Matcher m = Pattern.compile("version \"(\\d+)").matcher(text);
      return m.find() ? Integer.parseInt(m.group(1)) : 0;
    } catch (IOException | InterruptedException e) {
      return 0;
    }
  }

  static String javaLabel(String java) {
    int feature = javaFeature(java);
    return "JDK " + feature + (feature >= 21 ? ", virtual threads" : "");
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  void line(String text) {
    System.out.println(text);
    System.out.flush();
    report.append(text).append('\n');
  }
}
