package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.durableagents.devserver.LocalTemporal;
import io.durableagents.starter.local.ChildProcesses;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The failures that need a Temporal (or something that is not one), through the real command line in
 * its own process: an unreachable address, a malformed one, a web server and a silent TCP port where
 * Temporal should be; start-up checks that must not start a workflow; an id already running; an
 * unknown agent; runs that fail because the worker has no key; Ctrl-C in {@code simulate}
 * (detaches, the run goes on) and in {@code demo --port} where a Temporal listens (demo uses it, its worker
 * runs the steps; Ctrl-C stops the worker, leaves no process behind, and the Temporal running); the
 * search attributes every run of a simulation carries, however it was started. Around run ids: {@code
 * agent} under a running simulation's id is refused, not left waiting on it; {@code resume} of a run that
 * is not paused says so; {@code plans} and {@code attach} of an unknown id are not found (exit 3), and
 * {@code attach} names no run to Ctrl-C before it has found one. The worker runs in this JVM (what is
 * tested is the command line; {@code WorkerStartTest} and {@code KilledWorkerEndToEndTest} start the
 * worker's process), as do the commands but for those that get Ctrl-C, which need a process of their own.
 */
class CliAgainstServerTest {
  private static Path dir;
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("cli-against-server");
  private static WorkerInThisJvm worker;
  private static WorkflowServiceStubs service;
  private static HttpServer web;
  private static ServerSocket silent;
  private static final List<Socket> held = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createDirectories(Path.of("target", "cli-failures"));
    // a worker without any provider key, slowed so that runs last while the tests look at them: in this JVM,
    // as 'worker' makes it from this environment
    Map<String, String> env = temporal.env(Map.of(
        "DURABLE_AGENTS_RULES_DELAY_MS", "20", "OPENAI_API_KEY", "", "OPENAI_BASE_URL", "",
        "ANTHROPIC_API_KEY", "", "DURABLE_AGENTS_MODEL", "",
        "DURABLE_AGENTS_CHECKPOINT_DIR", dir.resolve("checkpoints").toAbsolutePath().toString()));
    service = temporal.service();
    worker = WorkerInThisJvm.start("cli-test-worker", env);
    web = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    web.createContext("/", exchange -> {
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    web.start();
    silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(() -> {
      while (!silent.isClosed()) {
        try {
          held.add(silent.accept()); // accepts and never answers
        } catch (Exception e) {
          return;
        }
      }
    });
    acceptor.setDaemon(true);
    acceptor.start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (web != null) {
      web.stop(0);
    }
    if (silent != null) {
      silent.close();
    }
    if (worker != null) {
      worker.close();
    }
  }

  private static String address() {
    return temporal.address();
  }

  /** A finished command: its exit code and what it printed (stdout then stderr). */
  record Result(int exitCode, String out, String err) {
    String firstErrLine() {
      return err.strip().isEmpty() ? "" : err.strip().split("\\R")[0];
    }
  }

  /** Starts {@code durable-agents <args>} in its own JVM with {@code env} over this one's. */
  private static Process start(String name, Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(ChildProcesses.javaBinary(), "-Xmx256m",
        // a command lives a few seconds: start it fast rather than compile it well
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
        ChildProcesses.classpath(), StarterMain.class.getName()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command)
        .redirectOutput(dir.resolve(name + ".out").toFile())
        .redirectError(dir.resolve(name + ".err").toFile());
    pb.environment().remove("DURABLE_AGENTS_DEBUG");
    pb.environment().remove("DURABLE_AGENTS_MODEL");
    pb.environment().putAll(env);
    return pb.start();
  }

  /**
   * Runs {@code durable-agents <args>} in this JVM (a JVM per command made this class take minutes), with
   * {@code env} over this process's variables, as {@link #start} would in its own process; what it
   * printed is also kept in {@code <name>.out} and {@code <name>.err}. The commands that need a process
   * of their own (Ctrl-C) use {@link #start}.
   */
  private static Result run(String name, Map<String, String> env, String... args) throws Exception {
    Map<String, String> overlay = new HashMap<>(env);
    overlay.put("DURABLE_AGENTS_DEBUG", null);
    overlay.put("DURABLE_AGENTS_MODEL", null);
    CliFailuresTest.Run r = CliFailuresTest.run(overlay, args);
    Files.writeString(dir.resolve(name + ".out"), r.out());
    Files.writeString(dir.resolve(name + ".err"), r.err());
    return new Result(r.exitCode(), r.out(), r.err());
  }

  private static Result result(String name, Process p) throws Exception {
    return new Result(p.exitValue(), Files.readString(dir.resolve(name + ".out")),
        Files.readString(dir.resolve(name + ".err")));
  }

  private static Result onServer(String name, String... args) throws Exception {
    return run(name, temporal.env(), args);
  }

  private static void assertClear(Result r, int exitCode, String firstLine) {
    assertEquals(exitCode, r.exitCode(), r.out() + r.err());
    assertTrue(r.firstErrLine().startsWith(firstLine), "first line: " + r.firstErrLine() + "\nexpected: " + firstLine);
    assertTrue(r.err().strip().split("\\R").length <= 2, "a cause and a hint at most:\n" + r.err());
    CliFailuresTest.assertNoTrace(new CliFailuresTest.Run(r.exitCode(), r.out(), r.err()));
  }

  private static boolean exists(String id) {
    try {
      status(id);
      return true;
    } catch (io.grpc.StatusRuntimeException e) {
      assertEquals(io.grpc.Status.Code.NOT_FOUND, e.getStatus().getCode(), e.toString());
      return false;
    }
  }

  private static WorkflowExecutionStatus status(String id) {
    return service.blockingStub().describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
        .setNamespace(temporal.name()).setExecution(WorkflowExecution.newBuilder().setWorkflowId(id)).build())
        .getWorkflowExecutionInfo().getStatus();
  }

  @Test
  void noTemporalThereIsOneLineNamingTheAddressAndItsSource() throws Exception {
    String[][] commands = {{"simulate"}, {"list"}, {"describe", "x"}, {"history", "x"}, {"attach", "x"},
        {"agent-state", "x", "cop-0"}, {"pause", "x"}, {"agent", "-p", "hi", "--no-worker"}};
    for (String[] args : commands) {
      Result r = run("refused-" + args[0], Map.of("TEMPORAL_ADDRESS", "127.0.0.1:1"), args);
      assertClear(r, Failures.UNAVAILABLE, args[0] + ": no Temporal at 127.0.0.1:1 (from TEMPORAL_ADDRESS): "
          + "connection refused");
    }
    assertClear(run("malformed", Map.of("TEMPORAL_ADDRESS", "not a host::"), "simulate"), Failures.USAGE,
        "simulate: 'not a host::' (from TEMPORAL_ADDRESS) is not a host:port address");
  }

  @Test
  void somethingElseListeningIsNotMistakenForTemporal() throws Exception {
    String webAddress = "127.0.0.1:" + web.getAddress().getPort();
    assertClear(run("web-list", Map.of("TEMPORAL_ADDRESS", webAddress), "list"), Failures.UNAVAILABLE,
        "list: what listens at " + webAddress + " (from TEMPORAL_ADDRESS) does not answer as Temporal");
    String silentAddress = "127.0.0.1:" + silent.getLocalPort();
    // the command runs in this JVM: a budget of 2 s (15 s for a user) is enough to see the silence named
    TemporalCheck.budget = java.time.Duration.ofSeconds(2);
    long asked = System.nanoTime();
    try {
      assertClear(run("silent-simulate", Map.of("TEMPORAL_ADDRESS", silentAddress), "simulate"),
          Failures.UNAVAILABLE, "simulate: what listens at " + silentAddress
              + " (from TEMPORAL_ADDRESS) does not answer as Temporal within 2 s");
    } finally {
      TemporalCheck.budget = TemporalCheck.BUDGET;
    }
    assertTrue(System.nanoTime() - asked < TimeUnit.SECONDS.toNanos(10), "the check outlasted its budget");
    // demo checks before it starts a worker
    Result demo = run("web-demo", Map.of("TEMPORAL_ADDRESS", webAddress), "demo");
    assertClear(demo, Failures.UNAVAILABLE, "demo: what listens at " + webAddress);
    assertFalse(demo.out().contains("Starting a worker"), demo.out());
  }

  @Test
  void startUpChecksStartNoWorkflow() throws Exception {
    assertClear(onServer("check-tools", "simulate", "--selected-tools", "fly", "--no-wait", "--id", "cli-check-tools"),
        Failures.USAGE, "simulate: --selected-tools: the citizen agents of epstein do not have [fly]");
    assertClear(onServer("check-zero", "simulate", "--citizens", "0", "--cops", "0", "--no-wait", "--id",
        "cli-check-zero"), Failures.USAGE, "simulate: the epstein world has no agents");
    for (String id : List.of("cli-check-tools", "cli-check-zero")) {
      assertFalse(exists(id), id + " was started");
    }
    // an empty id is refused before the command connects: Temporal would have refused it only after start
    assertClear(onServer("check-id", "simulate", "--id", "", "--no-wait"), Failures.USAGE, "simulate: --id is empty");
    assertClear(onServer("check-agent-id", "agent", "-p", "hi", "--no-worker", "--id", ""), Failures.USAGE,
        "agent: --id is empty");
  }

  @Test
  void anIdAlreadyRunningOffersAttachAndUnknownThingsAreNotFound() throws Exception {
    Result first = onServer("dup-1", "simulate", "--id", "cli-dup", "--steps", "400", "--citizens", "4", "--cops", "1",
        "--no-wait");
    assertEquals(0, first.exitCode(), first.out() + first.err());
    assertClear(onServer("dup-2", "simulate", "--id", "cli-dup", "--no-wait"), Failures.USAGE,
        "simulate: a run with id 'cli-dup' is already running");
    assertTrue(onServer("dup-3", "simulate", "--id", "cli-dup", "--no-wait").err().contains("attach cli-dup"));
    assertClear(onServer("no-agent", "agent-state", "cli-dup", "nobody-7"), Failures.NOT_FOUND,
        "agent-state: 'cli-dup' on " + address() + ": no agent 'nobody-7'");
    assertClear(onServer("no-history", "history", "nope"), Failures.NOT_FOUND,
        "history: cannot read 'nope' on " + address() + ": no such run");
    assertClear(onServer("no-describe", "describe", "nope"), Failures.NOT_FOUND,
        "describe: 'nope' on " + address() + ": no such run");
    // every command says an unknown id is not found, with exit 3: plans too
    assertClear(onServer("no-plans", "plans", "cli-nosuch"), Failures.NOT_FOUND,
        "plans: 'cli-nosuch' on " + address() + ": no such run");
    Result listed = onServer("list-1", "list", "--limit", "1");
    assertEquals(0, listed.exitCode(), listed.err());
    assertFalse(listed.out().contains("No simulation runs"), listed.out());
    assertEquals(2, listed.out().strip().split("\\R").length, "a header and one run:\n" + listed.out());
    // a 400-step run left going would take the worker from the other tests' runs
    assertEquals(0, onServer("dup-stop", "stop", "cli-dup").exitCode());
  }

  @Test
  void anAgentIsNotStartedUnderTheIdOfARunningSimulation() throws Exception {
    Result sim = onServer("agent-dup-sim", "simulate", "--id", "cli-agent-dup", "--steps", "400", "--citizens", "4",
        "--cops", "1", "--no-wait");
    assertEquals(0, sim.exitCode(), sim.out() + sim.err());
    ExecutorService waiting = Executors.newSingleThreadExecutor();
    try {
      // the SDK's blocking call would wait for the simulation's result: for as long as it runs
      Future<Result> call = waiting.submit(() -> onServer("agent-dup", "agent", "--no-worker", "--id",
          "cli-agent-dup", "-p", "What is 2 + 3?"));
      Result agent;
      try {
        agent = call.get(60, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        // the run's end ends the command's wait (the commands of this JVM take turns: not 'stop' then)
        temporal.client().newUntypedWorkflowStub("cli-agent-dup").terminate("agent waited on it");
        throw new AssertionError("agent waited on the running simulation: " + call.get(60, TimeUnit.SECONDS));
      }
      assertClear(agent, Failures.USAGE, "agent: a run with id 'cli-agent-dup' is already running");
      assertFalse(agent.out().contains("Started"), agent.out());
      assertEquals(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING, status("cli-agent-dup"));
    } finally {
      waiting.shutdownNow();
      if (status("cli-agent-dup") == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
        assertEquals(0, onServer("agent-dup-stop", "stop", "cli-agent-dup").exitCode());
      }
    }
  }

  @Test
  void resumeOfARunThatIsNotPausedSaysSo() throws Exception {
    Result sim = onServer("resume-sim", "simulate", "--id", "cli-resume", "--steps", "400", "--citizens", "4",
        "--cops", "1", "--no-wait");
    assertEquals(0, sim.exitCode(), sim.out() + sim.err());
    try {
      awaitFirstWorkflowTask("cli-resume");
      Result notPaused = onServer("resume-not-paused", "resume", "cli-resume");
      assertClear(notPaused, Failures.USAGE, "resume: 'cli-resume' is not paused: it is running, at step ");
      assertTrue(notPaused.err().contains("'pause cli-resume'"), notPaused.err());
      assertFalse(notPaused.out().contains("Resumed"), notPaused.out());
      // a pause just sent counts: the query answers after the signals the run has received
      assertEquals(0, onServer("resume-pause", "pause", "cli-resume").exitCode());
      Result resumed = onServer("resume-paused", "resume", "cli-resume");
      assertEquals(0, resumed.exitCode(), resumed.out() + resumed.err());
      assertEquals("Resumed cli-resume.", resumed.out().strip());
    } finally {
      assertEquals(0, onServer("resume-stop", "stop", "cli-resume").exitCode());
    }
  }

  @Test
  void ctrlCInAttachOfAnUnknownIdDoesNotSayARunGoesOn() throws Exception {
    Interrupts.runStarted(null); // an earlier command of this JVM named its run
    Result r = onServer("attach-unknown", "attach", "cli-never-started");
    assertClear(r, Failures.NOT_FOUND, "attach: 'cli-never-started' on " + address() + ": no such run");
    // what Ctrl-C would have said at any moment of it: the run is named only once it is known to exist
    assertEquals("attach: detached; nothing was started.", Interrupts.detachedLine("attach", "attach"));
  }

  @Test
  void forksCheckpointsAndInterventionsFromTheCommandLine() throws Exception {
    Path ref = dir.resolve("branch-ref.csv");
    // a small world: what is compared is the steps a fork repeats, not how many agents take them
    Result original = onServer("branch-ref", "simulate", "--id", "cli-branch", "--steps", "8", "--seed", "7",
        "--citizens", "3", "--cops", "1",
        "--continue-as-new-every", "3", "--progress", "lines", "--csv", ref.toString());
    assertEquals(0, original.exitCode(), original.out() + original.err());

    // an unchanged fork after step 5 (in the second run) repeats steps 6-8
    Path forked = dir.resolve("branch-fork.csv");
    Result fork = onServer("branch-fork", "fork", "cli-branch", "--at-step", "5", "--id", "cli-branch-fork",
        "--progress", "lines", "--csv", forked.toString());
    assertEquals(0, fork.exitCode(), fork.out() + fork.err());
    assertTrue(fork.out().contains("Read the state of cli-branch after step 5 from its history in "), fork.out());
    assertTrue(fork.out().contains("no LLM call"), fork.out());
    assertEquals(Files.readString(ref), Files.readString(forked));
    Result described = onServer("branch-describe", "describe", "cli-branch-fork");
    assertTrue(described.out().contains("Forked from:   fork of cli-branch after step 5"), described.out());
    assertClear(onServer("branch-beyond", "fork", "cli-branch", "--at-step", "9"), Failures.USAGE,
        "fork: 'cli-branch' completed 8 steps; step 9 is not in its history");
    assertClear(onServer("branch-fixed", "fork", "cli-branch", "--at-step", "3", "--citizens", "5"), Failures.USAGE,
        "fork: --param: parameter 'citizens' of scenario epstein is fixed when the world is made");
    assertClear(onServer("branch-scenario", "fork", "cli-branch", "--at-step", "3", "--memory", "episodic"),
        Failures.USAGE, "fork: --memory cannot change in a fork");

    // a run paused early: a checkpoint on demand, refused and accepted interventions
    Result paused = onServer("int-start", "simulate", "--id", "cli-int", "--steps", "8", "--citizens", "6",
        "--cops", "2", "--no-wait");
    assertEquals(0, paused.exitCode(), paused.out() + paused.err());
    assertEquals(0, onServer("int-pause", "pause", "cli-int").exitCode());
    Result checkpoint = onServer("int-checkpoint", "checkpoint", "cli-int");
    assertEquals(0, checkpoint.exitCode(), checkpoint.out() + checkpoint.err());
    assertTrue(checkpoint.out().startsWith("Checkpoint of cli-int after step "), checkpoint.out());
    assertTrue(checkpoint.out().contains(dir.resolve("checkpoints").toAbsolutePath().resolve("cli-int").toString()),
        checkpoint.out());
    assertClear(onServer("int-unknown", "intervene", "cli-int", "--param", "nope=1"), Failures.USAGE,
        "intervene: scenario epstein has no parameter 'nope'; those that can change during a run: vision, "
            + "legitimacy, active_threshold, arrest_probability_constant, max_jail_term");
    assertClear(onServer("int-value", "intervene", "cli-int", "--param", "legitimacy=7"), Failures.USAGE,
        "intervene: ");
    Result accepted = onServer("int-ok", "intervene", "cli-int", "--param", "legitimacy=0.1", "--note", "test");
    assertEquals(0, accepted.exitCode(), accepted.out() + accepted.err());
    Matcher from = Pattern.compile("^Intervention 1 on cli-int: legitimacy -> 0.1 from step (\\d+) ").matcher(accepted.out());
    assertTrue(from.find(), accepted.out());
    int at = Integer.parseInt(from.group(1));
    assertClear(onServer("int-past", "intervene", "cli-int", "--param", "legitimacy=0.2", "--at-step",
        Integer.toString(at - 1)), Failures.USAGE, "intervene: step " + (at - 1) + " is past");
    assertEquals(0, onServer("int-resume", "resume", "cli-int").exitCode());
    Path csv = dir.resolve("int.csv");
    Result done = onServer("int-attach", "attach", "cli-int", "--progress", "lines", "--csv", csv.toString());
    assertEquals(0, done.exitCode(), done.out() + done.err());
    assertTrue(done.out().contains("Intervention 1: legitimacy 0.5 -> 0.1 from step " + at + " (test)"), done.out());
    List<String> rows = Files.readAllLines(csv);
    assertTrue(rows.get(0).endsWith(",intervention"), rows.get(0));
    assertTrue(rows.get(at).startsWith(at + ",") && rows.get(at).endsWith(",\"legitimacy 0.5 -> 0.1\""), rows.get(at));
    assertTrue(rows.get(at - 1).endsWith(","), rows.get(at - 1));
    assertClear(onServer("int-over", "intervene", "cli-int", "--param", "legitimacy=0.2"), Failures.USAGE,
        "intervene: 'cli-int' has ended");
  }

  /**
   * The runs of the simulations whose ids start with {@code prefix} that {@code query} finds (AND-ed with
   * {@code WorkflowType = 'Simulation'}), by run id, once visibility lists {@code runs} of them with
   * {@code ready} true (visibility is written after the run's events).
   */
  private static Map<String, io.temporal.api.workflow.v1.WorkflowExecutionInfo> listed(String query, String prefix,
      int runs, java.util.function.Predicate<io.temporal.api.workflow.v1.WorkflowExecutionInfo> ready)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      Map<String, io.temporal.api.workflow.v1.WorkflowExecutionInfo> found = new java.util.TreeMap<>();
      for (io.temporal.api.workflow.v1.WorkflowExecutionInfo info : service.blockingStub().listWorkflowExecutions(
          io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest.newBuilder().setNamespace(temporal.name())
              .setPageSize(1000).setQuery("WorkflowType = 'Simulation'" + (query.isEmpty() ? "" : " AND " + query))
              .build()).getExecutionsList()) {
        if (info.getExecution().getWorkflowId().startsWith(prefix)) {
          found.put(info.getExecution().getRunId(), info);
        }
      }
      if ((found.size() >= runs && found.values().stream().allMatch(ready)) || System.nanoTime() > deadline) {
        return found;
      }
      Thread.sleep(200); // polling visibility until it has caught up, not waiting in place of a condition
    }
  }

  private static String attribute(io.temporal.api.workflow.v1.WorkflowExecutionInfo info,
      io.temporal.common.SearchAttributeKey<String> key) {
    return io.durableagents.starter.inspect.ListCommand.attribute(info, key);
  }

  /**
   * Issue 36, item 1: a simulation carries Scenario and Strategy however it was started (simulate, fork,
   * simulate --from-checkpoint) and in each of its continued runs, so {@code Scenario = "epstein"} finds
   * every run, and {@code list} and the view show them for a fork.
   */
  @Test
  void everyRunOfEverySimulationCarriesItsScenarioAndStrategy() throws Exception {
    Result original = onServer("attrs-ref", "simulate", "--id", "cli-attrs", "--steps", "4", "--seed", "3",
        "--citizens", "3", "--cops", "1", "--continue-as-new-every", "2", "--checkpoint-every", "2",
        "--progress", "lines");
    assertEquals(0, original.exitCode(), original.out() + original.err());
    Result fork = onServer("attrs-fork", "fork", "cli-attrs", "--at-step", "1", "--id", "cli-attrs-fork",
        "--progress", "lines");
    assertEquals(0, fork.exitCode(), fork.out() + fork.err());
    Path checkpoint = dir.resolve("checkpoints").resolve("cli-attrs").resolve("step-000002.json");
    Result restored = onServer("attrs-restored", "simulate", "--from-checkpoint", checkpoint.toString(),
        "--id", "cli-attrs-restored", "--progress", "lines");
    assertEquals(0, restored.exitCode(), restored.out() + restored.err());

    // cli-attrs: 2 runs (continued after step 2); the fork: steps 2-3, then 4 (2 runs); the restored: 3-4
    Map<String, io.temporal.api.workflow.v1.WorkflowExecutionInfo> all = listed("", "cli-attrs", 5,
        info -> info.getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    assertEquals(5, all.size(), all.values().toString());
    Map<String, io.temporal.api.workflow.v1.WorkflowExecutionInfo> byScenario =
        listed("Scenario = 'epstein'", "cli-attrs", all.size(), info -> true);
    assertEquals(all.keySet(), byScenario.keySet(), "Scenario = 'epstein' finds every run of every start: "
        + all.values().stream().map(i -> i.getExecution().getWorkflowId() + " " + i.getSearchAttributes()).toList());
    for (io.temporal.api.workflow.v1.WorkflowExecutionInfo info : all.values()) {
      assertEquals("cot", attribute(info, io.durableagents.workflows.SearchAttributes.STRATEGY),
          info.getExecution().getWorkflowId() + ": " + info.getSearchAttributes());
    }

    Result list = onServer("attrs-list", "list", "--limit", "100");
    List<String> forkRows = list.out().lines().filter(l -> l.startsWith("cli-attrs-fork ")).toList();
    assertEquals(1, forkRows.size(), list.out());
    assertTrue(forkRows.get(0).matches("cli-attrs-fork\\s+completed\\s+epstein\\s+cot\\s+.+\\s2"), forkRows.get(0));
    io.durableagents.starter.view.ViewActions.SimulationRow row = io.durableagents.starter.view.ViewActions
        .simulations(service, temporal.name(), 100).stream().filter(r -> r.id().equals("cli-attrs-fork")).findFirst()
        .orElseThrow();
    assertEquals("epstein", row.scenario(), row.toString());
    assertEquals("cot", row.strategy(), row.toString());
    assertEquals(4L, row.step(), row.toString());
  }

  /**
   * Issue 36, item 2: a run whose roles run different strategies says each role's in {@code Strategy}, not
   * the default ({@code cot}) that none of its agents ran; {@code list} shows it.
   */
  @Test
  void aRunWhoseRolesRunDifferentStrategiesSaysEachRolesStrategy() throws Exception {
    Result mixed = onServer("mix", "simulate", "--id", "cli-mix", "--steps", "2", "--seed", "5",
        "--citizens", "3", "--cops", "1", "--strategy", "citizen=rewoo,cop=react", "--progress", "lines");
    assertEquals(0, mixed.exitCode(), mixed.out() + mixed.err());
    Map<String, io.temporal.api.workflow.v1.WorkflowExecutionInfo> runs = listed(
        "Strategy = 'citizen=rewoo,cop=react'", "cli-mix", 1, info -> true);
    assertEquals(1, runs.size(), "Strategy of cli-mix: " + listed("", "cli-mix", 1, info -> true).values());
    Result list = onServer("mix-list", "list", "--limit", "100");
    assertTrue(list.out().lines().anyMatch(l -> l.matches("cli-mix\\s+completed\\s+epstein\\s+citizen=rewoo,cop=react\\s+.+\\s1")),
        list.out());
  }

  @Test
  void aFinishedRunSaysItHasEndedAndIsNeverReplacedByAccident() throws Exception {
    Result done = onServer("finished-1", "simulate", "--id", "cli-finished", "--steps", "2", "--citizens", "3",
        "--cops", "1", "--progress", "lines");
    assertEquals(0, done.exitCode(), done.out() + done.err());
    // stop, pause, resume and intervene say it has ended and how: not that there is no such run
    String ended = "'cli-finished' has ended: COMPLETED at ";
    for (String command : List.of("stop", "pause", "resume")) {
      Result r = onServer("finished-" + command, command, "cli-finished");
      assertClear(r, Failures.USAGE, command + ": " + ended);
      assertTrue(r.err().contains("'describe cli-finished' shows its result"), r.err());
    }
    assertClear(onServer("finished-intervene", "intervene", "cli-finished", "--param", "legitimacy=0.2"),
        Failures.USAGE, "intervene: " + ended);
    assertClear(onServer("gone-stop", "stop", "cli-never-was"), Failures.NOT_FOUND, "stop: ");
  }

  @Test
  void theIdOfAFinishedRunIsNotTakenOverUnlessAsked() throws Exception {
    Result done = onServer("replace-1", "simulate", "--id", "cli-replace", "--steps", "2", "--citizens", "3",
        "--cops", "1", "--progress", "lines");
    assertEquals(0, done.exitCode(), done.out() + done.err());
    // whichever command starts the new run
    Result again = onServer("replace-again", "simulate", "--id", "cli-replace", "--steps", "1", "--progress", "lines");
    assertClear(again, Failures.USAGE, "simulate: a finished run has the id 'cli-replace' (COMPLETED at ");
    assertTrue(again.err().contains("--replace-finished"), again.err());
    assertClear(onServer("replace-fork", "fork", "cli-replace", "--at-step", "1", "--id", "cli-replace"),
        Failures.USAGE, "fork: a finished run has the id 'cli-replace' (COMPLETED at ");
    Result kept = onServer("replace-kept", "describe", "cli-replace");
    assertTrue(kept.out().contains(", 2 steps"), kept.out());
    Result agent = onServer("replace-agent-1", "agent", "--no-worker", "--id", "cli-replace-agent", "-p", "What is 2 + 3?");
    assertEquals(0, agent.exitCode(), agent.out() + agent.err());
    assertClear(onServer("replace-agent-2", "agent", "--no-worker", "--id", "cli-replace-agent", "-p", "What is 4 + 5?"),
        Failures.USAGE, "agent: a finished run has the id 'cli-replace-agent' (COMPLETED at ");

    // unless asked to
    Result replaced = onServer("replace-replaced", "simulate", "--id", "cli-replace", "--steps", "1",
        "--citizens", "3", "--cops", "1", "--progress", "lines", "--replace-finished");
    assertEquals(0, replaced.exitCode(), replaced.out() + replaced.err());
    Result described = onServer("replace-described", "describe", "cli-replace");
    assertTrue(described.out().contains(", 1 steps"), described.out());
  }

  @Test
  void withTheServerGoneDescribeAttachAndStopNameTheRunsLastCheckpoint() throws Exception {
    Path checkpoints = dir.resolve("gone-checkpoints").toAbsolutePath();
    Path last = Files.createDirectories(checkpoints.resolve("cli-gone")).resolve("step-000004.json");
    Files.writeString(last, "{}");
    Map<String, String> env = Map.of("TEMPORAL_ADDRESS", "127.0.0.1:1",
        "DURABLE_AGENTS_CHECKPOINT_DIR", checkpoints.toString());
    for (String command : List.of("describe", "attach", "stop")) {
      Result r = run("gone-" + command, env, command, "cli-gone");
      assertClear(r, Failures.UNAVAILABLE, command + ": no Temporal at 127.0.0.1:1 (from TEMPORAL_ADDRESS): "
          + "connection refused");
      assertTrue(r.err().contains("The last checkpoint of 'cli-gone' here is " + last + ": 'simulate "
          + "--from-checkpoint " + last + "' goes on from there."), r.err());
    }
  }

  @Test
  void aRunThatFailsForAMissingKeySaysWhichKey() throws Exception {
    Result agent = onServer("no-key-agent", "agent", "--no-worker", "--model", "openai:gpt-4o-mini", "-p", "hi");
    assertClear(agent, Failures.FAILED, "agent: the run failed: LlmProviderNotConfigured: model "
        + "openai:gpt-4o-mini needs OPENAI_API_KEY");
    Result sim = onServer("no-key-simulate", "simulate", "--model", "openai:gpt-4o-mini", "--steps", "1",
        "--progress", "lines");
    assertClear(sim, Failures.FAILED, "simulate: the run failed: LlmProviderNotConfigured: model "
        + "openai:gpt-4o-mini needs OPENAI_API_KEY");
    assertFalse(agent.err().contains("Activity task failed") || sim.err().contains("Activity task failed"));
  }

  @Test
  void withNoWorkerTheWorkerChecksTheAgentsToolsAndNamesItsMcpSetting() throws Exception {
    // The command line does not know the worker's MCP servers; the worker refuses a tool it lacks.
    Result r = onServer("worker-tools", "agent", "--no-worker", "--model", "rules", "--tools",
        "fs_list_directory", "-p", "List the files.");
    assertClear(r, Failures.FAILED, "agent: the run failed: LlmUnknownTools: unknown tools [fs_list_directory]; "
        + "this worker's external tools: calculator, read_file (an MCP server's tools, <server>_<tool>, need that "
        + "server in the worker's DURABLE_AGENTS_MCP_SERVERS");
    assertTrue(r.err().contains("Give every worker the tool"), r.err());
  }

  @Test
  void ctrlCInSimulateDetachesAndTheRunGoesOn() throws Exception {
    Process p = start("interrupt-simulate", temporal.env(),
        "simulate", "--steps", "400", "--citizens", "4", "--cops", "1", "--progress", "lines");
    String id = awaitStarted("interrupt-simulate", p);
    interrupt(p);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "simulate did not exit after Ctrl-C");
    Result r = result("interrupt-simulate", p);
    assertEquals(Failures.INTERRUPTED, r.exitCode(), r.err());
    assertTrue(r.err().contains("simulate: detached; the run goes on: attach " + id), r.err());
    CliFailuresTest.assertNoTrace(new CliFailuresTest.Run(r.exitCode(), r.out(), r.err()));
    assertEquals(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING, status(id));
    // a 400-step run left going would take the worker from the other tests' runs
    assertEquals(0, onServer("interrupt-simulate-stop", "stop", id).exitCode());
  }

  /**
   * {@code demo --port} where a Temporal listens (this JVM's shared dev server): demo uses it, the worker it
   * starts finds it and runs the steps, and Ctrl-C stops that worker and leaves the Temporal it did not start
   * running (the case of {@code DemoPortTest} where demo starts none is {@code DemoViewTest}'s).
   */
  @Test
  void ctrlCInDemoOnARunningTemporalStopsItsWorkerLeavesNoProcessAndTheTemporalRunning() throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put(LocalTemporal.DATA_DIR_VARIABLE, dir.resolve("demo-data").toAbsolutePath().toString());
    env.put("TEMPORAL_ADDRESS", "");
    env.put("TEMPORAL_NAMESPACE", temporal.name());
    env.put("DURABLE_AGENTS_MODEL", "rules");
    int port = temporal.port();
    Process p = start("interrupt-demo", env, "demo", "--port", Integer.toString(port),
        "--steps", "400", "--citizens", "4", "--cops", "1", "--progress", "lines");
    String id = awaitStarted("interrupt-demo", p);
    String started = Files.readString(dir.resolve("interrupt-demo.out"));
    assertTrue(started.contains("Using the Temporal at 127.0.0.1:" + port + " (from --port)"), started);
    List<ProcessHandle> children = p.descendants().toList();
    assertFalse(children.isEmpty(), "demo started no worker");
    interrupt(p);
    assertTrue(p.waitFor(90, TimeUnit.SECONDS), "demo did not exit after Ctrl-C");
    Result r = result("interrupt-demo", p);
    assertEquals(Failures.INTERRUPTED, r.exitCode(), r.err());
    assertTrue(r.err().contains("demo: interrupted; stopping the worker"), r.err());
    assertTrue(r.err().contains("run " + id + " stays on " + address()), r.err());
    CliFailuresTest.assertNoTrace(new CliFailuresTest.Run(r.exitCode(), r.out(), r.err()));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (children.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertFalse(children.stream().anyMatch(ProcessHandle::isAlive), "demo left " + children);
    assertTrue(ChildProcesses.listening("127.0.0.1", port), "demo leaves a Temporal it did not start running");
    // the run stays; this class's worker would take it up
    assertEquals(0, onServer("interrupt-demo-stop", "stop", id).exitCode());
  }

  /** Waits until a worker has completed the run's first workflow task: before, a query is not answered. */
  private static void awaitFirstWorkflowTask(String id) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (service.blockingStub().describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
        .setNamespace(temporal.name()).setExecution(WorkflowExecution.newBuilder().setWorkflowId(id)).build())
        .getWorkflowExecutionInfo().getHistoryLength() < 4) {
      assertTrue(System.nanoTime() < deadline, id + ": no workflow task completed within 60 s");
      Thread.sleep(100);
    }
  }

  /** Waits for the run's first step line; returns its workflow id. */
  private static String awaitStarted(String name, Process p) throws Exception {
    Pattern started = Pattern.compile("Started (\\S+) on ");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      String out = Files.readString(dir.resolve(name + ".out"));
      Matcher m = started.matcher(out);
      if (m.find() && Pattern.compile("(?m)^1/400").matcher(out).find()) {
        return m.group(1);
      }
      assertTrue(p.isAlive(), name + " exited: " + out + Files.readString(dir.resolve(name + ".err")));
      Thread.sleep(100);
    }
    throw new AssertionError(name + " did not report its first step");
  }

  /** Ctrl-C: SIGINT to the process. */
  private static void interrupt(Process p) throws Exception {
    Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).inheritIO().start();
    assertEquals(0, kill.waitFor());
  }
}
