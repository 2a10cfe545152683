package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.benchmark.WorkflowTaskAttempts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An undisturbed simulation on Temporal's real dev server leaves no workflow task that timed out or
 * failed in any of its histories (its runs and every agent step). A step that started every agent's step
 * at once had the server fail the simulation's running task ({@code FORCE_CLOSE_COMMAND} by {@code
 * history-service}: more than 100 events arrived while it ran); and with its agent steps on its own task
 * queue, the simulation's task waited on the worker's sticky queue behind theirs past 5 s, moved to the
 * task queue, and the worker replayed the run past the task's timeout (issue 37 item 5). 120 agents, every
 * one at once, 2 steps, a continue-as-new between them.
 *
 * <p>The same check at the size of issue 37 (200 agents x 12 steps, strategies mixed, continue-as-new
 * every 4), too long for the suite, is a command in BENCHMARKS.md ("Workflow task time-outs and
 * force-closes in undisturbed runs").
 */
class UndisturbedRunTasksTest {
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("undisturbed-run-tasks");

  @Test
  void noWorkflowTaskOfAnUndisturbedRunTimesOutOrFails() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "undisturbed-run-tasks"));
    String id = "undisturbed-tasks";
    // the worker in a process of its own, as a user runs it (its heap, threads and warm-up are what the
    // tasks' times depend on); the command in this JVM (a JVM's start is not what is tested)
    temporal.start("512m", dir.resolve("worker.log"), Map.of(), "worker");
    CliFailuresTest.Run simulate = CliFailuresTest.run(temporal.env(), "simulate", "--id", id,
        "--steps", "2", "--citizens", "100", "--cops", "20", "--width", "20", "--height", "20",
        "--strategy", "citizen=react,cop=rewoo", "--max-concurrent-agents", "120",
        "--continue-as-new-every", "1", "--progress", "lines");
    Files.writeString(dir.resolve("simulate.log"), simulate.out() + simulate.err());
    assertEquals(0, simulate.exitCode(), simulate.out() + simulate.err());

    List<WorkflowTaskAttempts.Attempt> attempts = WorkflowTaskAttempts.of(temporal.client(), id);
    assertTrue(attempts.isEmpty(), attempts.size() + " workflow task attempts timed out or failed "
        + WorkflowTaskAttempts.counts(attempts) + ":\n" + String.join("\n",
            attempts.stream().map(Object::toString).toList()));
  }
}
