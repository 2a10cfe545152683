package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.local.ChildProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run started on a Temporal where no worker polls is not silent: {@code simulate}, {@code attach} and
 * {@code agent --no-worker}, each in its own process against the real dev server, say within seconds
 * that no worker polls the run's task queues and how to start one, keep waiting, and say once that a
 * worker polls when one is started; the runs then finish. {@code describe} of the waiting run says
 * within seconds that no worker polls, instead of holding its query for over a minute.
 */
class WaitingForAWorkerTest {
  /** A namespace of its own on the shared dev server: no other class's worker polls its task queues. */
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("waiting-for-a-worker");
  private final List<Process> started = new ArrayList<>();
  private Path dir;

  @AfterEach
  void stopAll() throws InterruptedException {
    PersistentDevServerIT.stop(started);
  }

  private Process cli(String name, Map<String, String> env, String... args) throws Exception {
    Path log = dir.resolve(name + ".log");
    Files.deleteIfExists(log);
    Process p = ChildProcesses.start("256m", log.toFile(), env, args);
    started.add(p);
    return p;
  }

  private String log(String name) throws Exception {
    Path log = dir.resolve(name + ".log");
    return Files.exists(log) ? Files.readString(log) : "";
  }

  private void awaitLine(String name, Process p, String text, long seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!log(name).contains(text)) {
      assertTrue(p.isAlive(), name + " exited: " + log(name));
      assertTrue(System.nanoTime() < deadline, name + " did not say '" + text + "' within " + seconds + " s:\n"
          + log(name));
      Thread.sleep(100);
    }
  }

  @Test
  void simulateAttachAndAgentSayThatNoWorkerPollsAndGoOnWhenOneDoes() throws Exception {
    dir = Files.createDirectories(Path.of("target", "waiting-for-a-worker"));
    int port = temporal.port();
    Map<String, String> env = temporal.env();
    String none = "No worker polls the task queues 'durable-agents-simulations' (simulations) and 'durable-agents' (workflows) and 'durable-agents-llm' (LLM "
        + "calls) on 127.0.0.1:" + port + " (namespace " + temporal.name() + ").\n  Start one: 'durable-agents worker' in another "
        + "terminal, with the same TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE.";

    Process simulate = cli("simulate", env, "simulate", "--id", "no-worker-sim", "--steps", "2", "--citizens",
        "3", "--cops", "1", "--progress", "lines");
    awaitLine("simulate", simulate, "Started no-worker-sim", 60);
    long startedAt = System.nanoTime();
    Process attach = cli("attach", env, "attach", "no-worker-sim", "--progress", "lines");
    Process agent = cli("agent", env, "agent", "--no-worker", "--id", "no-worker-agent", "-p", "What is 2 + 3?");
    awaitLine("simulate", simulate, none, 30);
    long seconds = (System.nanoTime() - startedAt) / 1_000_000_000L;
    assertTrue(seconds <= 15, "simulate said it after " + seconds + " s");
    assertTrue(log("simulate").contains("no-worker-sim waits: a worker started later takes it on"), log("simulate"));
    awaitLine("attach", attach, none, 60);
    awaitLine("agent", agent, none, 60);

    // describe does not hold its query for the minute Temporal would: it says within seconds that none polls.
    // The first command of this JVM loads gRPC and the SDK (seconds on a loaded machine): 'list' does that, so
    // that what is timed is describe's own wait.
    assertEquals(0, CliFailuresTest.run(env, "list").exitCode());
    long describing = System.nanoTime();
    CliFailuresTest.Run described = CliFailuresTest.run(env, "describe", "no-worker-sim");
    long describeMillis = (System.nanoTime() - describing) / 1_000_000;
    assertEquals(0, described.exitCode(), described.out() + described.err());
    assertTrue(described.out().contains("Progress:      unknown: no worker polls the task queue 'durable-agents-simulations' on "
        + "127.0.0.1:" + port + " (namespace " + temporal.name() + "); the run waits for one ('durable-agents worker'"),
        described.out());
    assertTrue(describeMillis < 5_000, "describe took " + describeMillis + " ms:\n" + described.out());

    // the worker in this JVM: what is tested is what the commands say, not the worker's process
    try (WorkerInThisJvm worker = WorkerInThisJvm.start("waiting-for-a-worker", env)) {
      String back = "A worker polls 'durable-agents-simulations' and 'durable-agents' and 'durable-agents-llm' now: ";
      for (Object[] c : new Object[][] {{"simulate", simulate, "no-worker-sim"}, {"attach", attach, "no-worker-sim"},
          {"agent", agent, "no-worker-agent"}}) {
        String name = (String) c[0];
        Process p = (Process) c[1];
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), name + " did not finish: " + log(name));
        String text = log(name);
        assertEquals(0, p.exitValue(), text);
        assertEquals(1, text.split(java.util.regex.Pattern.quote(none), -1).length - 1, "said once:\n" + text);
        assertTrue(text.indexOf(back + c[2] + " goes on.") > text.indexOf(none), text);
      }
    }
    assertTrue(log("simulate").contains("Finished no-worker-sim: 2 steps"), log("simulate"));
  }
}
