package io.durableagents.starter.benchmark;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU time of each thread of a process, from Linux's {@code /proc/<pid>/task/<tid>/stat}: its OS thread
 * id (which JFR records as a sample's {@code osThreadId}), its name as the kernel keeps it (the first 15
 * characters) and its user + system time. Read before and after a measured run, the difference says which
 * threads used the run's CPU: the JVM's garbage collectors and JIT compilers among them, which JFR's
 * execution samples never show.
 *
 * <pre>{@code
 * Map<Long, ThreadCpu.Thread> before = ThreadCpu.of(pid);
 * ... run ...
 * Map<Long, ThreadCpu.Thread> used = ThreadCpu.delta(before, ThreadCpu.of(pid));
 * }</pre>
 */
final class ThreadCpu {
  private ThreadCpu() {}

  /** A thread: its OS id, its kernel name and the CPU time (ms) it used. */
  record Thread(long tid, String name, double cpuMs) {}

  /** The threads of process {@code pid} now; empty where there is no /proc. */
  static Map<Long, Thread> of(long pid) {
    Map<Long, Thread> threads = new HashMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks) {
        try {
          Thread t = parse(Long.parseLong(task.getFileName().toString()), Files.readString(task.resolve("stat")));
          threads.put(t.tid(), t);
        } catch (IOException | RuntimeException e) {
          // the thread ended while being read: it used nothing we can still see
        }
      }
    } catch (IOException e) {
      return Map.of();
    }
    return threads;
  }

  /** A thread from the text of its {@code stat} file: {@code tid (name) state ... utime stime ...}. */
  static Thread parse(long tid, String stat) {
    int open = stat.indexOf('(');
    int close = stat.lastIndexOf(')');
    String[] f = stat.substring(close + 2).trim().split(" ");
    // fields 14 and 15 of the whole line (utime, stime) are 12 and 13 after the name
    double ms = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 1000.0 / CLOCK_TICKS;
    return new Thread(tid, stat.substring(open + 1, close), ms);
  }

  /** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
  private static final double CLOCK_TICKS = 100.0;

  /**
   * What each thread alive in {@code after} used since {@code before}: the difference, or all of its time
   * for a thread started since. Threads that ended in between are missing: their time is in the process's
   * total only.
   */
  static Map<Long, Thread> delta(Map<Long, Thread> before, Map<Long, Thread> after) {
    Map<Long, Thread> used = new HashMap<>();
    for (Thread t : after.values()) {
      Thread b = before.get(t.tid());
      double ms = b == null ? t.cpuMs() : Math.max(0, t.cpuMs() - b.cpuMs());
      used.put(t.tid(), new Thread(t.tid(), t.name(), ms));
    }
    return used;
  }

  /**
   * The part of a JVM thread that runs no Java code, by its name: the garbage collectors, the JIT compilers,
   * JFR's own threads (the measurement); null for any other thread.
   */
  static String jvmPart(String name) {
    if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.startsWith("ZGC") || name.startsWith("Z ")
        || name.startsWith("Shenandoah")) {
      return GC;
    }
    if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler") || name.startsWith("Sweeper")
        || name.startsWith("Compiler")) {
      return JIT;
    }
    if (name.startsWith("JFR")) {
      return JFR;
    }
    return null;
  }

  static final String GC = "GC";
  static final String JIT = "JIT compilers";
  static final String JFR = "JFR (the measurement)";
  static final String UNSAMPLED = "threads without Java samples (VM, native)";
}
