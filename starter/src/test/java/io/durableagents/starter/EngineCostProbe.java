package io.durableagents.starter;

import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;

/**
 * What {@link EngineCostBenchmark} measures besides the wall time, the same way on both sides: when each
 * request was at the model server ({@link TimedChatModel}), the machine's load average while a run ran
 * ({@link LoadSampler}), and the CPU time of a process and its children ({@link #cpuSeconds}).
 */
final class EngineCostProbe {
  private EngineCostProbe() {}

  /**
   * The model both sides call, timing every request: from when it is handed to the HTTP client to when
   * its answer is back ({@link System#nanoTime()}). Its target is a client of the run's model server,
   * changed for each run (a fresh server per run), so the worker's registered model stays this one.
   */
  static final class TimedChatModel implements ChatModel {
    private volatile ChatModel target;
    private final ConcurrentLinkedQueue<long[]> calls = new ConcurrentLinkedQueue<>();

    /** Sends the next requests to {@code model} and forgets the calls so far. */
    void retarget(ChatModel model) {
      target = model;
      calls.clear();
    }

    /** Each call since {@link #retarget}: {sent, answered} in nanoseconds. */
    List<long[]> calls() {
      return new ArrayList<>(calls);
    }

    @Override
    public ChatResponse chat(ChatRequest request) {
      long sent = System.nanoTime();
      try {
        return target.chat(request);
      } finally {
        calls.add(new long[] {sent, System.nanoTime()});
      }
    }

    @Override
    public ModelProvider provider() {
      return target.provider();
    }

    @Override
    public ChatRequestParameters defaultRequestParameters() {
      return target.defaultRequestParameters();
    }

    @Override
    public Set<Capability> supportedCapabilities() {
      return target.supportedCapabilities();
    }
  }

  /** Of the time from {@code from} to {@code to} (nanoseconds), the seconds with no call at the model server. */
  static double idleSeconds(List<long[]> calls, long from, long to) {
    List<long[]> sorted = calls.stream().sorted(Comparator.comparingLong(c -> c[0])).toList();
    long idle = 0;
    long covered = from;
    for (long[] c : sorted) {
      if (c[0] > covered) {
        idle += Math.min(c[0], to) - covered;
      }
      covered = Math.max(covered, c[1]);
    }
    idle += Math.max(0, to - covered);
    return idle / 1e9;
  }

  /** The mean number of calls at the model server at once from {@code from} to {@code to}. */
  static double meanInFlight(List<long[]> calls, long from, long to) {
    double busy = calls.stream().mapToLong(c -> Math.min(c[1], to) - Math.max(c[0], from)).filter(d -> d > 0).sum();
    return busy / (to - from);
  }

  /** The mean seconds a call spent at the model server. */
  static double meanCallSeconds(List<long[]> calls) {
    return calls.stream().mapToLong(c -> c[1] - c[0]).average().orElse(0) / 1e9;
  }

  /**
   * CPU seconds (user and system) so far of a process, and of its descendants too when {@code withChildren},
   * from {@code /proc}; 0 where unreadable.
   */
  static double cpuSeconds(ProcessHandle process, boolean withChildren) {
    Stream<ProcessHandle> all = withChildren ? Stream.concat(Stream.of(process), process.descendants()) : Stream.of(process);
    return all.mapToLong(EngineCostProbe::ticks).sum() / 100.0;
  }

  private static long ticks(ProcessHandle p) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
      // the fields after the command's closing parenthesis: state is field 3, utime 14, stime 15
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (IOException | RuntimeException gone) {
      return 0;
    }
  }

  /** The one-minute load average, read every second while it runs: its mean and maximum. */
  static final class LoadSampler implements AutoCloseable {
    private final List<Double> samples = new ArrayList<>();
    private final Thread thread;

    LoadSampler() {
      samples.add(load());
      thread = new Thread(() -> {
        try {
          while (!Thread.currentThread().isInterrupted()) {
            Thread.sleep(1000);
            double l = load();
            synchronized (samples) {
              samples.add(l);
            }
          }
        } catch (InterruptedException stop) {
          // done
        }
      }, "engine-cost-load");
      thread.setDaemon(true);
      thread.start();
    }

    static double load() {
      try {
        return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
      } catch (IOException | RuntimeException e) {
        return Double.NaN;
      }
    }

    double mean() {
      synchronized (samples) {
        return samples.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
      }
    }

    double max() {
      synchronized (samples) {
        return samples.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
      }
    }

    @Override
    public void close() throws InterruptedException {
      thread.interrupt();
      thread.join();
      synchronized (samples) {
        samples.add(load());
      }
    }
  }
}
