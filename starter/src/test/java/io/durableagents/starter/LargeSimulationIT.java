package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.durableagents.devserver.LocalTemporal;
import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.client.WorkflowClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Large simulations on Temporal's real dev server (the Temporal CLI's {@code server start-dev}), whose
 * limits are a real server's: 4 MB per gRPC message, 2 MB per payload, 2,000 pending children or
 * activities per workflow. 1,000 agents with {@code --max-concurrent-agents} equal to the agent count
 * (the setting that once made one workflow task a 5.4 MB message the server refused for ever), both
 * shapes, finish with the result of the default window. Needs a {@code temporal} executable
 * ({@value LocalTemporal#CLI_VARIABLE} or the {@code PATH}); skipped, saying so, where there is none.
 */
class LargeSimulationIT {
  private static final int AGENTS = 1000;
  private final List<Process> started = new ArrayList<>();
  private Path dir;
  /** The real server's limits are the same in a namespace of its own on the shared dev server. */
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("large-simulation");

  @AfterEach
  void stopAll() throws InterruptedException {
    PersistentDevServerIT.stop(started);
  }

  /** Starts {@code durable-agents <args>} in a process of its own, its output to {@code <name>.log}. */
  private Process start(String name, String... args) {
    Process p = ChildProcesses.start("512m", dir.resolve(name + ".log").toFile(), temporal.env(), args);
    started.add(p);
    return p;
  }

  /** Waits for {@link #start}'s command to finish, and checks it exited 0. */
  private void await(String name, Process p) throws Exception {
    Path out = dir.resolve(name + ".log");
    assertTrue(p.waitFor(900, TimeUnit.SECONDS), name + " did not finish; see " + out);
    assertEquals(0, p.exitValue(), name + ": " + Files.readString(out));
  }

  @Test
  void everyAgentAtOnceRunsOnARealServerInBothShapes() throws Exception {
    dir = Files.createDirectories(Path.of("target", "large-simulation-it"));
    started.add(ChildProcesses.start("2g", dir.resolve("worker.log").toFile(), temporal.env(), "worker"));

    int cops = AGENTS / 5;
    String[] world = {"simulate", "--steps", "1", "--seed", "5", "--strategy", "cot", "--progress", "lines",
        "--citizens", Integer.toString(AGENTS - cops), "--cops", Integer.toString(cops),
        "--width", "60", "--height", "60"};
    String all = Integer.toString(AGENTS);
    // the three runs at once, each followed by its own command line: the server's limits are per workflow
    // task and per message, the same whether the worker has one run or three
    Map<String, Process> runs = new LinkedHashMap<>();
    runs.put("default", start("default",
        PersistentDevServerIT.concat(world, "--id", "large-default", "--agents-per-workflow", "100")));
    runs.put("all-groups", start("all-groups", PersistentDevServerIT.concat(world, "--id", "large-all-groups",
        "--agents-per-workflow", "100", "--max-concurrent-agents", all)));
    runs.put("all-steps", start("all-steps",
        PersistentDevServerIT.concat(world, "--id", "large-all-steps", "--max-concurrent-agents", all)));
    for (Map.Entry<String, Process> run : runs.entrySet()) {
      await(run.getKey(), run.getValue());
    }

    WorkflowClient client = temporal.client();
    SimulationResult reference = client.newUntypedWorkflowStub("large-default").getResult(SimulationResult.class);
    for (String id : List.of("large-all-groups", "large-all-steps")) {
      SimulationResult r = client.newUntypedWorkflowStub(id).getResult(SimulationResult.class);
      assertEquals(reference.perStep(), r.perStep(), id);
      assertEquals(reference.finalCounts(), r.finalCounts(), id);
      assertEquals(reference.llmCalls(), r.llmCalls(), id);
      assertEquals(AGENTS, r.agentSteps(), id);
    }
  }
}
