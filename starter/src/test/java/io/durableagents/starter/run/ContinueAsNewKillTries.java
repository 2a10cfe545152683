package io.durableagents.starter.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.StarterMain;
import io.durableagents.starter.inspect.HistoryCommand;
import io.durableagents.starter.local.ChildProcesses;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
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
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Not a test of the build: a reproduction loop for a run that the in-memory Temporal broke for good when a
 * worker was killed with {@code kill -9} just after the simulation continued as new (issue 26). It runs the
 * in-memory Temporal and a worker in child JVMs, starts simulations that continue as new every 2 steps,
 * and after each continue-as-new (seen as a new run id, polled) waits a chosen delay, kills the worker and
 * starts another; it stops at the first run whose simulation workflow task keeps failing ({@link
 * FailingWorkflowTask}) or that stops moving, and writes its histories to {@code target/can-kill/}.
 *
 * <pre>{@code
 * ./mvnw -B -q -o -pl starter -am test -Dtest=ContinueAsNewKillTries -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dcan.kill.runs=10 -Dcan.kill.citizens=40
 * }</pre>
 */
@EnabledIfSystemProperty(named = "can.kill.runs", matches = "\\d+")
class ContinueAsNewKillTries {
  private final List<Process> started = new ArrayList<>();
  private final Path dir = Path.of("target", "can-kill");
  private int port;

  @AfterEach
  void stopAll() throws InterruptedException {
    for (Process p : started) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private Process worker(int n) {
    Process p = ChildProcesses.start("256m", dir.resolve("worker-" + n + ".log").toFile(),
        Map.of("TEMPORAL_ADDRESS", "127.0.0.1:" + port,
            "DURABLE_AGENTS_RULES_DELAY_MS", System.getProperty("can.kill.delayMs", "5")),
        "worker");
    started.add(p);
    return p;
  }

  @Test
  void killTheWorkerJustAfterContinuesAsNew() throws Exception {
    Files.createDirectories(dir);
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    // -Dcan.kill.stock=true: without the patch for timed-out workflow tasks (WorkflowTaskTimeouts)
    Map<String, String> serverEnv = Boolean.getBoolean("can.kill.stock")
        ? Map.of(ChildProcesses.CHILD_JVM_OPTIONS, "-Ddurableagents.stockWorkflowTaskTimeouts=true") : Map.of();
    Process server = ChildProcesses.start("768m", dir.resolve("dev-server.log").toFile(), serverEnv,
        "dev-server", "--in-memory", "--port", Integer.toString(port));
    started.add(server);
    assertTrue(ChildProcesses.awaitListening("127.0.0.1", port, server, 60_000));
    int runs = Integer.getInteger("can.kill.runs");
    String citizens = System.getProperty("can.kill.citizens", "20");
    String steps = System.getProperty("can.kill.steps", "20");
    long[] delays = {0, 20, 50, 100, 150, 200, 300, 300, 400, 500, 700, 1000};
    Random random = new Random(Long.getLong("can.kill.seed", System.nanoTime()));
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + port).build());
    WorkflowClient client = WorkflowClient.newInstance(service);
    int workers = 0;
    int kills = 0;
    Process worker = worker(workers++);
    try {
      for (int run = 0; run < runs; run++) {
        String id = "can-kill-" + run;
        ProcessBuilder simulate = new ProcessBuilder(ChildProcesses.javaBinary(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC", "-cp", ChildProcesses.classpath(), StarterMain.class.getName(), "simulate",
            "--no-wait", "--id", id, "--steps", steps, "--continue-as-new-every", "2", "--citizens", citizens,
            "--seed", Integer.toString(run))
            .redirectErrorStream(true).redirectOutput(dir.resolve("simulate-" + run + ".out").toFile());
        simulate.environment().put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
        Process sim = simulate.start();
        started.add(sim);
        assertTrue(sim.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, sim.exitValue(), Files.readString(dir.resolve("simulate-" + run + ".out")));
        String lastRun = "";
        long lastChange = System.nanoTime();
        long lastHistoryLength = -1;
        long nextCheck = 0;
        while (true) {
          DescribeWorkflowExecutionResponse d = describe(service, id);
          WorkflowExecutionStatus status = d.getWorkflowExecutionInfo().getStatus();
          String runId = d.getWorkflowExecutionInfo().getExecution().getRunId();
          if (status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
            System.out.printf("run %s ended %s after %d kills so far%n", id, status, kills);
            break;
          }
          long length = d.getWorkflowExecutionInfo().getHistoryLength();
          if (!runId.equals(lastRun) || length != lastHistoryLength) {
            lastChange = System.nanoTime();
            lastHistoryLength = length;
          }
          if (!lastRun.isEmpty() && !runId.equals(lastRun)) {
            long delay = random.nextInt(3) == 0 ? random.nextInt(1001) : delays[kills % delays.length];
            Thread.sleep(delay);
            worker.destroyForcibly().waitFor();
            kills++;
            System.out.printf("kill %d: %s run %s, %d ms after it continued as new%n", kills, id,
                runId.substring(0, 8), delay);
            worker = worker(workers++);
          }
          lastRun = runId;
          Optional<FailingWorkflowTask> failing = Optional.empty();
          if (System.nanoTime() > nextCheck) {
            failing = FailingWorkflowTask.of(service, "default", id, true);
            nextCheck = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
          }
          boolean stalled = System.nanoTime() - lastChange > TimeUnit.SECONDS.toNanos(90);
          if (failing.isPresent() || stalled) {
            System.out.println("STUCK " + id + ": " + failing.map(FailingWorkflowTask::describe).orElse("no progress for 90 s"));
            for (WorkflowExecutionHistory h : HistoryCommand.allRuns(client, id)) {
              Files.writeString(dir.resolve(id + "-" + h.getWorkflowExecution().getRunId() + ".json"), h.toJson(true));
            }
            throw new AssertionError("stuck: " + id + " after " + kills + " kills");
          }
          Thread.sleep(10);
        }
      }
      System.out.printf("no stuck run in %d runs, %d kills%n", runs, kills);
    } finally {
      service.shutdownNow();
    }
  }

  private static DescribeWorkflowExecutionResponse describe(WorkflowServiceStubs service, String id) {
    return service.blockingStub().withDeadlineAfter(5, TimeUnit.SECONDS).describeWorkflowExecution(
        DescribeWorkflowExecutionRequest.newBuilder().setNamespace("default")
            .setExecution(WorkflowExecution.newBuilder().setWorkflowId(id)).build());
  }
}
