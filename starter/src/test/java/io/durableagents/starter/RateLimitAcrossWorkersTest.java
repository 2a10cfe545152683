package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.worker.WorkerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code DURABLE_AGENTS_LLM_RATE_LIMIT} across workers, on Temporal's real dev server: each worker spaces
 * its own calls, so two workers alone would start up to twice the limit; the server's task queue rate
 * ({@code maxTaskQueueActivitiesPerSecond}, which the in-memory Temporal ignores) holds all of them to
 * it. Two workers with a limit of 4 calls a second run a simulation's 120 LLM calls; the calls they
 * started, read from their execution journal, keep to the limit over every 10 s (with the burst the
 * server lets through after an idle moment), where each worker alone would allow 1.8 times as many,
 * and both workers took calls.
 */
class RateLimitAcrossWorkersTest {
  private static final int LIMIT = 4;
  /** A namespace of its own on the shared dev server: the rate is its LLM task queue's alone. */
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("rate-limit-across-workers");
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void stopAll() throws InterruptedException {
    PersistentDevServerIT.stop(started);
  }

  @Test
  void twoWorkersTogetherKeepToTheTaskQueuesRate() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "rate-limit-across-workers"));
    Path journal = dir.resolve("journal.log");
    Files.deleteIfExists(journal);
    Map<String, String> env = temporal.env(Map.of(WorkerSettings.LLM_RATE_LIMIT, Integer.toString(LIMIT),
        "DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString()));
    for (int i = 1; i <= 2; i++) {
      started.add(ChildProcesses.start("256m", dir.resolve("worker-" + i + ".log").toFile(), env, "worker"));
    }
    Path out = dir.resolve("simulate.log");
    Files.deleteIfExists(out);
    Process sim = ChildProcesses.start("256m", out.toFile(), temporal.env(),
        "simulate", "--id", "rate-limited", "--steps", "2", "--citizens", "24", "--cops", "6",
        "--progress", "lines");
    started.add(sim);
    assertTrue(sim.waitFor(300, TimeUnit.SECONDS), "the simulation did not finish: " + Files.readString(out));
    assertEquals(0, sim.exitValue(), Files.readString(out));

    List<String[]> starts = Files.readAllLines(journal).stream().map(l -> l.split("\t"))
        .filter(f -> f[1].equals("start") && f[5].equals("LlmChat")).toList();
    Set<String> workers = starts.stream().map(f -> f[6]).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(2, workers.size(), "both workers took LLM calls: " + workers);
    List<Long> times = starts.stream().map(f -> Long.parseLong(f[0])).sorted().toList();
    int busiestSecond = busiest(times, 1_000);
    int busiestTenSeconds = busiest(times, 10_000);
    double seconds = (times.get(times.size() - 1) - times.get(0)) / 1000.0;
    System.out.printf("%d LLM calls on %d workers in %.1f s: busiest second %d, busiest 10 s %d (limit %d a second)%n",
        times.size(), workers.size(), seconds, busiestSecond, busiestTenSeconds, LIMIT);
    // each worker alone spaces its calls 1.1/LIMIT s apart: two would start 2 x 36 = 72 calls in 10 s. The
    // server holds them together to the limit, after letting a burst through when the queue was idle
    // (a step's first calls): at most three seconds' worth more than the limit over any 10 s.
    assertTrue(busiestTenSeconds <= 13 * LIMIT, "the busiest 10 s had " + busiestTenSeconds + " calls; the limit "
        + "is " + LIMIT + " a second (each worker alone would allow " + (int) (10 * LIMIT / 1.1) + ")");
  }

  /** The most calls that started within any window of {@code millis}. */
  private static int busiest(List<Long> times, long millis) {
    int busiest = 0;
    for (int i = 0, j = 0; i < times.size(); i++) {
      while (times.get(i) - times.get(j) >= millis) {
        j++;
      }
      busiest = Math.max(busiest, i - j + 1);
    }
    return busiest;
  }
}
