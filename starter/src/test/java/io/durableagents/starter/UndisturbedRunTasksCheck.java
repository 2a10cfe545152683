package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.benchmark.WorkflowTaskAttempts;
import io.durableagents.starter.local.ChildProcesses;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An undisturbed simulation on Temporal's real dev server leaves no workflow task that timed out or
 * failed in any of its histories (its runs and every agent step). A step that starts every agent's step
 * at once used to have the server fail the simulation's running task ({@code FORCE_CLOSE_COMMAND} by
 * {@code history-service}: more than 100 events arrived while it ran), and the worker then replayed the
 * run's history, past the task's timeout on a loaded machine.
 *
 * <p>Run by name, not part of the suite: it still fails (issue 37 item 5 is not done: the simulation's
 * task waits past the sticky queue's 5 s on a busy worker, see BENCHMARKS.md). {@code ./mvnw -B -o -pl
 * starter -am test -Dtest=UndisturbedRunTasksCheck -Dsurefire.failIfNoSpecifiedTests=false}.
 *
 * <p>The same check at the size of issue 37 (200 agents x 12 steps, strategies mixed, continue-as-new
 * every 4), too long for the suite, is a command in BENCHMARKS.md ("Workflow task time-outs and
 * force-closes in undisturbed runs").
 */
class UndisturbedRunTasksCheck {
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void stopAll() throws InterruptedException {
    PersistentDevServerIT.stop(started);
  }

  @Test
  void noWorkflowTaskOfAnUndisturbedRunTimesOutOrFails() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "undisturbed-run-tasks"));
    int port = RealDevServer.freePort();
    started.add(RealDevServer.startFresh(dir, port));
    String address = "127.0.0.1:" + port;
    Map<String, String> env = Map.of("TEMPORAL_ADDRESS", address);
    started.add(ChildProcesses.start("512m", dir.resolve("worker.log").toFile(), env, "worker"));
    String id = "undisturbed-tasks";
    Path out = dir.resolve("simulate.log");
    Files.deleteIfExists(out);
    Process simulate = ChildProcesses.start("256m", out.toFile(), env, "simulate", "--id", id,
        "--steps", "3", "--citizens", "120", "--cops", "30", "--width", "20", "--height", "20",
        "--strategy", "citizen=react,cop=rewoo", "--max-concurrent-agents", "150",
        "--continue-as-new-every", "2", "--progress", "lines");
    started.add(simulate);
    assertTrue(simulate.waitFor(240, TimeUnit.SECONDS), "simulate did not finish: " + Files.readString(out));
    assertEquals(0, simulate.exitValue(), Files.readString(out));

    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget(address).build());
    try {
      List<WorkflowTaskAttempts.Attempt> attempts =
          WorkflowTaskAttempts.of(WorkflowClient.newInstance(service), id);
      assertTrue(attempts.isEmpty(), attempts.size() + " workflow task attempts timed out or failed "
          + WorkflowTaskAttempts.counts(attempts) + ":\n" + String.join("\n",
              attempts.stream().map(Object::toString).toList()));
    } finally {
      service.shutdownNow();
    }
  }
}
