package io.durableagents.starter.benchmark;

import static io.durableagents.starter.benchmark.MachineReadings.cpuMillis;

import com.sun.net.httpserver.HttpServer;
import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationResult;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmark's profile part ({@code --parts profile}): where an agent step's CPU time goes, by part. It
 * runs Epstein simulations (CoT, the rules model at L = 0) of each shape ({@code --agents-per-workflow}) and
 * size ({@code --agents}, {@code --steps}) on each server of {@code --servers}, with each worker
 * configuration of {@code --profile-workers}; the worker's JVM (and the in-memory server's) records JFR, the
 * dev server's process is sampled with perf ({@link GoProfile}) and its metrics are read ({@link
 * ServerMetrics}). Each run's CPU time, read from /proc per thread, is then split by part ({@link JfrParts},
 * {@link StackRules}) and printed side by side ({@link ProfileReport}).
 *
 * <pre>{@code
 * java -jar starter/target/durable-agents.jar benchmark --parts profile --servers in-memory,dev-server \
 *     --agents 200 --steps 3 --agents-per-workflow 1,50
 * }</pre>
 */
final class ProfileBenchmark {
  private final BenchmarkCommand bench;
  private final Path dir;
  private final Path cli;

  ProfileBenchmark(BenchmarkCommand bench) {
    this.bench = bench;
    this.dir = bench.logs.resolve("profile-" + System.currentTimeMillis());
    this.cli = io.durableagents.devserver.TemporalCli.find(System.getenv(), Path.of("")).orElse(null);
  }

  /** The JVM options that record JFR into {@code file} for the whole life of the JVM. */
  static Map<String, String> jfr(Path file) {
    return Map.of(ChildProcesses.CHILD_JVM_OPTIONS, "-XX:StartFlightRecording=filename=" + file
        + ",settings=profile,dumponexit=true");
  }

  void run() throws Exception {
    Files.createDirectories(dir);
    Optional<GoProfile> go = GoProfile.find();
    List<ProfileRow> rows = new ArrayList<>();
    String loadAtStart = MachineReadings.loadAverage();
    AtomicLong otlpBytes = new AtomicLong();
    HttpServer sink = otlpSink(otlpBytes);
    try {
      for (BenchmarkServer.Kind kind : bench.serverKinds) {
        Path serverJfr = dir.resolve("server-" + kind.label + ".jfr");
        startServer(kind, kind == BenchmarkServer.Kind.IN_MEMORY ? jfr(serverJfr) : Map.of());
        List<ProfileRow> kindRows = new ArrayList<>();
        try {
          for (ProfileOptions.Worker w : bench.profile.workers) {
            kindRows.addAll(profileWorker(kind, w, go, sink, otlpBytes));
          }
        } finally {
          // stops the profiled server (its JVM writes its recording as it exits)
          startServer(BenchmarkServer.Kind.IN_MEMORY, Map.of());
        }
        if (kind == BenchmarkServer.Kind.IN_MEMORY) {
          List<ProfileRow> measured = kindRows.stream().filter(r -> r.window != null).toList();
          List<JfrParts.Samples> samples = JfrParts.read(serverJfr, StackRules.JAVA,
              measured.stream().map(r -> r.window).toList());
          for (int i = 0; i < measured.size(); i++) {
            ProfileRow r = measured.get(i);
            r.serverParts = JfrParts.cpuByPart(samples.get(i), r.serverThreads, r.serverCpuMs);
            r.serverDeciding = samples.get(i).deciding;
          }
        }
        rows.addAll(kindRows);
      }
    } finally {
      sink.stop(0);
    }
    new ProfileReport(bench, rows, loadAtStart, go.isPresent()).print();
  }

  /** A worker of configuration {@code w} on the current server: warmed up, then each row measured; its JFR read. */
  private List<ProfileRow> profileWorker(BenchmarkServer.Kind kind, ProfileOptions.Worker w, Optional<GoProfile> go,
      HttpServer sink, AtomicLong otlpBytes) throws Exception {
    Path workerJfr = dir.resolve("worker-" + kind.label + "-" + w.label + ".jfr");
    Map<String, String> env = new HashMap<>(jfr(workerJfr));
    env.put("DURABLE_AGENTS_STICKY", "auto");
    env.put(io.durableagents.worker.WorkerSettings.EAGER_LLM_CALLS, Boolean.toString(bench.eagerLlmCalls.get(0)));
    env.putAll(w.env("http://127.0.0.1:" + sink.getAddress().getPort() + "/v1/traces",
        dir.resolve("journal-" + kind.label + ".log").toAbsolutePath()));
    List<ProfileRow> rows = new ArrayList<>();
    BenchmarkWorker worker = BenchmarkWorker.start(bench, "profile-" + kind.label + "-" + w.label + "-"
        + System.nanoTime(), ChildProcesses.javaBinary(), env);
    try {
      bench.warmUp("bench-profile-warm-");
      for (int perWorkflow : bench.agentsPerWorkflow) {
        for (int n : bench.agents) {
          ProfileRow row = new ProfileRow(kind, w, n, perWorkflow);
          rows.add(row);
          measure(row, worker, go, otlpBytes);
          if (row.failed != null) {
            System.out.println("  profile: " + row.label(true) + " did not finish: " + row.failed);
            if (!worker.alive()) {
              return rows;
            }
          } else {
            System.out.printf(Locale.ROOT, "  profile: %s %.1f s, %.1f + %.1f CPU ms per agent step%n", row.label(true),
                row.wall, row.perStep(row.workerCpuMs), row.perStep(row.serverCpuMs));
          }
        }
      }
    } finally {
      worker.stop(); // its JVM writes its recording as it exits
      List<ProfileRow> measured = rows.stream().filter(r -> r.window != null).toList();
      List<JfrParts.Samples> samples = JfrParts.read(workerJfr, StackRules.JAVA,
          measured.stream().map(r -> r.window).toList());
      for (int i = 0; i < measured.size(); i++) {
        ProfileRow r = measured.get(i);
        r.workerParts = JfrParts.cpuByPart(samples.get(i), r.workerThreads, r.workerCpuMs);
        r.workerAllocated = samples.get(i).allocatedBytes;
        r.workerDeciding = samples.get(i).deciding;
      }
    }
    return rows;
  }

