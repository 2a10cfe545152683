package io.durableagents.starter.benchmark;

import io.durableagents.starter.local.ChildProcesses;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the benchmark reads from the machine it runs on: the CPU time a process has used, the load
 * average, the lines of a log that contain a text, and the Java executables there are to measure and
 * their versions.
 */
final class MachineReadings {
  private MachineReadings() {}

  /**
   * CPU time (user + system) a process has used so far, in ms, from Linux's {@code /proc/<pid>/stat};
   * -1 where there is no such file. CPU time per agent step is much steadier than wall time on a shared
   * machine, whose other tenants slow every run down by different amounts.
   */
  static double cpuMillis(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // fields 14 and 15 of the whole line (utime, stime) are 12 and 13 after the command name
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 1000.0 / CLOCK_TICKS;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * CPU time (user + system, ms) of this process's children that have exited and been waited for
   * ({@code cutime + cstime} of /proc/self/stat): the delta around one child's run, its CPU; -1 when unknown.
   */
  static double exitedChildrenCpuMillis() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // fields 16 and 17 of the whole line (cutime, cstime) are 14 and 15 after the command name
      return (Long.parseLong(f[13]) + Long.parseLong(f[14])) * 1000.0 / CLOCK_TICKS;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * The machine's busy CPU time so far, all cores together, in ms: /proc/stat's first line less idle and
   * iowait; NaN where there is no such file.
   */
  static double machineBusyMillis() {
    try {
      String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long total = 0;
      for (int i = 1; i < f.length && i <= 8; i++) {
        total += Long.parseLong(f[i]);
      }
      long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
      return (total - idle) * 1000.0 / CLOCK_TICKS;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
  private static final double CLOCK_TICKS = 100.0;

  /** The machine's 1-minute load average, from /proc/loadavg, or "unknown". */
  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** How many lines of {@code log} contain {@code text}. */
  static long countInLog(File log, String text) throws IOException {
    try (Stream<String> lines = Files.lines(log.toPath())) {
      return lines.filter(l -> l.contains(text)).count();
    }
  }

  /**
   * The Java executables to run the scale part's worker on: {@code chosen} (--jvm) if given, else this JVM,
   * and a JDK 21+ from /usr/lib/jvm if this one is older, so that virtual threads are measured too.
   */
  static List<String> jvmsToMeasure(List<String> chosen) throws IOException {
    if (chosen != null && !chosen.isEmpty()) {
      return chosen;
    }
    List<String> result = new ArrayList<>(List.of(ChildProcesses.javaBinary()));
    if (Runtime.version().feature() < 21) {
      Path lib = Path.of("/usr/lib/jvm");
      if (Files.isDirectory(lib)) {
        try (Stream<Path> dirs = Files.list(lib)) {
          dirs.map(d -> d.resolve("bin").resolve("java")).filter(Files::isExecutable)
              .filter(j -> javaFeature(j.toString()) >= 21).sorted().findFirst()
              .ifPresent(j -> result.add(j.toString()));
        }
      }
    }
    return result;
  }

  /** The feature version of a java executable, from {@code java -version}; 0 when unknown. */
  static int javaFeature(String java) {
    try {
      Process p = new ProcessBuilder(java, "-version").redirectErrorStream(true).start();
      String text = new String(p.getInputStream().readAllBytes());
      p.waitFor(10, TimeUnit.SECONDS);
      Matcher m = Pattern.compile("version \"(\\d+)").matcher(text);
      return m.find() ? Integer.parseInt(m.group(1)) : 0;
    } catch (IOException | InterruptedException e) {
      return 0;
    }
  }

  /** A java executable as the tables name it: its feature version, and whether it has virtual threads. */
  static String javaLabel(String java) {
    int feature = javaFeature(java);
    return "JDK " + feature + (feature >= 21 ? ", virtual threads" : "");
  }
}
