package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.durableagents.starter.view.ViewServer;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.worker.WorkerFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What an open page of {@code durable-agents view} costs a run: a 500-agent Epstein simulation (450 citizens,
 * 50 cops, 10 steps, groups of 50, the rules model) on Temporal's real dev server with one worker in this
 * JVM, run without a page and with one (a Server-Sent Events stream open on it from its start to its end),
 * in the order warm-up, without, with, with, without (so that a drift of the machine cancels out), and
 * prints each run's wall time and the ratio of the means. Not part of the build: run it by name,
 * {@code ./mvnw -o -pl starter -am test -Dtest=ViewCostBenchmark -Dsurefire.failIfNoSpecifiedTests=false},
 * on a quiet machine.
 */
class ViewCostBenchmark {
  private static final String[] RUN = {"--steps", "10", "--citizens", "450", "--cops", "50", "--width", "40",
      "--height", "40", "--agents-per-workflow", "50", "--no-wait"};

  @Test
  void anOpenPageCostsTheRunNothingMeasurable() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "view-benchmark"));
    int port = RealDevServer.freePort();
    Process server = RealDevServer.startFresh(dir, port);
    String address = "127.0.0.1:" + port;
    TemporalConnection connection = TemporalConnection.fromEnvironment(Map.of("TEMPORAL_ADDRESS", address));
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder()
        .configureFromEnvironment(Map.of("TEMPORAL_ADDRESS", address)).configureFromClasspath().build();
    WorkerFactory worker = WorkerFactory.newInstance(connection.client(service, "view-benchmark-worker", plugin));
    worker.start();
    WorkflowClient client = connection.client(service);
    ViewServer view = new ViewServer("127.0.0.1", 0, client, null, null, address, null);
    try {
      List<String> order = List.of("warm-up", "without", "with", "with", "without");
      Map<String, List<Double>> seconds = new HashMap<>();
      for (int i = 0; i < order.size(); i++) {
        String kind = order.get(i);
        double s = run(client, view, address, "bench-view-" + i, kind.equals("with"));
        System.out.printf("ViewCostBenchmark: %-8s %6.1f s%n", kind, s);
        seconds.computeIfAbsent(kind, k -> new ArrayList<>()).add(s);
      }
      double without = seconds.get("without").stream().mapToDouble(Double::doubleValue).average().orElseThrow();
      double with = seconds.get("with").stream().mapToDouble(Double::doubleValue).average().orElseThrow();
      System.out.printf("ViewCostBenchmark: 500 agents x 10 steps: without a page %.1f s, with one %.1f s: "
          + "ratio %.3f (queries of the last run with a page: %s)%n", without, with, with / without,
          view.queries("bench-view-3"));
    } finally {
      view.close();
      worker.shutdownNow();
      worker.awaitTermination(20, TimeUnit.SECONDS);
      service.shutdownNow();
      RealDevServer.stop(server);
    }
  }

  private static double run(WorkflowClient client, ViewServer view, String address, String id, boolean page)
      throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("TEMPORAL_ADDRESS", address);
    env.put("DURABLE_AGENTS_MODEL", null);
    List<String> args = new ArrayList<>(List.of("simulate", "--id", id));
    args.addAll(List.of(RUN));
    long started = System.nanoTime();
    CliFailuresTest.Run start = CliFailuresTest.run(env, args.toArray(String[]::new));
    assertEquals(0, start.exitCode(), start.out() + start.err());
    CompletableFuture<?> stream = null;
    if (page) {
      stream = HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + view.port() + "/api/simulations/" + id + "/events")).build(),
          HttpResponse.BodyHandlers.ofLines()).thenAccept(r -> r.body().forEach(line -> { }));
    }
    SimulationResult result = client.newUntypedWorkflowStub(id).getResult(20, TimeUnit.MINUTES, SimulationResult.class);
    double s = (System.nanoTime() - started) / 1e9;
    if (stream != null) {
      stream.cancel(true);
    }
    assertEquals(10, result.steps());
    return s;
  }
}
