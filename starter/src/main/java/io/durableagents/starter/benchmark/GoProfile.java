package io.durableagents.starter.benchmark;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CPU profile of the Temporal CLI's dev server (a Go program) over a measured run, where its own pprof
 * cannot be had: the CLI's {@code server start-dev} has no flag for it (its {@code StartOptions.PProfPort}
 * is never set). Linux's {@code perf record -g} samples the process with its call stacks (Go keeps frame
 * pointers), and {@code go tool addr2line} names the frames from the binary's {@code .gopclntab}, which a
 * stripped Go binary keeps (its runtime needs it). Each sample is then assigned to a part with {@link
 * StackRules#GO}. Needs {@code perf} and a Go toolchain ({@code go} on the PATH, or /usr/local/go/bin/go).
 *
 * <pre>{@code
 * GoProfile p = GoProfile.find().orElseThrow();
 * Process perf = p.start(cliPid, data, log);
 * ... run ...
 * p.stop(perf);
 * GoProfile.Result r = p.read(data, Path.of("/proc/" + cliPid + "/exe").toRealPath());
 * }</pre>
 */
final class GoProfile {
  /** Samples per second per CPU (an odd rate, so that it does not beat with the server's timers). */
  static final int FREQUENCY = 499;

  private final String perf;
  private final String go;

  private GoProfile(String perf, String go) {
    this.perf = perf;
    this.go = go;
  }

  /** The profiler, where {@code perf} and {@code go} are found. */
  static Optional<GoProfile> find() {
    Optional<String> perf = onPath("perf");
    Optional<String> go = onPath("go").or(() -> Files.isExecutable(Path.of("/usr/local/go/bin/go"))
        ? Optional.of("/usr/local/go/bin/go") : Optional.empty());
    return perf.isPresent() && go.isPresent() ? Optional.of(new GoProfile(perf.get(), go.get())) : Optional.empty();
  }

  private static Optional<String> onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, name);
      if (Files.isExecutable(p)) {
        return Optional.of(p.toString());
      }
    }
    return Optional.empty();
  }

  /** Starts sampling process {@code pid} into {@code data}; returns once perf has begun writing it. */
  Process start(long pid, Path data, Path log) throws IOException, InterruptedException {
    Files.deleteIfExists(data);
    Process p = new ProcessBuilder(perf, "record", "-F", Integer.toString(FREQUENCY), "-g", "-p",
        Long.toString(pid), "-o", data.toString()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!(Files.exists(data) && Files.size(data) > 0)) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        p.destroyForcibly();
        throw new IOException("perf record did not start (see " + log + ")");
      }
      Thread.sleep(20);
    }
    return p;
  }

  /** Stops sampling (SIGTERM: perf writes what it has and exits). */
  void stop(Process perfRecord) throws InterruptedException {
    perfRecord.destroy();
    if (!perfRecord.waitFor(60, TimeUnit.SECONDS)) {
      perfRecord.destroyForcibly().waitFor();
    }
  }

  /** A profile's samples by part, and by deciding frame ({@code part | function}). */
  record Result(Map<String, Integer> byPart, Map<String, Integer> deciding, int samples) {}

  /** The samples in {@code data}, their frames in {@code binary} named by {@code go tool addr2line}. */
  Result read(Path data, Path binary) throws IOException, InterruptedException {
    List<long[]> stacks = new ArrayList<>();
    Set<Long> offsets = new LinkedHashSet<>();
    Process script = new ProcessBuilder(perf, "script", "-i", data.toString(), "-F", "comm,tid,ip,dso")
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    Map<String, Boolean> isBinary = new HashMap<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(script.getInputStream(), StandardCharsets.UTF_8))) {
      List<Long> current = null;
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        Matcher m = FRAME.matcher(line);
        if (m.matches()) {
          if (current != null) {
            // frames of other objects (the kernel, the vDSO) are looked through, as the runtime's are
            long offset = isBinary.computeIfAbsent(m.group(2), dso -> sameFile(dso, binary))
                ? Long.parseUnsignedLong(m.group(1), 16) : -1;
            current.add(offset);
            if (offset >= 0) {
              offsets.add(offset);
            }
          }
        } else if (line.isBlank()) {
          if (current != null) {
            stacks.add(current.stream().mapToLong(Long::longValue).toArray());
          }
          current = null;
        } else {
          current = new ArrayList<>();
        }
      }
      if (current != null) {
        stacks.add(current.stream().mapToLong(Long::longValue).toArray());
      }
    }
    script.waitFor(60, TimeUnit.SECONDS);
    Map<Long, String> names = names(binary, offsets);
    StackRules rules = StackRules.GO;
    Map<String, Integer> byPart = new TreeMap<>();
    Map<String, Integer> deciding = new HashMap<>();
    for (long[] stack : stacks) {
      List<String> frames = new ArrayList<>(stack.length);
      for (long offset : stack) {
        frames.add(offset < 0 ? "[outside the binary]" : names.getOrDefault(offset, "?"));
      }
      StackRules.Match m = rules.classifyGo(frames);
      byPart.merge(m.part(), 1, Integer::sum);
      deciding.merge(m.part() + " | " + m.frame(), 1, Integer::sum);
    }
    return new Result(byPart, deciding, stacks.size());
  }

  /** A frame of {@code perf script -F comm,tid,ip,dso}: an address (an offset in its object) and the object. */
  private static final Pattern FRAME = Pattern.compile("^\\s+([0-9a-f]+)\\s+(?:.*\\s)?\\((.*)\\)\\s*$");

  private static boolean sameFile(String dso, Path binary) {
    try {
      return Files.isSameFile(Path.of(dso), binary);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The function at each file offset of {@code binary}, by {@code go tool addr2line} (one run for all). */
  private Map<Long, String> names(Path binary, Set<Long> offsets) throws IOException, InterruptedException {
    List<long[]> segments = loadSegments(binary);
    List<Long> ordered = new ArrayList<>(offsets);
    Path in = Files.createTempFile("durable-agents-addr2line-", ".txt");
    try {
      StringBuilder text = new StringBuilder();
      for (long offset : ordered) {
        text.append("0x").append(Long.toHexString(address(segments, offset))).append('\n');
      }
      Files.writeString(in, text);
      Process p = new ProcessBuilder(go, "tool", "addr2line", binary.toString()).redirectInput(in.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      Map<Long, String> names = new HashMap<>();
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (long offset : ordered) {
          String function = r.readLine();
          String where = r.readLine();
          if (function == null || where == null) {
            break;
          }
          names.put(offset, function);
        }
      }
      p.waitFor(60, TimeUnit.SECONDS);
      return names;
    } finally {
      Files.deleteIfExists(in);
    }
  }

  /**
   * The virtual address of a file offset (perf prints an address in an object as its offset in the file):
   * through the ELF program header's loadable segment that holds it; the offset itself where none does.
   */
  static long address(List<long[]> segments, long offset) {
    for (long[] s : segments) {
      if (offset >= s[0] && offset < s[0] + s[2]) {
        return offset - s[0] + s[1];
      }
    }
    return offset;
  }

  /** The loadable segments ({@code PT_LOAD}) of a 64-bit little-endian ELF file: {offset, vaddr, size}. */
  static List<long[]> loadSegments(Path elf) throws IOException {
    List<long[]> segments = new ArrayList<>();
    try (FileChannel ch = FileChannel.open(elf)) {
      ByteBuffer h = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(h, 0);
      if (h.getInt(0) != 0x464c457f || h.get(4) != 2 || h.get(5) != 1) {
        return segments; // not a 64-bit little-endian ELF file
      }
      long phoff = h.getLong(0x20);
      int size = h.getShort(0x36) & 0xffff;
      int count = h.getShort(0x38) & 0xffff;
      ByteBuffer ph = ByteBuffer.allocate(size * count).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(ph, phoff);
      for (int i = 0; i < count; i++) {
        int base = i * size;
        if (ph.getInt(base) == 1) {
          segments.add(new long[] {ph.getLong(base + 8), ph.getLong(base + 16), ph.getLong(base + 32)});
        }
      }
    }
    return segments;
  }
}
