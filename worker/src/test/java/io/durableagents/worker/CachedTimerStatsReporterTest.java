package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.uber.m3.tally.RootScopeBuilder;
import com.uber.m3.tally.Scope;
import com.uber.m3.util.Duration;
import com.uber.m3.util.ImmutableMap;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.common.reporter.MicrometerClientStatsReporter;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The cached reporter records what Temporal's reporter records: the same timers, counts and totals. */
class CachedTimerStatsReporterTest {
  private static void record(MeterRegistry registry, boolean cached) {
    Scope scope = new RootScopeBuilder()
        .reporter(cached ? new CachedTimerStatsReporter(registry) : new MicrometerClientStatsReporter(registry))
        .reportEvery(com.uber.m3.util.Duration.ofSeconds(1));
    Scope poll = scope.tagged(ImmutableMap.of("operation", "PollWorkflowTaskQueue"));
    Scope other = scope.tagged(ImmutableMap.of("operation", "RespondWorkflowTaskCompleted"));
    for (int i = 1; i <= 5; i++) {
      poll.timer("temporal_request_latency").record(Duration.ofMillis(i));
      // a new map equal to the first: the same timer
      scope.tagged(Map.of("operation", "PollWorkflowTaskQueue")).timer("temporal_request_latency")
          .record(Duration.ofMillis(10));
    }
    other.timer("temporal_request_latency").record(Duration.ofMillis(7));
  }

  @Test
  void timersAreTheSameAsTemporalsReporterMakes() {
    MeterRegistry plain = new SimpleMeterRegistry();
    MeterRegistry cached = new SimpleMeterRegistry();
    record(plain, false);
    record(cached, true);
    for (String operation : new String[] {"PollWorkflowTaskQueue", "RespondWorkflowTaskCompleted"}) {
      Timer a = plain.find("temporal_request_latency").tag("operation", operation).timer();
      Timer b = cached.find("temporal_request_latency").tag("operation", operation).timer();
      assertNotNull(a);
      assertNotNull(b);
      assertEquals(a.getId(), b.getId());
      assertEquals(a.count(), b.count());
      assertEquals(a.totalTime(TimeUnit.MILLISECONDS), b.totalTime(TimeUnit.MILLISECONDS), 0.001);
    }
    assertEquals(10, cached.find("temporal_request_latency").tag("operation", "PollWorkflowTaskQueue").timer().count());
    assertEquals(plain.getMeters().size(), cached.getMeters().size());
  }
}
