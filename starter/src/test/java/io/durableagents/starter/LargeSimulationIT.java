package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.durableagents.devserver.LocalTemporal;
import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Large simulations on Temporal's real dev server (the Temporal CLI's {@code server start-dev}), whose
 * limits are a real server's: 4 MB per gRPC message, 2 MB per payload, 2,000 pending children or
 * activities per workflow. 600 agents with {@code --max-concurrent-agents} equal to the agent count
 * (the setting that once made one workflow task a 5.4 MB message the server refused for ever), both
 * shapes, finish with the same run; the world is dense and the agents see far (a 30x30 grid, vision 8),
 * so that their steps' inputs together are over the server's 4 MB (checked: else the run would prove
 * nothing), which the simulation sends in several workflow tasks. (That a run all at once equals the run with the default window is
 * the workflow code's, whatever the server: LargeSimulationTest asserts it, with 1,200 agents in both
 * shapes; a third run of 1,000 agents here cost this class a third of its time.) Needs a {@code temporal} executable
 * ({@value LocalTemporal#CLI_VARIABLE} or the {@code PATH}); skipped, saying so, where there is none.
 */
class LargeSimulationIT {
  private static final int AGENTS = 600;
  /** A real server's most bytes in one gRPC message (a workflow task's completion with its commands). */
  private static final long SERVER_MESSAGE_LIMIT = 4L * 1024 * 1024;
  private final List<Process> started = new ArrayList<>();
  private Path dir;
  /** The real server's limits are the same in a namespace of its own on the shared dev server. */
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("large-simulation");

  @AfterEach
  void stopAll() throws InterruptedException {
    PersistentDevServerIT.stop(started);
  }

  /**
   * {@code durable-agents <args>} in this JVM (what is checked is the run and what the command says, not the
   * command's own process), its output to {@code <name>.log}; checks that it exited 0 within {@code
   * seconds}.
   */
  private void command(String name, long seconds, String... args) throws Exception {
    ExecutorService one = Executors.newSingleThreadExecutor();
    long from = System.nanoTime();
    try {
      Future<CliFailuresTest.Run> running = one.submit(() -> CliFailuresTest.run(temporal.env(), args));
      CliFailuresTest.Run r;
      try {
        r = running.get(seconds, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError(name + " did not finish in " + seconds + " s", e);
      }
      Files.writeString(dir.resolve(name + ".log"), r.out() + r.err());
      assertEquals(0, r.exitCode(), name + ": " + r.out() + r.err());
      System.out.printf("LargeSimulationIT: %s took %.1f s%n", name, (System.nanoTime() - from) / 1e9);
    } finally {
      one.shutdownNow();
    }
  }

  @Test
  void everyAgentAtOnceRunsOnARealServerInBothShapes() throws Exception {
    dir = Files.createDirectories(Path.of("target", "large-simulation-it"));
    started.add(ChildProcesses.start("2g", dir.resolve("worker.log").toFile(), temporal.env(), "worker"));

    int cops = AGENTS / 5;
    String[] world = {"simulate", "--steps", "1", "--seed", "5", "--strategy", "cot",
        "--citizens", Integer.toString(AGENTS - cops), "--cops", Integer.toString(cops),
        "--width", "30", "--height", "30", "--param", "vision=8", "--no-wait"};
    String all = Integer.toString(AGENTS);
    // the two runs at once, started by 'simulate --no-wait' while the worker's JVM starts (the server's
    // limits are per workflow task and per message, the same whether the worker has one run or two);
    // then each followed to its end by 'attach', the first of them live: the commands run in this JVM
    Map<String, String[]> runs = new LinkedHashMap<>();
    runs.put("large-all-groups", PersistentDevServerIT.concat(world, "--id", "large-all-groups",
        "--agents-per-workflow", "100", "--max-concurrent-agents", all));
    runs.put("large-all-steps", PersistentDevServerIT.concat(world, "--id", "large-all-steps",
        "--max-concurrent-agents", all));
    for (Map.Entry<String, String[]> run : runs.entrySet()) {
      command("start-" + run.getKey(), 120, run.getValue());
    }
    for (String id : runs.keySet()) {
      command("attach-" + id, 900, "attach", id, "--progress", "lines");
    }

    WorkflowClient client = temporal.client();
    // both shapes all at once give the same run (the groups' run is the other's reference)
    SimulationResult groups = client.newUntypedWorkflowStub("large-all-groups").getResult(SimulationResult.class);
    SimulationResult steps = client.newUntypedWorkflowStub("large-all-steps").getResult(SimulationResult.class);
    assertEquals(AGENTS, groups.agentSteps(), "large-all-groups");
    assertEquals(AGENTS, steps.agentSteps(), "large-all-steps");
    assertEquals(groups.perStep(), steps.perStep());
    assertEquals(groups.finalCounts(), steps.finalCounts());
    assertEquals(groups.llmCalls(), steps.llmCalls());

    // the agent steps' inputs together would have been one message over the server's limit; they went out
    // in several workflow tasks, each under it
    long inputBytes = 0;
    long largestTask = 0;
    long task = 0;
    int tasksThatStarted = 0;
    for (HistoryEvent e : client.fetchHistory("large-all-steps").getEvents()) {
      if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
        task = 0;
      } else if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
        long bytes = e.getStartChildWorkflowExecutionInitiatedEventAttributes().getSerializedSize();
        tasksThatStarted += task == 0 ? 1 : 0;
        task += bytes;
        inputBytes += bytes;
        largestTask = Math.max(largestTask, task);
      }
    }
    assertTrue(inputBytes > SERVER_MESSAGE_LIMIT, "the starts' bytes together are over 4 MB: " + inputBytes);
    assertTrue(largestTask < SERVER_MESSAGE_LIMIT, "each task's starts are under 4 MB: " + largestTask);
    assertTrue(tasksThatStarted >= 2, "the starts went out in several tasks: " + tasksThatStarted);
    System.out.printf("LargeSimulationIT: %d agents' starts, %.1f MB in %d workflow tasks, the largest %.1f MB%n",
        AGENTS, inputBytes / 1048576.0, tasksThatStarted, largestTask / 1048576.0);
  }
}
