package io.durableagents.starter.benchmark;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a JFR recording of a JVM (the worker, the in-memory server) for the time windows of measured runs:
 * each window's execution samples ({@code jdk.ExecutionSample}) by thread and {@link StackRules part}, and its
 * allocation samples ({@code jdk.ObjectAllocationSample}, their weight in bytes) by part. {@link #cpuByPart}
 * then splits the CPU time each thread used in the window (read from /proc, {@link ThreadCpu}) by that
 * thread's own samples, so a thread that runs much native code (gRPC's event loop in its system calls) weighs
 * what it used, not what JFR caught of it; threads that run no Java code are their own parts (GC, JIT
 * compilers, JFR).
 *
 * <pre>{@code
 * List<JfrParts.Samples> s = JfrParts.read(recording, StackRules.JAVA, List.of(new JfrParts.Window(t0, t1)));
 * Map<String, Double> ms = JfrParts.cpuByPart(s.get(0), ThreadCpu.delta(before, after), processMs);
 * }</pre>
 */
final class JfrParts {
  private JfrParts() {}

  /** A measured run's time window. */
  record Window(Instant start, Instant end) {
    boolean contains(Instant t) {
      return !t.isBefore(start) && !t.isAfter(end);
    }
  }

  /** What a recording holds for one window. */
  static final class Samples {
    /** Execution samples per OS thread id, per part. */
    final Map<Long, Map<String, Integer>> byThread = new HashMap<>();
    /** Allocation samples' weight (bytes) per part. */
    final Map<String, Double> allocatedBytes = new TreeMap<>();
    /** Execution samples per deciding frame ({@code part | frame}), to read which code a part is. */
    final Map<String, Integer> deciding = new HashMap<>();
    int executionSamples;

    void addExecution(long osThreadId, StackRules.Match m) {
      byThread.computeIfAbsent(osThreadId, k -> new TreeMap<>()).merge(m.part(), 1, Integer::sum);
      deciding.merge(m.part() + " | " + m.frame(), 1, Integer::sum);
      executionSamples++;
    }

    /** The execution samples of all threads, per part. */
    Map<String, Integer> byPart() {
      Map<String, Integer> all = new TreeMap<>();
      byThread.values().forEach(m -> m.forEach((part, n) -> all.merge(part, n, Integer::sum)));
      return all;
    }
  }

  /** The samples of each window of {@code windows} in the recording, classified by {@code rules}. */
  static List<Samples> read(Path recording, StackRules rules, List<Window> windows) throws IOException {
    List<Samples> result = new ArrayList<>();
    windows.forEach(w -> result.add(new Samples()));
    try (RecordingFile file = new RecordingFile(recording)) {
      while (file.hasMoreEvents()) {
        RecordedEvent e;
        try {
          e = file.readEvent();
        } catch (IOException ex) {
          break; // a recording cut short (a JVM killed while writing): what was read counts
        }
        String type = e.getEventType().getName();
        boolean execution = type.equals("jdk.ExecutionSample");
        if (!execution && !type.equals("jdk.ObjectAllocationSample")) {
          continue;
        }
        int w = windowOf(windows, e.getStartTime());
        if (w < 0) {
          continue;
        }
        StackRules.Match m = rules.classify(frames(e.getStackTrace()));
        if (execution) {
          RecordedThread t = e.getThread("sampledThread");
          result.get(w).addExecution(t == null ? -1 : t.getOSThreadId(), m);
        } else {
          result.get(w).allocatedBytes.merge(m.part(), (double) e.getLong("weight"), Double::sum);
        }
      }
    }
    return result;
  }

  private static int windowOf(List<Window> windows, Instant t) {
    for (int i = 0; i < windows.size(); i++) {
      if (windows.get(i).contains(t)) {
        return i;
      }
    }
    return -1;
  }

  /** A stack's frames, the sampled one first, as {@code package.Class.method}. */
  static List<String> frames(RecordedStackTrace stack) {
    if (stack == null) {
      return List.of();
    }
    List<String> frames = new ArrayList<>(stack.getFrames().size());
    for (RecordedFrame f : stack.getFrames()) {
      if (f.getMethod() != null && f.getMethod().getType() != null) {
        frames.add(f.getMethod().getType().getName() + "." + f.getMethod().getName());
      }
    }
    return frames;
  }

  /**
   * The CPU time (ms) of a window by part: each thread's time ({@code threads}, from /proc) split by its
   * own execution samples; the garbage collectors', JIT compilers' and JFR's threads as parts of their own; a
   * thread with CPU time but no sample as {@link ThreadCpu#UNSAMPLED}; and what the process used beyond its
   * living threads ({@code processMs} less their sum: threads that ended in the window) split by the samples
   * of the threads that are gone, or all samples when none of theirs were seen.
   */
  static Map<String, Double> cpuByPart(Samples samples, Map<Long, ThreadCpu.Thread> threads, double processMs) {
    Map<String, Double> ms = new TreeMap<>();
    double living = 0;
    for (ThreadCpu.Thread t : threads.values()) {
      living += t.cpuMs();
      if (t.cpuMs() <= 0) {
        continue;
      }
      String jvm = ThreadCpu.jvmPart(t.name());
      Map<String, Integer> own = samples.byThread.get(t.tid());
      if (jvm != null) {
        ms.merge(jvm, t.cpuMs(), Double::sum);
      } else if (own == null || own.isEmpty()) {
        ms.merge(ThreadCpu.UNSAMPLED, t.cpuMs(), Double::sum);
      } else {
        split(ms, own, t.cpuMs());
      }
    }
    double ended = processMs - living;
    if (ended > 0) {
      Map<String, Integer> gone = new TreeMap<>();
      samples.byThread.forEach((tid, parts) -> {
        if (!threads.containsKey(tid)) {
          parts.forEach((part, n) -> gone.merge(part, n, Integer::sum));
        }
      });
      Map<String, Integer> by = gone.isEmpty() ? samples.byPart() : gone;
      if (by.isEmpty()) {
        ms.merge(ThreadCpu.UNSAMPLED, ended, Double::sum);
      } else {
        split(ms, by, ended);
      }
    }
    return ms;
  }

  private static void split(Map<String, Double> into, Map<String, Integer> samples, double ms) {
    double total = samples.values().stream().mapToInt(Integer::intValue).sum();
    samples.forEach((part, n) -> into.merge(part, ms * n / total, Double::sum));
  }
}
