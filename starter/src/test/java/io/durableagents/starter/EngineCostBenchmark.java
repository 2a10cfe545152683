package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.durableagents.activities.llm.ChatModelProvider;
import io.durableagents.activities.llm.LlmActivitiesImpl;
import io.durableagents.activities.llm.LlmSettings;
import io.durableagents.starter.EngineCostProbe.LoadSampler;
import io.durableagents.starter.EngineCostProbe.TimedChatModel;
import io.durableagents.testkit.LocalModelServer;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The cost of the engine against a real model: an Epstein simulation (CoT, 2 LLM calls per agent step)
 * on SmolLM2-135M served by llama.cpp ({@link LocalModelServer}, one thread) through Temporal's real dev
 * server and one worker, side by side with the very same requests sent straight to the model server, at
 * the same concurrency.
 *
 * <p>For each slot count s, after an unmeasured warm-up pair at a small size (the JVM's classes and JIT),
 * {@code -DengineCost.pairs=N} pairs, one after the other: <b>engine run k</b> ({@code simulate ... --model
 * openai:smollm2} through the command line, the worker in this JVM with {@link #workerEnvironment}), then
 * <b>direct run k</b>, which reads run k's requests back from its histories ({@link EngineCostHistory}) and
 * sends them again with the same LangChain4j code the activity runs ({@link LlmActivitiesImpl#chat}, called
 * outside any activity: no Temporal): every agent of a simulation step at once, each agent's calls in
 * order, at most s at the server (a fair first-come queue: the worker's slots do the same), one step after
 * the other. Every run, on either side, gets a <b>fresh model server</b> (an empty prompt cache: llama.cpp
 * reuses a slot's cached prefix, which favoured whichever side ran second). A pair must have made the same
 * number of requests with the same prompt and generated tokens (the server's {@code /metrics}), else the
 * benchmark fails, after printing what it measured.
 *
 * <p>Besides the wall time, which the machine's load moves by more than the effect, each run reports what
 * the load hides less: the time no request was at the model server ({@link TimedChatModel}, the same on
 * both sides), the model server's CPU seconds, the worker's and the dev server's, and the load average.
 * Both sides call the model through one greedy client ({@link #greedy}), so they generate the same tokens.
 *
 * <p>Not part of the build: run it by name, {@code ./mvnw -o -pl starter -am test -Dtest=EngineCostBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}, with {@code -DengineCost.slots=1,2,4 -DengineCost.citizens=6
 * -DengineCost.cops=2 -DengineCost.steps=2 -DengineCost.pairs=3} (the defaults) to change the size. It needs
 * the model server ({@value LocalModelServer#PYTHON_VARIABLE} or {@code .ci/model}) and the Temporal CLI.
 */
class EngineCostBenchmark {
  /** The most tokens a call generates: the server's cap and the worker's setting. */
  static final int MAX_OUTPUT_TOKENS = 48;
  /** The longest a call may take, on both sides. */
  static final Duration CALL_TIMEOUT = Duration.ofMinutes(10);

  /**
   * The worker's environment, in one place: the dev server, the model server, the per-model cap of calls
   * at once ({@code DURABLE_AGENTS_LLM_SLOTS}), the maximum output length and the call's time limits
   * ({@link #CALL_TIMEOUT}). (The model is registered,
   * {@link #greedy}: {@code OPENAI_BASE_URL} names the first server and is not what the calls use.)
   */
  static Map<String, String> workerEnvironment(String temporalAddress, LocalModelServer model) {
    Map<String, String> env = new HashMap<>();
    env.put("TEMPORAL_ADDRESS", temporalAddress);
    env.put("OPENAI_BASE_URL", model.baseUrl());
    env.put("DURABLE_AGENTS_LLM_SLOTS", model.modelReference() + "=" + model.slots());
    env.put("DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS", Integer.toString(MAX_OUTPUT_TOKENS));
    // a loaded machine makes a call of this one-thread server take minutes: no call may fail for its time,
    // or the engine's run and the direct one would not make the same requests
    env.put("DURABLE_AGENTS_LLM_TIMEOUT", Long.toString(CALL_TIMEOUT.toSeconds()));
    env.put("DURABLE_AGENTS_LLM_RETRY_BUDGET", Long.toString(CALL_TIMEOUT.toSeconds()));
    return env;
  }

  /**
   * A client of {@code model} as the worker builds one for {@code openai:<alias>}, with temperature 0
   * (greedy sampling: the same prompt gives the same tokens, so both sides generate the same answers). The
   * simulation has no temperature option, and the server's default samples at random.
   */
  static ChatModel greedy(LocalModelServer model) {
    return OpenAiChatModel.builder().baseUrl(model.baseUrl()).modelName(model.alias()).temperature(0.0)
        .timeout(CALL_TIMEOUT).maxRetries(0).build();
  }

  private Path python;
  private Path dir;
  private Process devServer;

  @Test
  void engineAgainstTheModelServerDriven() throws Exception {
    python = LocalModelServer.pythonForTests();
    assumeTrue(python != null, LocalModelServer.MISSING);
    int[] slotCounts = Arrays.stream(System.getProperty("engineCost.slots", "1,2,4").split(","))
        .mapToInt(v -> Integer.parseInt(v.trim())).toArray();
    String citizens = System.getProperty("engineCost.citizens", "6");
    String cops = System.getProperty("engineCost.cops", "2");
    String steps = System.getProperty("engineCost.steps", "2");
    int pairs = Integer.parseInt(System.getProperty("engineCost.pairs", "3"));
    dir = Files.createDirectories(Path.of("target", "engine-cost-benchmark"));
    int port = RealDevServer.freePort();
    devServer = RealDevServer.startFresh(dir, port);
    String address = "127.0.0.1:" + port;
    List<String> summary = new ArrayList<>();
    List<String> runs = new ArrayList<>();
    List<String> diagnostics = new ArrayList<>();
    List<String> unequal = new ArrayList<>();
    try {
      for (int s : slotCounts) {
        TimedChatModel timed = new TimedChatModel();
        Map<String, String> env;
        try (LocalModelServer first = startModel(s, "first")) {
          env = workerEnvironment(address, first);
        }
        TemporalConnection connection = TemporalConnection.fromEnvironment(env);
        WorkflowServiceStubs service = TemporalCheck.connect(connection);
        DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().configureFromEnvironment(env)
            .configureFromClasspath().registerModel(env.get("DURABLE_AGENTS_LLM_SLOTS").split("=")[0], timed).build();
        String reference = env.get("DURABLE_AGENTS_LLM_SLOTS").split("=")[0];
        WorkerFactory worker = WorkerFactory.newInstance(connection.client(service, "engine-cost-worker-" + s, plugin));
        worker.start();
        WorkflowClient client = connection.client(service);
        LlmActivitiesImpl direct = new LlmActivitiesImpl(ChatModelProvider.newBuilder()
            .settings(LlmSettings.fromEnvironment(env)).register(reference, timed).build(), plugin.tools());
        try {
          if (s == slotCounts[0]) {
            // the JVM's first simulation and replay: classes loaded and compiled, not counted
            Measured warm = measure(s, "warm-up-engine", timed, model -> engineRun(client, env,
                simulation(reference, "2", "1", "1"), "engine-cost-s" + s + "-warm-up"));
            measure(s, "warm-up-direct", timed, model -> directRun(direct, warm.history, s));
          }
          List<Measured[]> measured = new ArrayList<>();
          for (int k = 1; k <= pairs; k++) {
            String id = "engine-cost-s" + s + "-run-" + k;
            Measured e = measure(s, "engine-" + k, timed,
                model -> engineRun(client, env, simulation(reference, citizens, cops, steps), id));
            Measured d = measure(s, "direct-" + k, timed, model -> directRun(direct, e.history, s));
            measured.add(new Measured[] {e, d});
            runs.add(e.row(s));
            runs.add(d.row(s));
            diagnostics.add("slots " + s + ", engine run " + k + ": " + e.history.timing());
            String differs = e.differences(d);
            if (!differs.isEmpty()) {
              unequal.add("slots " + s + ", pair " + k + ": " + differs);
              System.out.println("EngineCostBenchmark: UNEQUAL PAIR, slots " + s + ", pair " + k + ": " + differs);
            }
          }
          summary.add(summaryRow(s, measured));
        } finally {
          worker.shutdownNow();
          worker.awaitTermination(20, TimeUnit.SECONDS);
          service.shutdownNow();
        }
      }
    } finally {
      RealDevServer.stop(devServer);
    }
    System.out.println("EngineCostBenchmark: Epstein, " + citizens + " citizens + " + cops + " cops, " + steps
        + " steps, CoT, SmolLM2-135M (llama.cpp, 1 thread, greedy, a fresh server per run), at most "
        + MAX_OUTPUT_TOKENS + " output tokens; " + pairs + " pairs per slot count (engine run k, then direct "
        + "sending run k's requests); medians, the pairs' range in brackets");
    System.out.println("| slots | agent steps | LLM calls | wall engine (s) | wall direct (s) | agent steps/s engine "
        + "| direct | engine share by wall time | no request at the model, engine (s) | direct (s) "
        + "| engine share by that idle time | slots in use, engine / direct | engine share by slots in use "
        + "| engine share at most (idle time and all its CPU taken from the model) "
        + "| model server CPU engine / direct (s) | worker JVM CPU engine / direct, "
        + "dev server CPU (s) | load average engine / direct |");
    System.out.println("| ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | --- | --- | ---: | --- | ---: | ---: | --- | --- | --- |");
    summary.forEach(System.out::println);
    System.out.println();
    System.out.println("Every run:");
    System.out.println("| slots | run | wall (s) | no request at the model (s) (before the first) | requests at once, mean | a request at "
        + "the model, mean (s) | requests | prompt tokens (cached) | generated | model server CPU (s) "
        + "| this JVM CPU (s) | dev server CPU (s) | load average mean / max |");
    System.out.println("| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |");
    runs.forEach(System.out::println);
    System.out.println();
    System.out.println("Where the engine's time went (per engine run, from its histories; mean/median/max):");
    diagnostics.forEach(d -> System.out.println("- " + d));
    assertTrue(unequal.isEmpty(), "pairs whose two runs did not make the same requests: " + unequal);
  }

  private List<String> simulation(String reference, String citizens, String cops, String steps) {
    return List.of("--scenario", "epstein", "--citizens", citizens, "--cops", cops, "--steps", steps, "--width",
        "8", "--height", "8", "--strategy", "cot", "--model", reference, "--max-concurrent-agents", "1000",
        "--seed", "42");
  }

  private LocalModelServer startModel(int slots, String run) {
    return LocalModelServer.newBuilder().python(python).slots(slots).threads(1).toolTemplate()
        .maxOutputTokens(MAX_OUTPUT_TOKENS).seed(42).directory(dir.resolve("model-" + slots).resolve(run)).start();
  }

  /** What a run did: its wall time (nanoTime from / to), and, for an engine run, its histories. */
  record Outcome(long from, long to, EngineCostHistory history) {}

  interface Body {
    Outcome run(LocalModelServer model) throws Exception;
  }

  /** Runs {@code body} against a fresh model server and measures it. */
  private Measured measure(int s, String name, TimedChatModel timed, Body body) throws Exception {
    try (LocalModelServer model = startModel(s, name)) {
      timed.retarget(greedy(model));
      LocalModelServer.Metrics before = model.metrics();
      double modelCpu = EngineCostProbe.cpuSeconds(model.process().toHandle(), true);
      double jvmCpu = EngineCostProbe.cpuSeconds(ProcessHandle.current(), false);
      double devCpu = EngineCostProbe.cpuSeconds(devServer.toHandle(), true);
      Outcome outcome;
      double loadMean;
      double loadMax;
      try (LoadSampler load = new LoadSampler()) {
        outcome = body.run(model);
        load.close();
        loadMean = load.mean();
        loadMax = load.max();
      }
      List<long[]> calls = timed.calls();
      Measured m = new Measured(name, (outcome.to - outcome.from) / 1e9, outcome.history,
          model.metrics().minus(before), EngineCostProbe.idleSeconds(calls, outcome.from, outcome.to),
          (calls.stream().mapToLong(c -> c[0]).min().orElse(outcome.to) - outcome.from) / 1e9,
          EngineCostProbe.meanInFlight(calls, outcome.from, outcome.to), EngineCostProbe.meanCallSeconds(calls),
          calls.size(), EngineCostProbe.cpuSeconds(model.process().toHandle(), true) - modelCpu,
          EngineCostProbe.cpuSeconds(ProcessHandle.current(), false) - jvmCpu,
          EngineCostProbe.cpuSeconds(devServer.toHandle(), true) - devCpu, loadMean, loadMax);
      System.out.println("EngineCostBenchmark: " + m.row(s));
      if (m.history != null) {
        System.out.println("EngineCostBenchmark:   " + m.history.timing());
      }
      return m;
    }
  }

  private static Outcome engineRun(WorkflowClient client, Map<String, String> env, List<String> simulation,
      String id) throws Exception {
    Map<String, String> cli = new HashMap<>(env);
    cli.put("DURABLE_AGENTS_MODEL", null);
    List<String> args = new ArrayList<>(List.of("simulate", "--id", id, "--no-wait"));
    args.addAll(simulation);
    long from = System.nanoTime();
    CliFailuresTest.Run start = CliFailuresTest.run(cli, args.toArray(String[]::new));
    assertEquals(0, start.exitCode(), start.out() + start.err());
    SimulationResult result = client.newUntypedWorkflowStub(id).getResult(60, TimeUnit.MINUTES, SimulationResult.class);
    long to = System.nanoTime();
    EngineCostHistory history = EngineCostHistory.read(client, id);
    assertEquals(result.llmCalls(), history.llmCalls(), "LLM calls in the result and in the histories");
    return new Outcome(from, to, history);
  }

  /**
   * Sends an engine run's requests straight to the model server, one simulation step after the other:
   * every agent of the step at once, each agent's calls in order, at most {@code slots} at the server (a
   * fair first-come queue, as the worker's slots: the order in which the engine's calls reach the server).
   */
  private static Outcome directRun(LlmActivitiesImpl direct, EngineCostHistory recorded, int slots) throws Exception {
    ExecutorService pool = Executors.newCachedThreadPool();
    Semaphore turns = new Semaphore(slots, true);
    try {
      long from = System.nanoTime();
      for (Map<String, List<LlmRequest>> step : recorded.steps.values()) {
        List<Future<?>> agents = new ArrayList<>();
        for (List<LlmRequest> calls : step.values()) {
          agents.add(pool.submit(() -> {
            for (LlmRequest request : calls) {
              turns.acquireUninterruptibly();
              try {
                LlmResponse ignored = direct.chat(request);
              } finally {
                turns.release();
              }
            }
            return null;
          }));
        }
        for (Future<?> agent : agents) {
          agent.get();
        }
      }
      return new Outcome(from, System.nanoTime(), null);
    } finally {
      pool.shutdownNow();
    }
  }

  /** One run, measured. */
  record Measured(String name, double seconds, EngineCostHistory history, LocalModelServer.Metrics server,
      double idleSeconds, double firstRequest, double inFlight, double callSeconds, int calls, double modelCpu, double jvmCpu,
      double devCpu, double loadMean, double loadMax) {
    String row(int s) {
      return String.format("| %d | %s | %.1f | %.2f (%.2f) | %.2f | %.2f | %d | %d (%d) | %d | %.1f | %.1f | %.1f | %.1f / %.1f |",
          s, name, seconds, idleSeconds, firstRequest, inFlight, callSeconds, server.requestsEnded(), server.promptTokens(),
          server.promptTokensCached(), server.generatedTokens(), modelCpu, jvmCpu, devCpu, loadMean, loadMax);
    }

    /**
     * The CPU seconds this engine run's worker and dev server used beyond what {@code direct}'s (this JVM
     * sending the requests, the dev server idling) used at its rate over this run's time.
     */
    double extraCpu(Measured direct) {
      return jvmCpu + devCpu - (direct.jvmCpu + direct.devCpu) * seconds / direct.seconds;
    }

    /** What differs in the work of two runs (requests, prompt and generated tokens); empty when nothing does. */
    String differences(Measured other) {
      List<String> d = new ArrayList<>();
      if (server.requestsEnded() != other.server.requestsEnded() || calls != other.calls) {
        d.add("requests " + server.requestsEnded() + " (" + calls + " timed) against " + other.server.requestsEnded()
            + " (" + other.calls + ")");
      }
      if (server.promptTokens() != other.server.promptTokens()) {
        d.add("prompt tokens " + server.promptTokens() + " against " + other.server.promptTokens());
      }
      if (server.generatedTokens() != other.server.generatedTokens()) {
        d.add("generated tokens " + server.generatedTokens() + " against " + other.server.generatedTokens());
      }
      return String.join(", ", d);
    }
  }

  private static String summaryRow(int s, List<Measured[]> pairs) {
    EngineCostHistory h = pairs.get(0)[0].history;
    double wallE = median(pairs, p -> p[0].seconds);
    double wallD = median(pairs, p -> p[1].seconds);
    return String.format("| %d | %d | %d | %.1f (%s) | %.1f (%s) | %.3f | %.3f | **%s** | %.2f (%s) | %.2f (%s) | %s "
            + "| %.1f%% / %.1f%% | %s | %s | %.1f / %.1f | %.1f / %.1f, %.1f | %.1f / %.1f |",
        s, h.agentSteps, h.llmCalls(), wallE, range(pairs, p -> p[0].seconds, "%.1f"), wallD,
        range(pairs, p -> p[1].seconds, "%.1f"), h.agentSteps / wallE, h.agentSteps / wallD,
        share(pairs, p -> 100 * (p[0].seconds - p[1].seconds) / p[0].seconds),
        median(pairs, p -> p[0].idleSeconds), range(pairs, p -> p[0].idleSeconds, "%.2f"),
        median(pairs, p -> p[1].idleSeconds), range(pairs, p -> p[1].idleSeconds, "%.2f"),
        share(pairs, p -> 100 * (p[0].idleSeconds - p[1].idleSeconds) / p[0].seconds),
        median(pairs, p -> 100 * p[0].inFlight / s), median(pairs, p -> 100 * p[1].inFlight / s),
        share(pairs, p -> 100 * (p[1].inFlight - p[0].inFlight) / p[1].inFlight),
        share(pairs, p -> 100 * (p[0].idleSeconds - p[1].idleSeconds + p[0].extraCpu(p[1])) / p[0].seconds),
        median(pairs, p -> p[0].modelCpu), median(pairs, p -> p[1].modelCpu), median(pairs, p -> p[0].jvmCpu),
        median(pairs, p -> p[1].jvmCpu), median(pairs, p -> p[0].devCpu), median(pairs, p -> p[0].loadMean),
        median(pairs, p -> p[1].loadMean));
  }

  /** The median of the pairs' values, in percent, and their range. */
  private static String share(List<Measured[]> pairs, ToDoubleFunction<Measured[]> percent) {
    return String.format("%.1f%%", median(pairs, percent)) + " (" + range(pairs, percent, "%.1f%%") + ")";
  }

  private static String range(List<Measured[]> pairs, ToDoubleFunction<Measured[]> value, String format) {
    return pairs.stream().map(p -> String.format(format, value.applyAsDouble(p))).collect(Collectors.joining(", "));
  }

  private static double median(List<Measured[]> pairs, ToDoubleFunction<Measured[]> value) {
    double[] sorted = pairs.stream().mapToDouble(value).sorted().toArray();
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
