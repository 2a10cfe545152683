package io.durableagents.starter.benchmark;

import static io.durableagents.starter.benchmark.BenchmarkStatistics.spread;

import io.durableagents.devserver.LocalTemporal;
import io.durableagents.starter.local.ChildProcesses;
import io.durableagents.starter.local.ClassDataArchive;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The benchmark's cold-start part (issue 37 item 7): the time from {@code demo} typed to its first
 * step printed, by phase, with and without the child JVMs' class-data sharing archive (and an earlier
 * build's jar, {@code --cold-start-baseline}), taking turns, each {@code java -jar durable-agents.jar demo
 * --steps 2} as a user types it, on a fresh port and database each time; medians and ranges.
 *
 * <p>The phases are read from demo's own output, each line stamped as it arrives (demo flushes every
 * line): its JVM up ({@code Starting a Temporal on ...}), the Temporal listening (the announcement), the
 * worker polling (the time of its ready file, {@code DURABLE_AGENTS_WORKER_READY_FILE}), the run started
 * ({@code Started ...}), the first step printed ({@code 1/2 ...}) and demo's exit (after it stopped the
 * worker and the server: on JDK 17 a first run writes the archives then).
 */
final class ColdStartBenchmark {
  /** The columns, in order: what each measures, from demo's start. */
  static final List<String> PHASES = List.of("demo's JVM up", "Temporal listens", "worker polls", "run started",
      "first step", "demo exits");

  private static final Pattern FIRST_STEP = Pattern.compile("^1/\\d+\\s");
  private static final Pattern WARMED_UP = Pattern.compile("warmed up in (\\d+) ms");

  private final BenchmarkCommand bench;

  ColdStartBenchmark(BenchmarkCommand bench) {
    this.bench = bench;
  }

  /** A way of running demo: its label, the jar, and the variables over the benchmark's. */
  record Variant(String label, Path jar, Map<String, String> env) {}

  /** A line of demo's output and when it came, in seconds since demo started. */
  record Timed(double seconds, String line) {}

  /**
   * One demo's phases, in seconds since it started (NaN where a phase was not seen), and its worker's
   * warm-up in ms (-1 when not logged).
   */
  record Phases(double[] seconds, long warmupMillis) {
    double at(int phase) {
      return seconds[phase];
    }
  }

  /**
   * The phases in demo's output {@code lines}, the worker's ready file written {@code readyAt} s after
   * demo started (NaN: not seen), demo exited {@code exitAt} s after, its worker's log {@code workerLog}.
   */
  static Phases phases(List<Timed> lines, double readyAt, double exitAt, List<String> workerLog) {
    double up = Double.NaN;
    double listens = Double.NaN;
    double started = Double.NaN;
    double firstStep = Double.NaN;
    for (Timed t : lines) {
      String l = t.line();
      if (Double.isNaN(up) && (l.startsWith("Starting a Temporal on ") || l.startsWith("Using the Temporal at "))) {
        up = t.seconds();
        if (l.startsWith("Using the Temporal at ")) {
          listens = t.seconds(); // it listened already
        }
      } else if (Double.isNaN(listens) && l.startsWith("  ") && l.contains(" listening on ")) {
        listens = t.seconds();
      } else if (Double.isNaN(started) && l.startsWith("Started ")) {
        started = t.seconds();
      } else if (Double.isNaN(firstStep) && FIRST_STEP.matcher(l).find()) {
        firstStep = t.seconds();
      }
    }
    long warmup = -1;
    for (String l : workerLog) {
      Matcher m = WARMED_UP.matcher(l);
      if (m.find()) {
        warmup = Long.parseLong(m.group(1));
      }
    }
    return new Phases(new double[] {up, listens, readyAt, started, firstStep, exitAt}, warmup);
  }

