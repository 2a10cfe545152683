package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.Timestamp;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.durableagents.activities.llm.ChatModelProvider;
import io.durableagents.activities.llm.LlmActivitiesImpl;
import io.durableagents.activities.llm.LlmSettings;
import io.durableagents.testkit.LocalModelServer;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.converter.DataConverter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The cost of the engine against a real model: a small Epstein simulation (CoT, 2 LLM calls per agent
 * step) on SmolLM2-135M served by llama.cpp ({@link LocalModelServer}, one thread, a fresh server per
 * slot count) through Temporal's real dev server and one worker, side by side with the same requests sent
 * straight to the same model server, at the same concurrency.
 *
 * <p>For each slot count s: the engine runs the simulation ({@code simulate ... --model openai:smollm2}
 * through the command line, the worker in this JVM with {@link #workerEnvironment}); the requests of that
 * run are then read back from its history (every {@code LlmChat} activity's input, grouped by simulation
 * step and agent from the child workflow ids {@code <sim>/agent-<id>/step-<n>}) and "direct" sends them
 * again with the same LangChain4j code the activity uses ({@link LlmActivitiesImpl#chat}, called outside
 * any activity: no Temporal), at most s at once, each agent's calls in order, one simulation step after
 * the other (the engine also waits for every agent of a step). Order per s: a warm-up run of the
 * engine (the server's first requests, its prompt cache empty; its requests are the ones direct sends),
 * then engine, direct queued, direct pool, direct pool, direct queued, engine ({@code
 * -DengineCost.repeat=N}: N times; see {@link #directRun} for the two kinds of direct); the table has the
 * medians. Tokens come from the server's {@code /metrics} deltas. Both sides call the model through one
 * greedy client ({@link #greedy}), so they generate the same tokens.
 *
 * <p>Not part of the build: run it by name, {@code ./mvnw -o -pl starter -am test -Dtest=EngineCostBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}, with {@code -DengineCost.slots=1,2,4 -DengineCost.citizens=6
 * -DengineCost.cops=2 -DengineCost.steps=2 -DengineCost.repeat=1} (the defaults) to change the size. It needs the model
 * server ({@value LocalModelServer#PYTHON_VARIABLE} or {@code .ci/model}) and the Temporal CLI.
 */
class EngineCostBenchmark {
  /** The most tokens a call generates: the server's cap and the worker's setting. */
  static final int MAX_OUTPUT_TOKENS = 48;
  private static final Pattern AGENT_STEP = Pattern.compile("/agent-(.+)/step-(\\d+)$");

  /**
   * The worker's environment, in one place: the dev server, the model server, the per-model cap of calls
   * at once ({@code DURABLE_AGENTS_LLM_SLOTS}) and the maximum output length.
   */
  static Map<String, String> workerEnvironment(String temporalAddress, LocalModelServer model) {
    Map<String, String> env = new HashMap<>();
    env.put("TEMPORAL_ADDRESS", temporalAddress);
    env.put("OPENAI_BASE_URL", model.baseUrl());
    env.put("DURABLE_AGENTS_LLM_SLOTS", model.modelReference() + "=" + model.slots());
    env.put("DURABLE_AGENTS_LLM_MAX_OUTPUT_TOKENS", Integer.toString(MAX_OUTPUT_TOKENS));
    return env;
  }

  /**
   * The model both sides call, registered under {@code openai:<alias>} (a registered name wins over the
   * provider reference of the same spelling): OpenAI's client for the model server, as the worker builds
   * it for {@code openai:<alias>}, with temperature 0 (greedy sampling: the same prompt gives the same
   * tokens, so both sides generate the same answers). The simulation has no temperature option, and the
   * server's default samples at random.
   */
  static ChatModel greedy(LocalModelServer model) {
    return OpenAiChatModel.builder().baseUrl(model.baseUrl()).modelName(model.alias()).temperature(0.0)
        .timeout(Duration.ofSeconds(120)).maxRetries(0).build();
  }

  @Test
  void engineAgainstTheModelServerDriven() throws Exception {
    Path python = LocalModelServer.pythonForTests();
    assumeTrue(python != null, LocalModelServer.MISSING);
    int[] slotCounts = Arrays.stream(System.getProperty("engineCost.slots", "1,2,4").split(","))
        .mapToInt(v -> Integer.parseInt(v.trim())).toArray();
    String citizens = System.getProperty("engineCost.citizens", "6");
    String cops = System.getProperty("engineCost.cops", "2");
    String steps = System.getProperty("engineCost.steps", "2");
    int repeat = Integer.parseInt(System.getProperty("engineCost.repeat", "1"));
    Path dir = Files.createDirectories(Path.of("target", "engine-cost-benchmark"));
    int port = RealDevServer.freePort();
    Process server = RealDevServer.startFresh(dir, port);
    String address = "127.0.0.1:" + port;
    List<String> rows = new ArrayList<>();
    List<String> diagnostics = new ArrayList<>();
    List<String> tokenRows = new ArrayList<>();
    try {
      for (int s : slotCounts) {
        try (LocalModelServer model = LocalModelServer.newBuilder().python(python).slots(s).threads(1)
            .toolTemplate().maxOutputTokens(MAX_OUTPUT_TOKENS).seed(42).directory(dir.resolve("model-" + s))
            .start()) {
          Map<String, String> env = workerEnvironment(address, model);
          TemporalConnection connection = TemporalConnection.fromEnvironment(env);
          WorkflowServiceStubs service = TemporalCheck.connect(connection);
          ChatModel greedy = greedy(model);
          DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().configureFromEnvironment(env)
              .configureFromClasspath().registerModel(model.modelReference(), greedy).build();
          WorkerFactory worker = WorkerFactory.newInstance(connection.client(service, "engine-cost-worker-" + s, plugin));
          worker.start();
          WorkflowClient client = connection.client(service);
          LlmActivitiesImpl llm = new LlmActivitiesImpl(
              ChatModelProvider.newBuilder().settings(LlmSettings.fromEnvironment(env))
                  .register(model.modelReference(), greedy).build(), plugin.tools());
          List<String> simulation = List.of("--scenario", "epstein", "--citizens", citizens, "--cops", cops,
              "--steps", steps, "--width", "8", "--height", "8", "--strategy", "cot", "--model",
              model.modelReference(), "--max-concurrent-agents", "1000", "--seed", "42");
          try {
            List<Measured> engine = new ArrayList<>();
            Map<String, List<Measured>> direct = new LinkedHashMap<>();
            direct.put("queued", new ArrayList<>());
            direct.put("pool", new ArrayList<>());
            Recorded recorded = null;
            List<String> order = new ArrayList<>(List.of("warm-up"));
            for (int i = 0; i < repeat; i++) {
              order.addAll(List.of("engine", "queued", "pool", "pool", "queued", "engine"));
            }
            for (String kind : order) {
              Measured m;
              if (!direct.containsKey(kind)) {
                String id = "engine-cost-s" + s + "-" + kind + "-" + engine.size();
                m = engineRun(client, model, env, simulation, id);
                if (recorded == null) {
                  // the warm-up: the model's first requests and an empty prompt cache; its requests are
                  // the ones the direct runs send
                  recorded = m.recorded;
                } else {
                  engine.add(m);
                }
              } else {
                m = directRun(llm, model, recorded, s, kind.equals("queued"));
                direct.get(kind).add(m);
              }
              System.out.printf("EngineCostBenchmark: slots %d %-7s %6.1f s, %d agent steps, %d LLM calls, "
                  + "server: %d requests, %d prompt tokens (%d cached), %d generated%n", s, kind, m.seconds,
                  m.agentSteps, m.llmCalls, m.server.requestsEnded(), m.server.promptTokens(),
                  m.server.promptTokensCached(), m.server.generatedTokens());
              if (m.recorded != null) {
                System.out.println("EngineCostBenchmark:   " + m.recorded.timing());
              }
            }
            double wallEngine = median(engine.stream().map(m -> m.seconds).toList());
            double wallQueued = median(direct.get("queued").stream().map(m -> m.seconds).toList());
            double wallPool = median(direct.get("pool").stream().map(m -> m.seconds).toList());
            int agentSteps = recorded.agentSteps;
            rows.add(String.format("| %d | %d | %d | %.1f (%s) | %.1f (%s) | %.1f (%s) | %.2f | %.2f | %.2f | **%.1f%%** | %.1f%% |",
                s, agentSteps, recorded.llmCalls(), wallEngine, list(engine), wallQueued, list(direct.get("queued")),
                wallPool, list(direct.get("pool")), agentSteps / wallEngine, agentSteps / wallQueued,
                agentSteps / wallPool, 100 * (wallEngine - wallQueued) / wallEngine,
                100 * (wallEngine - wallPool) / wallEngine));
            tokenRows.add(String.format("| %d | %s | %s | %s |", s, tokens(engine), tokens(direct.get("queued")),
                tokens(direct.get("pool"))));
            for (Measured m : engine) {
              diagnostics.add("slots " + s + ": " + m.recorded.timing());
            }
          } finally {
            worker.shutdownNow();
            worker.awaitTermination(20, TimeUnit.SECONDS);
            service.shutdownNow();
          }
        }
      }
    } finally {
      RealDevServer.stop(server);
    }
    System.out.println("EngineCostBenchmark: Epstein, " + citizens + " citizens + " + cops + " cops, " + steps
        + " steps, CoT, SmolLM2-135M (llama.cpp, 1 thread, greedy), at most " + MAX_OUTPUT_TOKENS + " output tokens");
    System.out.println("| slots | agent steps | LLM calls | wall engine (s) | wall direct, queued (s) "
        + "| wall direct, pool (s) | agent steps/s engine | direct, queued | direct, pool "
        + "| engine share (vs queued) | engine share (vs pool) |");
    System.out.println("| ---: | ---: | ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |");
    rows.forEach(System.out::println);
    System.out.println();
    System.out.println("Tokens in / out per run as the answers reported them (the server's /metrics: prompt / generated, "
        + "prompt tokens cached):");
    System.out.println("| slots | engine | direct, queued | direct, pool |");
    System.out.println("| ---: | --- | --- | --- |");
    tokenRows.forEach(System.out::println);
    System.out.println("Where the engine's time went (per engine run):");
    diagnostics.forEach(d -> System.out.println("- " + d));
  }

  private static Measured engineRun(WorkflowClient client, LocalModelServer model, Map<String, String> env,
      List<String> simulation, String id) throws Exception {
    Map<String, String> cli = new HashMap<>(env);
    cli.put("DURABLE_AGENTS_MODEL", null);
    List<String> args = new ArrayList<>(List.of("simulate", "--id", id, "--no-wait"));
    args.addAll(simulation);
    LocalModelServer.Metrics before = model.metrics();
    long started = System.nanoTime();
    CliFailuresTest.Run start = CliFailuresTest.run(cli, args.toArray(String[]::new));
    assertEquals(0, start.exitCode(), start.out() + start.err());
    SimulationResult result = client.newUntypedWorkflowStub(id).getResult(60, TimeUnit.MINUTES, SimulationResult.class);
    double seconds = (System.nanoTime() - started) / 1e9;
    LocalModelServer.Metrics used = model.metrics().minus(before);
    Recorded recorded = Recorded.read(client, id);
    assertEquals(result.llmCalls(), recorded.llmCalls(), "LLM calls in the result and in the histories");
    return new Measured(seconds, recorded.agentSteps, recorded.llmCalls(), used,
        recorded.inputTokens, recorded.outputTokens, recorded);
  }

  /**
   * Sends a recorded run's requests straight to the model server, one simulation step after the other,
   * each agent's calls in order, at most {@code slots} requests at once: {@code queued} false, a pool of
   * {@code slots} threads takes the agents one after the other (agent A's calls, then B's, ...); true,
   * every agent of the step starts at once and its calls wait their turn in a fair queue (first come,
   * first served), the order in which the engine's calls reach the server's own queue.
   */
  private static Measured directRun(LlmActivitiesImpl direct, LocalModelServer model, Recorded recorded, int slots,
      boolean queued) throws Exception {
    ExecutorService pool = queued ? Executors.newCachedThreadPool() : Executors.newFixedThreadPool(slots);
    Semaphore turns = new Semaphore(slots, true);
    Function<LlmRequest, LlmResponse> send = request -> {
      if (!queued) {
        return direct.chat(request);
      }
      turns.acquireUninterruptibly();
      try {
        return direct.chat(request);
      } finally {
        turns.release();
      }
    };
    try {
      LocalModelServer.Metrics before = model.metrics();
      long in = 0;
      long out = 0;
      long started = System.nanoTime();
      for (Map<String, List<LlmRequest>> step : recorded.steps.values()) {
        List<Future<List<LlmResponse>>> agents = new ArrayList<>();
        for (List<LlmRequest> calls : step.values()) {
          agents.add(pool.submit(() -> calls.stream().map(send).toList()));
        }
        for (Future<List<LlmResponse>> agent : agents) {
          for (LlmResponse r : agent.get()) {
            in += r.usage().input();
            out += r.usage().output();
          }
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      return new Measured(seconds, recorded.agentSteps, recorded.llmCalls(), model.metrics().minus(before), in, out,
          null);
    } finally {
      pool.shutdownNow();
    }
  }

  /** A run's LLM requests by simulation step and agent, and where its time went, from its histories. */
  static final class Recorded {
    final TreeMap<Integer, Map<String, List<LlmRequest>>> steps = new TreeMap<>();
    long inputTokens;
    long outputTokens;
    int agentSteps;
    int retries;
    int otherActivities;
    /** Sum over calls of scheduled to started (waiting for a worker's poll). */
    long queuedMillis;
    /** Sum over calls of started to completed, less the model's own latency (the worker's work around it). */
    long aroundMillis;
    /** Sum over calls of the model's latency as the worker measured it. */
    long modelMillis;
    /** Time with no agent step running: from the run's start to the first, between steps, after the last. */
    long barrierMillis;
    long runMillis;
    final List<Long> perCallOverhead = new ArrayList<>();

    static Recorded read(WorkflowClient client, String simulationId) {
      DataConverter data = client.getOptions().getDataConverter();
      Recorded r = new Recorded();
      List<HistoryEvent> simulation = client.fetchHistory(simulationId).getEvents();
      assertTrue(simulation.get(0).getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId().isEmpty(),
          "the benchmark's run must not continue as new (fewer steps)");
      Map<Long, Integer> stepOfInitiated = new HashMap<>();
      TreeMap<Integer, long[]> stepSpan = new TreeMap<>(); // first start, last end (ms)
      for (HistoryEvent e : simulation) {
        if (e.hasStartChildWorkflowExecutionInitiatedEventAttributes()) {
          String child = e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId();
          Matcher m = AGENT_STEP.matcher(child);
          if (!m.find()) {
            continue; // not an agent step
          }
          int step = Integer.parseInt(m.group(2));
          stepOfInitiated.put(e.getEventId(), step);
          stepSpan.computeIfAbsent(step, k -> new long[] {Long.MAX_VALUE, 0})[0] =
              Math.min(stepSpan.get(step)[0], millis(e.getEventTime()));
          r.agentSteps++;
          r.readAgentStep(client, data, child, step, m.group(1));
        } else if (e.hasChildWorkflowExecutionCompletedEventAttributes()) {
          Integer step = stepOfInitiated.get(e.getChildWorkflowExecutionCompletedEventAttributes().getInitiatedEventId());
          if (step == null) {
            continue;
          }
          stepSpan.get(step)[1] = Math.max(stepSpan.get(step)[1], millis(e.getEventTime()));
        }
      }
      long runStart = millis(simulation.get(0).getEventTime());
      long runEnd = millis(simulation.get(simulation.size() - 1).getEventTime());
      r.runMillis = runEnd - runStart;
      long previousEnd = runStart;
      for (long[] span : stepSpan.values()) {
        r.barrierMillis += Math.max(0, span[0] - previousEnd);
        previousEnd = span[1];
      }
      r.barrierMillis += Math.max(0, runEnd - previousEnd);
      return r;
    }

    private void readAgentStep(WorkflowClient client, DataConverter data, String workflowId, int step, String agent) {
      List<LlmRequest> calls = steps.computeIfAbsent(step, k -> new TreeMap<>()).computeIfAbsent(agent, k -> new ArrayList<>());
      Map<Long, LlmRequest> scheduled = new LinkedHashMap<>();
      Map<Long, Long> scheduledAt = new HashMap<>();
      Map<Long, Long> startedAt = new HashMap<>();
      for (HistoryEvent e : client.fetchHistory(workflowId).getEvents()) {
        if (e.hasActivityTaskScheduledEventAttributes()) {
          var a = e.getActivityTaskScheduledEventAttributes();
          if (a.getActivityType().getName().equals(LlmActivities.CHAT_ACTIVITY_TYPE)) {
            LlmRequest request = data.fromPayloads(0, Optional.of(a.getInput()), LlmRequest.class, LlmRequest.class);
            scheduled.put(e.getEventId(), request);
            scheduledAt.put(e.getEventId(), millis(e.getEventTime()));
          } else {
            otherActivities++;
          }
        } else if (e.hasActivityTaskStartedEventAttributes()) {
          var a = e.getActivityTaskStartedEventAttributes();
          startedAt.put(a.getScheduledEventId(), millis(e.getEventTime()));
          if (a.getAttempt() > 1) {
            retries++;
          }
        } else if (e.hasActivityTaskCompletedEventAttributes()) {
          var a = e.getActivityTaskCompletedEventAttributes();
          LlmRequest request = scheduled.get(a.getScheduledEventId());
          if (request == null) {
            continue;
          }
          LlmResponse response = data.fromPayloads(0, Optional.of(a.getResult()), LlmResponse.class, LlmResponse.class);
          calls.add(request);
          inputTokens += response.usage().input();
          outputTokens += response.usage().output();
          long done = millis(e.getEventTime());
          long queued = startedAt.get(a.getScheduledEventId()) - scheduledAt.get(a.getScheduledEventId());
          long around = done - startedAt.get(a.getScheduledEventId()) - response.latencyMillis();
          queuedMillis += queued;
          aroundMillis += around;
          modelMillis += response.latencyMillis();
          perCallOverhead.add(queued + around);
        }
      }
    }

    int llmCalls() {
      return steps.values().stream().flatMap(s -> s.values().stream()).mapToInt(List::size).sum();
    }

    String timing() {
      List<Long> sorted = perCallOverhead.stream().sorted().toList();
      long median = sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
      long max = sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1);
      return String.format("run %.1f s; per LLM call: model %.0f ms, scheduled->started %.0f ms, started->completed "
              + "less the model %.0f ms (mean), overhead median %d ms, max %d ms; no agent step running: %.1f s "
              + "(start, between steps, end); other activities %d, retried attempts %d", runMillis / 1e3,
          (double) modelMillis / llmCalls(), (double) queuedMillis / llmCalls(), (double) aroundMillis / llmCalls(),
          median, max, barrierMillis / 1e3, otherActivities, retries);
    }

    private static long millis(Timestamp t) {
      return t.getSeconds() * 1000 + t.getNanos() / 1_000_000;
    }
  }

  record Measured(double seconds, int agentSteps, int llmCalls, LocalModelServer.Metrics server, long inputTokens,
      long outputTokens, Recorded recorded) {}

  private static String tokens(List<Measured> runs) {
    return runs.stream().map(m -> m.inputTokens + " / " + m.outputTokens + " (" + m.server.promptTokens() + " / "
        + m.server.generatedTokens() + ", " + m.server.promptTokensCached() + " cached)").collect(Collectors.joining("; "));
  }

  private static String list(List<Measured> runs) {
    return runs.stream().map(m -> String.format("%.1f", m.seconds)).collect(Collectors.joining(", "));
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
