package io.durableagents.starter.benchmark;

import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.starter.local.ClassDataArchive;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A benchmark's worker: {@code durable-agents worker} in its own JVM, reaching the benchmark's server, with
 * its metrics endpoint sampled every second for heap and threads; stopped gracefully or killed with kill -9.
 * Its JVM starts as the worker {@code demo} and {@code agent} start does: with the {@code worker} command's
 * class-data sharing archive ({@link ClassDataArchive}, made at the exit of the first worker that has none,
 * mapped by every later one; off with {@value ClassDataArchive#VARIABLE}{@code =off}), so that a cold
 * worker's numbers are those a user's second and later runs see.
 */
final class BenchmarkWorker {
  /** The worker's heap (the scale part's 10,000-agent goal of issue 16 is to stay within 2 GB). */
  static final String HEAP = "2g";

  private final Process process;
  private ClassDataArchive archive = ClassDataArchive.none();
  private boolean cameUp;
  private File log;
  private final int metricsPort;
  private final String label;
  private final Thread sampler;
  private volatile boolean sampling = true;
  private volatile double maxHeap;
  private volatile double maxThreads;

  private BenchmarkWorker(Process process, int metricsPort, String label) {
    this.process = process;
    this.metricsPort = metricsPort;
    this.label = label;
    this.sampler = new Thread(this::sample, "benchmark-sampler");
    sampler.setDaemon(true);
  }

  static BenchmarkWorker start(BenchmarkCommand bench, String name, String java, Map<String, String> extraEnv)
      throws Exception {
    int metricsPort;
    try (ServerSocket s = new ServerSocket(0)) {
      metricsPort = s.getLocalPort();
    }
    Map<String, String> env = new HashMap<>(extraEnv);
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + bench.port);
    env.put("DURABLE_AGENTS_METRICS_PORT", Integer.toString(metricsPort));
    File log = bench.logs.resolve("worker-" + name + ".log").toFile();
    int feature = MachineReadings.javaFeature(java);
    ClassDataArchive archive = ClassDataArchive.forChildOfThisJar(env, java, feature, "worker");
    Process p = ChildProcesses.start(java, feature, HEAP, log, env, archive.jvmOptions(), "worker");
    BenchmarkWorker w = new BenchmarkWorker(p, metricsPort, MachineReadings.javaLabel(java));
    w.log = log;
    w.archive = archive;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!w.healthy()) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("the worker did not start; see " + log);
      }
      Thread.sleep(100);
    }
    w.cameUp = true;
    w.sampler.start();
    return w;
  }

  private boolean healthy() {
    try {
      return get("/health").statusCode() == 200;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + path))
            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private void sample() {
    Pattern heap = Pattern.compile("^jvm_memory_used_bytes\\{[^}]*area=\"heap\"[^}]*\\} ([0-9.eE+-]+)$",
        Pattern.MULTILINE);
    Pattern threads = Pattern.compile("^jvm_threads_live_threads(?:\\{[^}]*\\})? ([0-9.eE+-]+)$",
        Pattern.MULTILINE);
    while (sampling) {
      try {
        // the two gauges only: rendering every series each second would be the benchmark's cost, not the run's
        String body = get("/metrics?name%5B%5D=jvm_memory_used_bytes&name%5B%5D=jvm_threads_live_threads").body();
        double h = 0;
        Matcher m = heap.matcher(body);
        while (m.find()) {
          h += Double.parseDouble(m.group(1));
        }
        maxHeap = Math.max(maxHeap, h);
        Matcher t = threads.matcher(body);
        if (t.find()) {
          maxThreads = Math.max(maxThreads, Double.parseDouble(t.group(1)));
        }
        Thread.sleep(1000);
      } catch (IOException | RuntimeException e) {
        // the worker is busy or gone: try again
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process.isAlive();
  }

  /** The worker's log file. */
  File log() {
    return log;
  }

  void resetSamples() {
    maxHeap = 0;
    maxThreads = 0;
  }

  long maxHeapMb() {
    return Math.round(maxHeap / (1 << 20));
  }

  long maxThreads() {
    return Math.round(maxThreads);
  }

  /** Whether this worker's JVM mapped the class-data archive, rather than made it (or had none). */
  String archiveState() {
    return archive.file() == null ? "none" : archive.makes() ? "made by this worker" : "mapped";
  }

  void kill() throws InterruptedException {
    sampling = false;
    process.destroyForcibly().waitFor();
    archive.discard(process);
  }

  /** Stops it gracefully (a first run writes its class-data archive at exit: seconds), or kills it after 60 s. */
  void stop() throws InterruptedException {
    sampling = false;
    process.destroy();
    if (!process.waitFor(archive.makes() ? 60 : 30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    if (cameUp) {
      archive.settle(process);
    } else {
      archive.discard(process);
    }
  }
}