  /** Runs one row: reads the processes' and threads' CPU before and after, the dev server's metrics and perf. */
  private void measure(ProfileRow row, BenchmarkWorker worker, Optional<GoProfile> go, AtomicLong otlpBytes)
      throws Exception {
    boolean dev = row.kind == BenchmarkServer.Kind.DEV_SERVER;
    long cliPid = dev ? cliPid() : -1;
    String metricsUrl = dev ? ServerMetrics.urlIn(bench.server.log()).orElse(null) : null;
    Map<String, double[]> persistence0 = metricsUrl == null ? null : ServerMetrics.persistence(ServerMetrics.scrape(metricsUrl));
    Path perfData = dir.resolve("perf-" + row.worker.label + "-" + row.perWorkflow + "-" + row.agents + ".data");
    Process perf = null;
    if (dev && go.isPresent() && cliPid > 0) {
      try {
        perf = go.get().start(cliPid, perfData, dir.resolve("perf.log"));
      } catch (IOException e) {
        row.noGoProfile = e.getMessage();
      }
    } else if (dev) {
      row.noGoProfile = cliPid <= 0 ? "the Temporal CLI's process was not found" : "perf or go not found";
    }
    Map<Long, ThreadCpu.Thread> workerThreads0 = ThreadCpu.of(worker.pid());
    Map<Long, ThreadCpu.Thread> serverThreads0 = dev ? Map.of() : ThreadCpu.of(bench.server.pid());
    double worker0 = cpuMillis(worker.pid());
    double server0 = bench.server.cpuMillis();
    double cli0 = dev ? cpuMillis(cliPid) : 0;
    long otlp0 = otlpBytes.get();
    Instant start = Instant.now();
    long t0 = System.nanoTime();
    String id = "bench-profile-" + row.agents + "-" + row.perWorkflow + "-" + System.nanoTime();
    SimulationResult r;
    try {
      r = new WatchedSimulation(bench).run(bench.simulationInput(row.agents, bench.steps, 0, Strategy.COT, 1)
          .withAgentsPerWorkflow(row.perWorkflow), id, worker);
    } catch (WatchedSimulation.StuckRun e) {
      row.failed = e.getMessage();
      if (perf != null) {
        go.get().stop(perf);
      }
      return;
    }
    row.wall = (System.nanoTime() - t0) / 1e9;
    row.window = new JfrParts.Window(start, Instant.now());
    row.workerCpuMs = cpuMillis(worker.pid()) - worker0;
    row.serverCpuMs = bench.server.cpuMillis() - server0;
    row.workerThreads = ThreadCpu.delta(workerThreads0, ThreadCpu.of(worker.pid()));
    if (dev) {
      row.cliCpuMs = cpuMillis(cliPid) - cli0;
    } else {
      row.serverThreads = ThreadCpu.delta(serverThreads0, ThreadCpu.of(bench.server.pid()));
    }
    row.agentSteps = r.agentSteps();
    row.loadAverage = MachineReadings.loadAverage();
    if (metricsUrl != null) {
      row.persistence = ServerMetrics.delta(persistence0, ServerMetrics.persistence(ServerMetrics.scrape(metricsUrl)));
    }
    if (perf != null) {
      go.get().stop(perf);
      try {
        row.go = go.get().read(perfData, Path.of("/proc", Long.toString(cliPid), "exe").toRealPath());
      } catch (IOException e) {
        row.noGoProfile = "perf's samples could not be read: " + e.getMessage();
      }
    }
    // the exporter sends what it batched every few seconds: what arrives until the next run is this one's
    row.otlpBytes = otlpBytes.get() - otlp0;
  }

  /** The Temporal CLI's process, a descendant of the current dev server's JVM; -1 if none is found. */
  private long cliPid() {
    return ProcessHandle.of(bench.server.pid()).stream().flatMap(ProcessHandle::descendants)
        .filter(h -> h.info().commandLine().map(c -> c.contains("start-dev")).orElse(false)
            || h.info().command().map(c -> c.endsWith("/temporal")).orElse(false))
        .mapToLong(ProcessHandle::pid).findFirst().orElse(-1);
  }

  /** Stops the current server and its client, and starts a fresh server of {@code kind} with {@code env}. */
  private void startServer(BenchmarkServer.Kind kind, Map<String, String> env) throws Exception {
    bench.service.shutdownNow();
    bench.server.stop();
    bench.server = BenchmarkServer.start(kind, bench.serverHeap == null ? "2g" : bench.serverHeap, bench.logs, cli, env);
    bench.port = bench.server.port;
    bench.connect();
  }

  /**
   * An OTLP/HTTP receiver that takes the instrumented worker's trace exports and answers each with an empty
   * (valid) response, counting their bytes: the worker's tracing cost is then its own, with nowhere slow to send.
   */
  static HttpServer otlpSink(AtomicLong bytes) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      try (InputStream in = exchange.getRequestBody()) {
        bytes.addAndGet(in.transferTo(java.io.OutputStream.nullOutputStream()));
      }
      exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.start();
    return server;
  }
}
