package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A real server suggests continue-as-new when a run's history passes its thresholds (4,096 events or
 * 4 MB by default; the in-memory Temporal never suggests it), and a simulation follows the suggestion
 * at the next step boundary whatever {@code --continue-as-new-every} says. Here the dev server suggests
 * it after 100 events (a step of this 6-agent world writes about 30): a run told to continue every 1,000
 * steps continues as new at least once, and ends with the same steps as the same seed continued every 2
 * steps. The commands and the worker run in this JVM (a JVM each cost more than their runs).
 */
class ContinueAsNewSuggestedTest {
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void stopAll() throws InterruptedException {
    PersistentDevServerIT.stop(started);
  }

  @Test
  void aSimulationContinuesAsNewWhenTheServerSuggestsIt() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "continue-as-new-suggested"));
    int port = RealDevServer.freePort();
    started.add(RealDevServer.startFresh(dir, port, "--dynamic-config-value",
        "limit.historyCount.suggestContinueAsNew=100"));
    Map<String, String> env = Map.of("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    // the worker in this JVM, as the commands are: a worker JVM's start cost more than the runs
    TemporalConnection connection = TemporalConnection.fromEnvironment(env);
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    WorkerFactory worker = WorkerFactory.newInstance(connection.client(service, "cans-worker",
        DurableAgentsPlugin.newBuilder().configureFromEnvironment(env).configureFromClasspath().build()));
    worker.start();
    try {
      String[] run = {"simulate", "--steps", "6", "--seed", "3", "--citizens", "5", "--cops", "1",
          "--progress", "lines"};
      // the run continued every 2 steps goes on beside the one the server's suggestion continues
      simulate(dir, env, "every-2", PersistentDevServerIT.concat(run, "--no-wait", "--id", "cans-every-2",
          "--continue-as-new-every", "2"));
      String suggested = simulate(dir, env, "suggested", PersistentDevServerIT.concat(run, "--id", "cans-suggested",
          "--continue-as-new-every", "1000"));
      Matcher runs = Pattern.compile("in (\\d+) runs \\(continue-as-new\\)").matcher(suggested);
      assertTrue(runs.find() && Integer.parseInt(runs.group(1)) > 1,
          "the server's suggestion was not followed: " + suggested);

      WorkflowClient client = WorkflowClient.newInstance(service);
      SimulationResult a = client.newUntypedWorkflowStub("cans-suggested").getResult(SimulationResult.class);
      SimulationResult b = client.newUntypedWorkflowStub("cans-every-2").getResultAsync(SimulationResult.class)
          .get(120, java.util.concurrent.TimeUnit.SECONDS);
      assertEquals(b.perStep(), a.perStep());
      assertEquals(b.finalCounts(), a.finalCounts());
      assertEquals(b.llmCalls(), a.llmCalls());
    } finally {
      worker.shutdownNow();
      worker.awaitTermination(20, java.util.concurrent.TimeUnit.SECONDS);
      service.shutdownNow();
    }
  }

  private String simulate(Path dir, Map<String, String> env, String name, String... args) throws Exception {
    Map<String, String> overlay = new java.util.HashMap<>(env);
    overlay.put("DURABLE_AGENTS_DEBUG", null);
    overlay.put("DURABLE_AGENTS_MODEL", null);
    CliFailuresTest.Run r = CliFailuresTest.run(overlay, args);
    String text = r.out() + r.err();
    Files.writeString(dir.resolve(name + ".log"), text);
    assertEquals(0, r.exitCode(), text);
    return text;
  }
}
