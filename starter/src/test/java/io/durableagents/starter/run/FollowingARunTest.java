package io.durableagents.starter.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.durableagents.starter.OutputOptions;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.simulation.PlanCounts;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.StepCounts;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactory;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code simulate} and {@code attach} print while they follow a run, on the in-memory Temporal
 * (Temporal's Java test server, which has no {@code DescribeTaskQueue}): that no worker takes the run,
 * and once one does, that it goes on; and one column order for the per-step variables everywhere (the
 * step lines, the CSV, the final counts), whatever order each step's map has.
 */
class FollowingARunTest {
  /** A "Simulation" that returns a recorded result at once, its steps' maps in different orders. */
  @WorkflowInterface
  public interface RecordedSimulation {
    @WorkflowMethod(name = "Simulation")
    SimulationResult run(SimulationInput input);
  }

  public static class RecordedSimulationImpl implements RecordedSimulation {
    @Override
    public SimulationResult run(SimulationInput input) {
      return RESULT;
    }
  }

  private static Map<String, Number> counts(Object... pairs) {
    Map<String, Number> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], (Number) pairs[i + 1]);
    }
    return m;
  }

  /** Step 1 in the order Epstein declares, step 2 as a worker JVM with a hash map iterated it. */
  static final SimulationResult RESULT = new SimulationResult("sim-order", "epstein", 42, 2,
      List.of(new StepCounts(1, counts("active", 5, "quiet", 150, "jailed", 4), 10L, 1000L),
          new StepCounts(2, counts("jailed", 27, "quiet", 132, "active", 0), 20L, 2000L)),
      counts("quiet", 132, "jailed", 27, "active", 0), 318, 20, 0, new TokenUsage(1500, 500),
      new PlanCounts(0, 0, 0, 0), false, 1);

  @TempDir
  Path dir;

  private TestWorkflowEnvironment env;
  private WorkflowClient client;
  private WorkerFactory lateWorkers;

  @BeforeEach
  void start() {
    env = TestWorkflowEnvironment.newInstance();
    env.newWorker("elsewhere"); // no worker polls the run's own task queue
    env.start();
    client = env.getWorkflowClient();
  }

  @AfterEach
  void stop() {
    if (lateWorkers != null) {
      lateWorkers.shutdownNow();
    }
    env.close();
  }

  private String startRun(String id) {
    WorkflowClient.start(client.newWorkflowStub(RecordedSimulation.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())::run,
        SimulationInput.of("epstein", 2, 42));
    return id;
  }

  private static void await(String what, long seconds, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out waiting for " + what);
      }
      Thread.sleep(100);
    }
  }

  @Test
  void aRunNoWorkerTakesIsSaidWithinSecondsAndAWorkerStartedLaterTakesItOn() throws Exception {
    String id = startRun("sim-no-worker");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    SimulationRunner runner = new SimulationRunner(client, out);
    AtomicReference<Object> ended = new AtomicReference<>();
    Thread follower = new Thread(() -> {
      try {
        ended.set(runner.follow(id));
      } catch (InterruptedException | RuntimeException e) {
        ended.set(e);
      }
    });
    follower.setDaemon(true);
    long started = System.nanoTime();
    follower.start();
    String noWorker = "No worker has taken the workflow task of sim-no-worker for ";
    await("the line that no worker takes the run", 30,
        () -> bytes.toString(StandardCharsets.UTF_8).contains(noWorker));
    long seconds = (System.nanoTime() - started) / 1_000_000_000L;
    assertTrue(seconds <= 15, "said after " + seconds + " s");
    String said = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(said.contains("'durable-agents worker' in another terminal, with the same TEMPORAL_ADDRESS "
        + "and TEMPORAL_NAMESPACE"), said);
    assertTrue(said.contains("sim-no-worker waits: a worker started later takes it on, and a line here says so"), said);
    assertTrue(follower.isAlive(), "follow gave up: " + ended.get());

    lateWorkers = WorkerFactory.newInstance(client);
    lateWorkers.newWorker(TaskQueues.AGENTS).registerWorkflowImplementationTypes(RecordedSimulationImpl.class);
    lateWorkers.start();
    follower.join(60_000);
    assertTrue(ended.get() instanceof SimulationResult, "follow ended with " + ended.get());
    String all = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(1, all.split(java.util.regex.Pattern.quote(noWorker), -1).length - 1, "said once:\n" + all);
    assertTrue(all.indexOf("A worker took the run's task now: sim-no-worker goes on.") > all.indexOf(noWorker), all);
  }

  @Test
  void everyViewHasTheColumnsInTheScenariosOrder() throws Exception {
    lateWorkers = WorkerFactory.newInstance(client);
    lateWorkers.newWorker(TaskQueues.AGENTS).registerWorkflowImplementationTypes(RecordedSimulationImpl.class);
    lateWorkers.start();
    String id = startRun("sim-order");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    SimulationRunner runner = new SimulationRunner(client, out);
    SimulationResult r = runner.follow(id);
    runner.printSummary(r);
    OutputOptions files = new OutputOptions();
    files.csv = dir.resolve("steps.csv");
    runner.writeFiles(r, files);
    List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();

    List<String> header = List.of(lines.get(0).trim().split("\\s+"));
    assertEquals(List.of("step", "active", "quiet", "jailed", "llm", "calls", "tokens"), header, lines.get(0));
    assertEquals(List.of("1/2", "5", "150", "4", "10", "1000"), List.of(lines.get(1).trim().split("\\s+")));
    assertEquals(List.of("2/2", "0", "132", "27", "20", "2000"), List.of(lines.get(2).trim().split("\\s+")));
    assertTrue(lines.contains("Final counts: {active=0, quiet=132, jailed=27}"), String.join("\n", lines));
    List<String> csv = Files.readAllLines(files.csv);
    assertEquals("step,active,quiet,jailed,llm_calls,tokens", csv.get(0));
    assertEquals("2,0,132,27,20,2000", csv.get(2));
  }
}
