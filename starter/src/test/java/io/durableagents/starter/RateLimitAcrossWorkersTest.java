package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.worker.WorkerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code DURABLE_AGENTS_LLM_RATE_LIMIT} across workers, on Temporal's real dev server: each worker spaces
 * its own calls, so two workers alone would start up to twice the limit; the server's task queue rate
 * ({@code maxTaskQueueActivitiesPerSecond}, which the in-memory Temporal ignores) holds all of them to
 * it. Two workers with a limit of 4 calls a second run a simulation's 80 LLM calls (more than two workers
 * without the server's rate would start in 10 s); the calls they started, read from their execution
 * journals, keep to the limit over every 10 s (with the burst the server lets through after an idle
 * moment), where each worker alone would allow 1.8 times as many, and both workers took calls. The
 * workers run in this JVM, each with its own limiter and spacing as a worker process has.
 */
class RateLimitAcrossWorkersTest {
  private static final int LIMIT = 4;
  /** A namespace of its own on the shared dev server: the rate is its LLM task queue's alone. */
  @RegisterExtension
  static final OnSharedDevServer temporal = new OnSharedDevServer("rate-limit-across-workers");

  @Test
  void twoWorkersTogetherKeepToTheTaskQueuesRate() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "rate-limit-across-workers"));
    // a journal each: the calls each worker started
    List<Path> journals = List.of(dir.resolve("journal-1.log"), dir.resolve("journal-2.log"));
    for (Path journal : journals) {
      Files.deleteIfExists(journal);
    }
    // two workers in this JVM: each has its own rate limiter and spacing, as a worker process has, and
    // each poll carries the limit to the server's task queue
    try (WorkerInThisJvm first = WorkerInThisJvm.start("rate-worker-1", env(journals.get(0)));
        WorkerInThisJvm second = WorkerInThisJvm.start("rate-worker-2", env(journals.get(1)))) {
      CliFailuresTest.Run sim = CliFailuresTest.run(temporal.env(), "simulate", "--id", "rate-limited",
          "--steps", "2", "--citizens", "16", "--cops", "4", "--progress", "lines");
      Files.writeString(dir.resolve("simulate.log"), sim.out() + sim.err());
      assertEquals(0, sim.exitCode(), sim.out() + sim.err());
    }

    List<Long> times = new ArrayList<>();
    int workers = 0;
    for (Path journal : journals) {
      List<Long> started = Files.readAllLines(journal).stream().map(l -> l.split("\t"))
          .filter(f -> f[1].equals("start") && f[5].equals("LlmChat")).map(f -> Long.parseLong(f[0])).toList();
      workers += started.isEmpty() ? 0 : 1;
      times.addAll(started);
    }
    assertEquals(2, workers, "both workers took LLM calls: " + journals);
    times.sort(null);
    int busiestSecond = busiest(times, 1_000);
    int busiestTenSeconds = busiest(times, 10_000);
    double seconds = (times.get(times.size() - 1) - times.get(0)) / 1000.0;
    System.out.printf("%d LLM calls on %d workers in %.1f s: busiest second %d, busiest 10 s %d (limit %d a second)%n",
        times.size(), workers, seconds, busiestSecond, busiestTenSeconds, LIMIT);
    // each worker alone spaces its calls 1.1/LIMIT s apart: two would start 2 x 36 = 72 calls in 10 s. The
    // server holds them together to the limit, after letting a burst through when the queue was idle
    // (a step's first calls): at most three seconds' worth more than the limit over any 10 s.
    assertTrue(busiestTenSeconds <= 13 * LIMIT, "the busiest 10 s had " + busiestTenSeconds + " calls; the limit "
        + "is " + LIMIT + " a second (each worker alone would allow " + (int) (10 * LIMIT / 1.1) + ")");
  }

  /** A worker's settings: the limit, its own journal, the class's namespace. */
  private static Map<String, String> env(Path journal) {
    return temporal.env(Map.of(WorkerSettings.LLM_RATE_LIMIT, Integer.toString(LIMIT),
        "DURABLE_AGENTS_EXECUTION_LOG", journal.toAbsolutePath().toString()));
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
