package io.durableagents.worker;

import com.uber.m3.tally.Buckets;
import com.uber.m3.tally.Capabilities;
import com.uber.m3.tally.StatsReporter;
import com.uber.m3.util.Duration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.temporal.common.reporter.MicrometerClientStatsReporter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Temporal's {@link MicrometerClientStatsReporter}, with the timers it records kept once made. Tally
 * hands every timer sample (each gRPC call's latency, each task's schedule-to-start and execution
 * time) straight to the reporter, and Temporal's reporter builds the timer again for each sample: its
 * tags sorted, its id made and looked up in the registry. With a few thousand agent steps a second
 * that was several percent of a worker's CPU. The timers are the same (same names, tags and
 * percentile histograms); counters, gauges and histograms go to Temporal's reporter as before.
 */
final class CachedTimerStatsReporter implements StatsReporter {
  private final MeterRegistry registry;
  private final MicrometerClientStatsReporter delegate;
  private final Map<TimerKey, Timer> timers = new ConcurrentHashMap<>();

  private record TimerKey(String name, Map<String, String> tags) {}

  CachedTimerStatsReporter(MeterRegistry registry) {
    this.registry = registry;
    this.delegate = new MicrometerClientStatsReporter(registry);
  }

  @Override
  public void reportTimer(String name, Map<String, String> tags, Duration interval) {
    Timer timer = timers.get(new TimerKey(name, tags));
    if (timer == null) {
      // tally's tag maps are immutable: safe as a key
      timer = timers.computeIfAbsent(new TimerKey(name, tags), k -> Timer.builder(name).tags(tagsOf(tags))
          .publishPercentileHistogram(true).register(registry));
    }
    timer.record(interval.getNanos(), TimeUnit.NANOSECONDS);
  }

  private static List<Tag> tagsOf(Map<String, String> tags) {
    List<Tag> list = new ArrayList<>();
    if (tags != null) {
      tags.forEach((k, v) -> list.add(Tag.of(k, v)));
    }
    return list;
  }

  @Override
  public void reportCounter(String name, Map<String, String> tags, long value) {
    delegate.reportCounter(name, tags, value);
  }

  @Override
  public void reportGauge(String name, Map<String, String> tags, double value) {
    delegate.reportGauge(name, tags, value);
  }

  @Override
  public void reportHistogramValueSamples(String name, Map<String, String> tags, Buckets buckets,
      double bucketLowerBound, double bucketUpperBound, long samples) {
    delegate.reportHistogramValueSamples(name, tags, buckets, bucketLowerBound, bucketUpperBound, samples);
  }

  @Override
  public void reportHistogramDurationSamples(String name, Map<String, String> tags, Buckets buckets,
      Duration bucketLowerBound, Duration bucketUpperBound, long samples) {
    delegate.reportHistogramDurationSamples(name, tags, buckets, bucketLowerBound, bucketUpperBound, samples);
  }

  @Override
  public Capabilities capabilities() {
    return delegate.capabilities();
  }

  @Override
  public void flush() {
    delegate.flush();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