  void run() throws Exception {
    Path jar = thisJar();
    if (jar == null) {
      bench.section("Cold start of demo (issue 37 item 7)", "Skipped: it runs `java -jar` on the shaded jar, and "
          + "this benchmark does not run from one.");
      return;
    }
    Path dir = bench.logs.resolve("cold-start").toAbsolutePath();
    deleteTree(dir);
    Files.createDirectories(dir);
    List<Variant> variants = new ArrayList<>();
    if (bench.coldStartBaseline != null) {
      variants.add(new Variant("before: " + bench.coldStartBaseline.getFileName(), bench.coldStartBaseline.toAbsolutePath(),
          Map.of()));
    }
    variants.add(new Variant("no archive (" + ClassDataArchive.VARIABLE + "=off)", jar,
        Map.of(ClassDataArchive.VARIABLE, "off")));
    variants.add(new Variant("archive (the default, made on the first run)", jar, Map.of()));
    Map<Variant, Path> dataDirs = new HashMap<>();
    for (int i = 0; i < variants.size(); i++) {
      dataDirs.put(variants.get(i), dir.resolve("data-" + i));
    }
    String server = bench.temporalCli != null ? "the Temporal CLI's dev server (" + bench.temporalCli + ")"
        : "the in-memory Temporal (no Temporal CLI found)";
    int rounds = bench.coldStartRounds;
    // the archive's first run, apart: it makes the archive (and a first run on JDK 17 writes it at exit)
    Variant archived = variants.get(variants.size() - 1);
    Phases first = demo(archived, dataDirs.get(archived), dir.resolve("first"), 0);
    Map<Variant, List<Phases>> measured = new LinkedHashMap<>();
    variants.forEach(v -> measured.put(v, new ArrayList<>()));
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < variants.size(); k++) {
        Variant v = variants.get((r + k) % variants.size()); // taking turns, each first in its round
        measured.get(v).add(demo(v, dataDirs.get(v), dir.resolve("round-" + r + "-" + k), r * variants.size() + k + 1));
      }
    }
    bench.section("Cold start of demo (issue 37 item 7)",
        "Seconds from `java -jar durable-agents.jar demo --steps 2` started to each phase, read from demo's own "
        + "output as it came (and the worker's ready file), on " + server + ", a fresh port and database each "
        + "time; " + rounds + " rounds taking turns, median (min-max). The archive is the child JVMs' (the "
        + "worker's, the dev server's) class-data sharing archive in the data directory; its first run, which "
        + "makes it, apart. Java " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors()
        + " cores, load average " + MachineReadings.loadAverage() + " at the end.");
    StringBuilder header = new StringBuilder("| demo |");
    StringBuilder align = new StringBuilder("| --- |");
    for (String p : PHASES) {
      header.append(' ').append(p).append(" |");
      align.append(" ---: |");
    }
    header.append(" worker's warm-up ms |");
    align.append(" ---: |");
    List<String> rows = new ArrayList<>();
    rows.add(row("archive's first run (makes it)", List.of(first)));
    measured.forEach((v, ps) -> rows.add(row(v.label(), ps)));
    bench.table(header.toString(), align.toString(), rows);
    bench.paragraph("Archives: " + archives(dataDirs.get(archived).resolve("class-data")) + ".");
  }

  /** A table row: each phase's median (range), and the warm-up's median. */
  static String row(String label, List<Phases> runs) {
    StringBuilder sb = new StringBuilder("| ").append(label).append(" |");
    for (int i = 0; i < PHASES.size(); i++) {
      int phase = i;
      List<Double> values = runs.stream().map(p -> p.at(phase)).filter(d -> !Double.isNaN(d)).toList();
      sb.append(' ').append(values.isEmpty() ? "-" : spread(values, "%.1f", phase == 4)).append(" |");
    }
    List<Double> warmups = runs.stream().filter(p -> p.warmupMillis() >= 0).map(p -> (double) p.warmupMillis()).toList();
    sb.append(' ').append(warmups.isEmpty() ? "-" : spread(warmups, "%.0f", false)).append(" |");
    return sb.toString();
  }

  /** Runs one demo of {@code variant} in {@code cwd} and reads its phases. */
  private Phases demo(Variant variant, Path dataDir, Path cwd, int n) throws Exception {
    Files.createDirectories(cwd);
    Files.createDirectories(dataDir);
    int port = freePort();
    int uiPort = freePort();
    List<String> command = List.of(ChildProcesses.javaBinary(), "-jar", variant.jar().toString(), "demo",
        "--port", Integer.toString(port), "--ui-port", Integer.toString(uiPort), "--steps", "2",
        "--progress", "lines", "--id", "cold-start-" + n);
    ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("TEMPORAL_") || k.equals(ChildProcesses.CHILD_JVM_OPTIONS)
        || k.equals(io.durableagents.starter.Interrupts.PARENT_PID_VARIABLE) || k.equals(ClassDataArchive.VARIABLE));
    env.put(LocalTemporal.DATA_DIR_VARIABLE, dataDir.toString());
    env.put(LocalTemporal.DOWNLOAD_VARIABLE, "false");
    if (bench.temporalCli != null) {
      env.put(LocalTemporal.CLI_VARIABLE, bench.temporalCli.toAbsolutePath().toString());
    } else {
      env.put(LocalTemporal.SERVER_VARIABLE, "in-memory");
    }
    env.putAll(variant.env());
    List<Timed> lines = new ArrayList<>();
    Instant wall = Instant.now();
    long t0 = System.nanoTime();
    Process p = pb.start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        lines.add(new Timed((System.nanoTime() - t0) / 1e9, line));
      }
    }
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
    }
    double exitAt = (System.nanoTime() - t0) / 1e9;
    Path logs = cwd.resolve("runs").resolve("demo");
    Files.write(cwd.resolve("demo.out"), lines.stream().map(t -> String.format(Locale.ROOT, "%7.3f %s",
        t.seconds(), t.line())).toList());
    if (p.exitValue() != 0) {
      throw new IllegalStateException("demo (" + variant.label() + ") exited " + p.exitValue() + "; see "
          + cwd.resolve("demo.out"));
    }
    double readyAt = Double.NaN;
    Path ready = logs.resolve("worker.ready");
    if (Files.exists(ready)) {
      readyAt = ChronoUnit.MICROS.between(wall, Files.getLastModifiedTime(ready).toInstant()) / 1e6;
    }
    Path workerLog = logs.resolve("worker.log");
    List<String> worker = Files.exists(workerLog) ? Files.readAllLines(workerLog) : List.of();
    // this run's database: a fresh one each time (the archives stay)
    try (Stream<Path> files = Files.list(dataDir)) {
      for (Path f : files.filter(f -> f.getFileName().toString().startsWith("temporal-" + port)).toList()) {
        Files.deleteIfExists(f);
      }
    }
    return phases(lines, readyAt, exitAt, worker);
  }

  /** The shaded jar this JVM runs from, or null (under Maven's classpath). */
  private static Path thisJar() {
    String cp = ChildProcesses.classpath();
    if (cp.contains(java.io.File.pathSeparator) || !cp.endsWith(".jar")) {
      return null;
    }
    Path jar = Path.of(cp).toAbsolutePath();
    return Files.isRegularFile(jar) ? jar : null;
  }

  private static String archives(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return "none made";
    }
    try (Stream<Path> files = Files.list(dir)) {
      List<String> each = files.filter(f -> f.toString().endsWith(".jsa")).sorted().map(f -> {
        try {
          return f.getFileName() + " " + String.format(Locale.ROOT, "%.0f MB", Files.size(f) / 1e6);
        } catch (IOException e) {
          return f.getFileName().toString();
        }
      }).toList();
      return each.isEmpty() ? "none made" : String.join(", ", each);
    }
  }

  private static int freePort() throws IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 0, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path f : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}
