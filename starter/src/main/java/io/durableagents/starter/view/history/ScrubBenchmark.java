package io.durableagents.starter.view.history;

import io.durableagents.devserver.DevServer;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.TemporalDevServer;
import io.temporal.testing.TemporalDevServerOptions;
import io.temporal.worker.WorkerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The view's scrubbing, measured (issue 29 item 7): a 1,000-step Epstein run of a small world with the
 * offline rules model, then 20 random steps read through {@link ReplayedPast} as the view's step slider
 * reads them (the first read of the run, then each new step, then the same 20 again), each read's time,
 * histories fetched and prefixes replayed printed. A program that prints numbers, not a test:
 *
 * <pre>{@code
 * java -cp starter/target/durable-agents.jar io.durableagents.starter.view.history.ScrubBenchmark [steps] [cli]
 * }</pre>
 *
 * <p>With the path of a Temporal CLI as second argument it runs on that CLI's dev server (SQLite in a
 * temporary directory); without, on the in-memory Temporal the command line embeds.
 */
public final class ScrubBenchmark {
  private ScrubBenchmark() {}

  public static void main(String[] args) throws Exception {
    int steps = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    String cli = args.length > 1 ? args[1] : null;
    DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().configureFromClasspath().build();
    AutoCloseable server;
    String target;
    if (cli == null) {
      DevServer inMemory = DevServer.start("127.0.0.1", 0);
      server = inMemory;
      target = "127.0.0.1:" + inMemory.port();
    } else {
      Path dir = Files.createTempDirectory("scrub-benchmark");
      TemporalDevServer dev = TemporalDevServer.start(TemporalDevServerOptions.newBuilder().setExistingPath(cli)
          .setIp("127.0.0.1").setDatabaseFilename(dir.resolve("temporal.db").toString()).setUiEnabled(false)
          .setStartupTimeout(Duration.ofSeconds(60)).build());
      server = dev;
      target = dev.getTarget();
    }
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget(target).build());
    try {
      WorkflowClient client = WorkflowClient.newInstance(service,
          WorkflowClientOptions.newBuilder().setPlugins(plugin).build());
      String id = "scrub-" + System.currentTimeMillis();
      SimulationInput input = SimulationInput.of("epstein", steps, 42).withParameters(
          io.durableagents.workflows.scenario.ScenarioParameters.toJson(
              io.durableagents.scenarios.epstein.EpsteinParameters.DEFAULTS.withAgents(10, 2)));
      WorkerFactory factory = WorkerFactory.newInstance(client);
      factory.start();
      long started = System.nanoTime();
      try {
        client.newWorkflowStub(SimulationWorkflow.class, WorkflowOptions.newBuilder()
            .setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build()).run(input);
      } finally {
        factory.shutdownNow();
      }
      System.out.printf(Locale.ROOT, "Recorded %d steps of 12 Epstein agents (rules model, %s) in %.0f s%n", steps,
          cli == null ? "in-memory Temporal" : "the CLI's dev server", (System.nanoTime() - started) / 1e9);

      Random random = new Random(1);
      List<Integer> picked = new ArrayList<>();
      while (picked.size() < 20) {
        int step = 1 + random.nextInt(steps);
        if (!picked.contains(step)) {
          picked.add(step);
        }
      }
      try (ReplayedPast past = new ReplayedPast(client, plugin, null)) {
        System.out.println("| read | step | ms | histories fetched | prefixes replayed |");
        System.out.println("| ---: | ---: | ---: | ---: | ---: |");
        List<Double> later = new ArrayList<>();
        List<Double> again = new ArrayList<>();
        double first = 0;
        for (int round = 0; round < 2; round++) {
          for (int i = 0; i < picked.size(); i++) {
            int fetched = past.fetched();
            int replays = past.replays();
            long t = System.nanoTime();
            past.world(id, picked.get(i));
            double ms = (System.nanoTime() - t) / 1e6;
            if (round == 0 && i == 0) {
              first = ms;
            } else {
              (round == 0 ? later : again).add(ms);
            }
            System.out.printf(Locale.ROOT, "| %d | %d | %.1f | %d | %d |%n", round * picked.size() + i + 1,
                picked.get(i), ms, past.fetched() - fetched, past.replays() - replays);
          }
        }
        System.out.printf(Locale.ROOT, "first read %.0f ms; each new step after it %s ms (min / median / max); "
            + "a step read before %s ms%n", first, spread(later), spread(again));
      }
    } finally {
      service.shutdownNow();
      server.close();
    }
  }

  private static String spread(List<Double> millis) {
    List<Double> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    return String.format(Locale.ROOT, "%.1f / %.1f / %.1f", sorted.get(0), sorted.get(sorted.size() / 2),
        sorted.get(sorted.size() - 1));
  }
}
