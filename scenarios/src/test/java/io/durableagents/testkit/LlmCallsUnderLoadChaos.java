package io.durableagents.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.worker.CompletedActivities;
import io.durableagents.worker.WorkerMain;
import io.durableagents.worker.WorkerSettings;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.llm.LlmCallOptions;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A chaos measurement, not a test of the build (its name keeps it out of the suite: run it by name, as below): it runs only when {@value #SECONDS_VARIABLE} is set (the
 * seconds of chaos; a few minutes at most, the machine is shared). Workers in child JVMs run a simulation
 * of LLM calls that take {@value #CALL_MILLIS} ms each while busy threads keep the machine's 1-minute
 * load at {@value #TARGET_LOAD} or more, and one worker is killed with {@code kill -9} (and another
 * started) every {@value #KILL_EVERY_SECONDS} s. Then it prints the numbers: the load it ran at, the
 * kills, the calls, those retried because they were in flight at a kill, and those executed twice on a
 * live worker (an attempt that finished on a worker that was not killed within a heartbeat timeout of
 * finishing, before a later attempt completed the call: a call paid twice), which must be zero.
 *
 * <pre>{@code
 * DURABLE_AGENTS_CHAOS_SECONDS=150 DURABLE_AGENTS_TEMPORAL_CLI=.ci/temporal/bin/temporal \
 *   ./mvnw -o -B -pl testkit -am test -Dtest=LlmCallsUnderLoadChaos -Dsurefire.failIfNoSpecifiedTests=false
 * }</pre>
 */
class LlmCallsUnderLoadChaos {
  static final String SECONDS_VARIABLE = "DURABLE_AGENTS_CHAOS_SECONDS";
  static final int CALL_MILLIS = 300;
  static final double TARGET_LOAD = 10;
  static final int KILL_EVERY_SECONDS = 20;
  private static final String ID = "llm-chaos";

  @Test
  void noCallRunsTwiceOnALiveWorkerUnderLoadAndKillNine() throws Exception {
    String seconds = System.getenv(SECONDS_VARIABLE);
    assumeTrue(seconds != null && !seconds.isBlank(), "set " + SECONDS_VARIABLE + " to run the chaos measurement");
    Duration chaos = Duration.ofSeconds(Long.parseLong(seconds.strip()));
    Path dir = Files.createDirectories(Path.of("target", "llm-chaos"));
    Map<String, String> env = Map.of(WorkerSettings.RULES_DELAY_MS, String.valueOf(CALL_MILLIS));
    AtomicBoolean loading = new AtomicBoolean(true);
    List<Thread> load = startLoad(loading);
    List<Double> loads = new ArrayList<>();
    Map<Long, Long> killedAt = new HashMap<>();
    try (KillNineHarness harness = KillNineHarness.start(dir)) {
      List<KillNineHarness.ChildWorker> workers = new ArrayList<>();
      workers.add(harness.startWorker(WorkerMain.class, env));
      workers.add(harness.startWorker(WorkerMain.class, env));
      WorkflowClient client = harness.client();
      SimulationWorkflow sim = DurableAgentsTestEnvironment.simulation(client, ID);
      AgentOptions cot = AgentOptions.newBuilder().setStrategy(Strategy.COT).build();
      // more steps than the chaos lasts: the run is stopped when it ends
      SimulationInput input = SimulationInput.of("epstein", 10_000, 42)
          .withParameters(EpsteinParameters.DEFAULTS.withAgents(16, 4)).withAgentOptions(cot);
      WorkflowClient.start(sim::run, input);
      harness.awaitCompletedActivities(20, Duration.ofSeconds(120));

      long end = System.nanoTime() + chaos.toNanos();
      long nextKill = System.nanoTime() + TimeUnit.SECONDS.toNanos(KILL_EVERY_SECONDS);
      while (System.nanoTime() < end) {
        loads.add(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        if (System.nanoTime() >= nextKill) {
          KillNineHarness.ChildWorker victim = workers.remove(0);
          victim.kill();
          killedAt.put(victim.pid(), System.currentTimeMillis());
          workers.add(harness.startWorker(WorkerMain.class, env));
          nextKill = System.nanoTime() + TimeUnit.SECONDS.toNanos(KILL_EVERY_SECONDS);
        }
        Thread.sleep(1000);
      }
      client.newWorkflowStub(SimulationWorkflow.class, ID).stop();
      SimulationResult result = client.newUntypedWorkflowStub(ID).getResult(300, TimeUnit.SECONDS,
          SimulationResult.class);
      loading.set(false);

      Map<String, Integer> completed = CompletedActivities.byRun(client, ID);
      int liveTwice = 0;
      int retried = 0;
      Map<String, List<String[]>> doneByKey = new HashMap<>();
      for (String line : Files.readAllLines(harness.journal())) {
        String[] f = line.split("\t");
        if (f.length >= 8 && f[1].equals("done")) {
          doneByKey.computeIfAbsent(f[2] + "|" + f[7] + "|" + f[3], k -> new ArrayList<>()).add(f);
        }
      }
      long grace = LlmCallOptions.HEARTBEAT_TIMEOUT.toMillis();
      List<String> examples = new ArrayList<>();
      for (Map.Entry<String, Integer> c : completed.entrySet()) {
        if (c.getValue() > 1) {
          retried++;
        }
        for (String[] done : doneByKey.getOrDefault(c.getKey(), List.of())) {
          int attempt = Integer.parseInt(done[4]);
          long pid = Long.parseLong(done[6]);
          long at = Long.parseLong(done[0]);
          Long killed = killedAt.get(pid);
          boolean liveWorker = killed == null || at < killed - grace;
          if (attempt < c.getValue() && liveWorker) {
            liveTwice++;
            if (examples.size() < 5) {
              examples.add(c.getKey() + " attempt " + attempt + " done on live worker " + pid + ", completed in attempt "
                  + c.getValue());
            }
          }
        }
      }
      ExecutionJournalCheck.Report report = harness.assertNoCompletedActivityRanAgain(ID);
      double min = loads.stream().mapToDouble(Double::doubleValue).min().orElse(0);
      double mean = loads.stream().mapToDouble(Double::doubleValue).average().orElse(0);
      System.out.printf("LLM calls under load and kill -9: %d s of chaos on %s, %d cores%n", chaos.toSeconds(),
          harness.realServer() ? "the dev server" : "the embedded Temporal", Runtime.getRuntime().availableProcessors());
      System.out.printf("  1-minute load during the chaos: min %.1f, mean %.1f (%d busy threads added)%n", min, mean,
          load.size());
      System.out.printf("  kills (kill -9): %d; worker processes that ran activities: %d%n", killedAt.size(),
          report.workerProcesses());
      System.out.printf("  simulation steps: %d, agent steps %d, LLM calls %d%n", result.steps(), result.agentSteps(),
          result.llmCalls());
      System.out.printf("  activities completed: %d, retried after a kill (in flight): %d%n", completed.size(), retried);
      System.out.printf("  calls executed twice on a live worker: %d%s%n", liveTwice,
          examples.isEmpty() ? "" : " " + examples);
      assertEquals(0, liveTwice, "calls executed twice on a live worker: " + examples);
    } finally {
      loading.set(false);
      for (Thread t : load) {
        t.join(5_000);
      }
    }
  }

  /**
   * Busy threads that keep the 1-minute load at {@link #TARGET_LOAD} or more: as many as the load
   * lacks now, at least the cores' number, at the lowest priority.
   */
  private static List<Thread> startLoad(AtomicBoolean loading) {
    double now = Math.max(0, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    int threads = (int) Math.max(Runtime.getRuntime().availableProcessors(), Math.ceil(TARGET_LOAD + 2 - now));
    List<Thread> started = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Thread t = new Thread(() -> {
        long x = 0;
        while (loading.get()) {
          x += System.nanoTime() % 7;
        }
        if (x == 42) {
          System.out.print("");
        }
      }, "chaos-load-" + i);
      t.setDaemon(true);
      t.setPriority(Thread.MIN_PRIORITY);
      t.start();
      started.add(t);
    }
    return started;
  }
}
