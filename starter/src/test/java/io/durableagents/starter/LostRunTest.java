package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.activities.checkpoint.DirectoryCheckpointStore;
import io.durableagents.starter.inspect.HistoryCommand;
import io.durableagents.starter.local.ChildProcesses;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When the in-memory Temporal dies under a run, the commands say so in plain words: {@code attach}
 * stops waiting within seconds and says the server was lost; once a new in-memory server runs on the
 * same port, {@code attach}, {@code describe} and {@code list} say the run is gone with the old one and
 * name the way back. The worker runs in this JVM (its pollers outlive the server and find the new one, as
 * a worker's process does): what is tested is what the commands say.
 */
class LostRunTest {
  private final List<Process> started = new ArrayList<>();
  private WorkerInThisJvm worker;
  private Path dir;
  private int port;

  @AfterEach
  void stopAll() throws InterruptedException {
    if (worker != null) {
      worker.close();
    }
    for (Process p : started) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private Process server() throws Exception {
    Process p = ChildProcesses.start("384m", dir.resolve("dev-server-" + started.size() + ".log").toFile(), Map.of(),
        "dev-server", "--in-memory", "--port", Integer.toString(port));
    started.add(p);
    assertTrue(ChildProcesses.awaitListening("127.0.0.1", port, p, 60_000), "the dev server did not start");
    return p;
  }

  private Process cli(String name, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(ChildProcesses.javaBinary(), "-Xmx256m",
        // a command lives a few seconds: start it fast rather than compile it well
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
        ChildProcesses.classpath(), StarterMain.class.getName()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command)
        .redirectOutput(dir.resolve(name + ".out").toFile())
        .redirectError(dir.resolve(name + ".err").toFile());
    pb.environment().remove("DURABLE_AGENTS_DEBUG");
    pb.environment().put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    pb.environment().put("DURABLE_AGENTS_CHECKPOINT_DIR", checkpoints().toString());
    Process p = pb.start();
    started.add(p);
    return p;
  }

  /**
   * {@code durable-agents <args>} in this JVM (a JVM per command cost this class a minute on two cores), for
   * the commands that end by themselves; {@code attach} and {@code agent}, which wait while the server is
   * killed under them, run in processes of their own ({@link #cli}).
   */
  private CliAgainstServerTest.Result inProcess(String name, String... args) throws Exception {
    Map<String, String> env = new java.util.HashMap<>();
    env.put("DURABLE_AGENTS_DEBUG", null);
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    env.put("DURABLE_AGENTS_CHECKPOINT_DIR", checkpoints().toString());
    CliFailuresTest.Run r = CliFailuresTest.run(env, args);
    Files.writeString(dir.resolve(name + ".out"), r.out());
    Files.writeString(dir.resolve(name + ".err"), r.err());
    return new CliAgainstServerTest.Result(r.exitCode(), r.out(), r.err());
  }

  private CliAgainstServerTest.Result finish(String name, Process p) throws Exception {
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), name + " did not finish");
    return new CliAgainstServerTest.Result(p.exitValue(), Files.readString(dir.resolve(name + ".out")),
        Files.readString(dir.resolve(name + ".err")));
  }

  /**
   * {@code agent} waits for its run's result in a call the SDK retries for as long as the server is down:
   * without a watch of its own it waited for ever once the server was killed.
   */
  @Test
  void agentWaitingForItsRunSaysWithinSecondsThatTheServerIsGone() throws Exception {
    dir = Files.createDirectories(Path.of("target", "lost-agent"));
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Process server = server();
    // no worker: the run waits, and the command with it
    Process agent = cli("agent", "agent", "--no-worker", "--id", "lost-agent", "-p", "What is 2 + 2?");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.readString(dir.resolve("agent.out")).contains("No worker")) {
      assertTrue(agent.isAlive() && System.nanoTime() < deadline, "agent did not say it waits for a worker: "
          + Files.readString(dir.resolve("agent.out")) + Files.readString(dir.resolve("agent.err")));
      Thread.sleep(100);
    }
    long killed = System.nanoTime();
    server.destroyForcibly().waitFor();
    assertTrue(agent.waitFor(15, TimeUnit.SECONDS), "agent still waits 15 s after the server was killed");
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killed);
    CliAgainstServerTest.Result lost = finish("agent", agent);
    assertEquals(Failures.UNAVAILABLE, lost.exitCode(), lost.out() + lost.err());
    assertTrue(lost.firstErrLine().startsWith("agent: lost the Temporal at 127.0.0.1:" + port
        + " while waiting for 'lost-agent': it has not answered for 5 s"), lost.err());
    assertTrue(lost.err().contains("'show lost-agent' then prints what it did"), lost.err());
    CliFailuresTest.assertNoTrace(new CliFailuresTest.Run(lost.exitCode(), lost.out(), lost.err()));
    System.out.println("agent said the server was gone " + seconds + " s after the kill");
  }

  @Test
  void aRunLostWithTheInMemoryServerIsSaidInPlainWordsByAttachDescribeAndList() throws Exception {
    dir = Files.createDirectories(Path.of("target", "lost-run"));
    if (Files.exists(checkpoints())) {
      // a run of the same id from an earlier build left its own checkpoints
      try (var files = Files.walk(checkpoints())) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Process server = server();
    // as 'worker' makes it from this environment
    Map<String, String> workerEnv = Map.of("TEMPORAL_ADDRESS", "127.0.0.1:" + port,
        "DURABLE_AGENTS_RULES_DELAY_MS", "20", "DURABLE_AGENTS_CHECKPOINT_DIR", checkpoints().toString());
    worker = WorkerInThisJvm.start("lost-run-worker", workerEnv);
    String id = "lost-run";
    // a small world: the steps are what is lost and found again, not how many agents take them
    CliAgainstServerTest.Result sim = inProcess("simulate", "simulate", "--steps", "400", "--citizens", "6",
        "--cops", "2", "--no-wait", "--id", id, "--checkpoint-every", "2");
    assertEquals(0, sim.exitCode(), sim.out() + sim.err());
    Process attach = cli("attach", "attach", id, "--progress", "lines");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!Files.readString(dir.resolve("attach.out")).matches("(?s).*\\n3/400.*")) {
      assertTrue(attach.isAlive() && System.nanoTime() < deadline, "attach printed no step: "
          + Files.readString(dir.resolve("attach.out")) + Files.readString(dir.resolve("attach.err")));
      Thread.sleep(100);
    }

    server.destroyForcibly().waitFor();
    CliAgainstServerTest.Result lost = finish("attach", attach);
    assertEquals(Failures.UNAVAILABLE, lost.exitCode(), lost.out() + lost.err());
    assertTrue(lost.firstErrLine().startsWith("attach: lost the Temporal at 127.0.0.1:" + port
        + " while following 'lost-run': it has not answered for 5 s"), lost.err());
    assertTrue(lost.err().contains("The in-memory Temporal keeps runs in memory: if it stopped, 'lost-run' is gone"),
        lost.err());
    assertTrue(lost.err().contains("its last checkpoint is " + checkpoints().resolve("lost-run")), lost.err());
    CliFailuresTest.assertNoTrace(new CliFailuresTest.Run(lost.exitCode(), lost.out(), lost.err()));

    server();
    String gone = "'lost-run' on 127.0.0.1:" + port
        + ": no such run; this is the in-memory Temporal, which forgets every run when it restarts";
    CliAgainstServerTest.Result again = inProcess("attach-again", "attach", id);
    assertEquals(Failures.NOT_FOUND, again.exitCode(), again.out() + again.err());
    assertEquals("attach: " + gone, again.firstErrLine());
    Path last = new DirectoryCheckpointStore(checkpoints()).latest(id).orElseThrow();
    assertTrue(again.err().contains("Its last checkpoint is " + last + ": 'simulate --from-checkpoint " + last),
        again.err());
    CliAgainstServerTest.Result describe = inProcess("describe", "describe", id);
    assertEquals(Failures.NOT_FOUND, describe.exitCode(), describe.out() + describe.err());
    assertEquals("describe: " + gone, describe.firstErrLine());
    CliAgainstServerTest.Result list = inProcess("list", "list");
    assertEquals(0, list.exitCode(), list.err());
    assertTrue(list.out().contains("No simulation runs on 127.0.0.1:" + port
        + ". This is the in-memory Temporal: it forgets every run when it restarts"), list.out());

    // the way back: the run goes on from its last checkpoint, under its own id, and ends as an undisturbed run
    // (the reference, started first, goes on beside it on the same worker; 'attach' writes its CSV at its end)
    int step = new DirectoryCheckpointStore(checkpoints()).load(last.toString()).step();
    String steps = Integer.toString(step + 4);
    CliAgainstServerTest.Result referenceStart = inProcess("reference-start", "simulate", "--id", "reference",
        "--steps", steps, "--citizens", "6", "--cops", "2", "--no-wait");
    assertEquals(0, referenceStart.exitCode(), referenceStart.out() + referenceStart.err());
    CliAgainstServerTest.Result resumed = inProcess("resumed", "simulate", "--from-checkpoint",
        last.toString(), "--steps", steps, "--progress", "lines", "--csv", dir.resolve("resumed.csv").toString());
    assertEquals(0, resumed.exitCode(), resumed.out() + resumed.err());
    assertTrue(resumed.out().contains("Started lost-run on"), resumed.out());
    assertTrue(resumed.out().contains("going on after step " + step + " of lost-run (checkpoint " + last + ")"),
        resumed.out());
    CliAgainstServerTest.Result reference = inProcess("reference", "attach", "reference", "--progress", "lines",
        "--csv", dir.resolve("reference.csv").toString());
    assertEquals(0, reference.exitCode(), reference.out() + reference.err());
    assertEquals(Files.readString(dir.resolve("reference.csv")), Files.readString(dir.resolve("resumed.csv")));
    // only the steps after the checkpoint ran again: the resumed run started agent steps of those alone
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + port).build());
    try {
      WorkflowClient client = WorkflowClient.newInstance(service);
      java.util.Set<Integer> ran = new java.util.TreeSet<>();
      for (WorkflowExecutionHistory run : HistoryCommand.allRuns(client, id)) {
        for (HistoryEvent e : run.getEvents()) {
          if (e.hasStartChildWorkflowExecutionInitiatedEventAttributes()) {
            Matcher m = Pattern.compile("/step-(\\d+)").matcher(
                e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId());
            assertTrue(m.find(), e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId());
            ran.add(Integer.parseInt(m.group(1)));
          }
        }
      }
      java.util.Set<Integer> after = new java.util.TreeSet<>();
      for (int s = step + 1; s <= step + 4; s++) {
        after.add(s);
      }
      assertEquals(after, ran);
    } finally {
      service.shutdownNow();
    }
  }

  private Path checkpoints() {
    return dir.resolve("checkpoints").toAbsolutePath();
  }
}
