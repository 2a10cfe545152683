package io.durableagents.starter.local;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A class-data sharing archive (AppCDS) for a child JVM that {@code demo} and {@code agent} start (the
 * worker, the dev server): the classes its first run loaded, kept in the data directory and mapped by
 * every later start instead of being read from the jar, parsed and verified again. Made on the first
 * run, used from the second on.
 *
 * <p>The first run dumps the archive at exit into a file of its own ({@code -XX:ArchiveClassesAtExit});
 * {@link #settle}, once the child exited normally, tries it in a throwaway JVM ({@code -version} with it)
 * and only then moves it into place, with a note of its size and time beside it ({@code .ok}); later runs
 * map it ({@code -XX:SharedArchiveFile}) when the note still fits the file. The trial matters: JDK 17
 * crashes at start-up (SIGBUS) on an archive that was cut short, where it ignores one that does not fit.
 * (JDK 19's {@code -XX:+AutoCreateSharedArchive} is not used: it maps whatever file is there, and warns
 * on the terminal when it cannot.) The archive's name holds a digest of the java executable's JDK, the
 * child's classpath (each jar's path, size and time) and the command, so that a rebuilt jar or another JDK
 * gets an archive of its own rather than one the JVM would refuse; an older archive of the same command is
 * deleted when a new one is made. A missing, stale or broken archive never stops a start, and what the
 * JVM would say about one is silenced ({@code -Xlog:cds*=off}: the child's log is not the place for it).
 *
 * <p>Only a classpath of jars can be archived (the shaded jar {@code java -jar} runs): a classpath with
 * directories (Maven's, under tests) gets no archive. {@value #VARIABLE}{@code =off} turns it off.
 *
 * <pre>{@code
 * ClassDataArchive archive = ClassDataArchive.forChild(env, java, 17, classpath, "worker");
 * Process p = ChildProcesses.start(java, 17, "512m", log, env, archive.jvmOptions(), "worker");
 * ... p.waitFor(); archive.settle(p);   // JDK 17: the first run's archive into place
 * }</pre>
 */
public final class ClassDataArchive {
  /** {@code on} (the default) or {@code off}: whether child JVMs get a class-data sharing archive. */
  public static final String VARIABLE = "DURABLE_AGENTS_CLASS_DATA_SHARING";
  /** The directory of the archives, under the data directory. */
  static final String DIRECTORY = "class-data";
  /** The first four bytes of a dynamic archive (HotSpot's {@code CDS_DYNAMIC_ARCHIVE_MAGIC}), little endian. */
  static final int DYNAMIC_MAGIC = 0xf00baba8;
  /** A dump in progress older than this is one whose JVM was killed: deleted. */
  static final Duration ABANDONED = Duration.ofHours(1);
  private static final String SILENT = "-Xlog:cds*=off";

  private final Path archive;
  private final Path dump;
  private final String java;
  private final String classpath;
  private final List<String> options;
  private boolean settled;

  private ClassDataArchive(Path archive, Path dump, String java, String classpath, List<String> options) {
    this.archive = archive;
    this.dump = dump;
    this.java = java;
    this.classpath = classpath;
    this.options = List.copyOf(options);
  }

  /** No archive: no options, nothing to settle. */
  public static ClassDataArchive none() {
    return new ClassDataArchive(null, null, null, null, List.of());
  }

  /**
   * Whether {@code env} turns archives on ({@value #VARIABLE}: {@code on}, the default, or {@code off}).
   *
   * @throws IllegalArgumentException naming the variable when it has another value
   */
  public static boolean enabled(Map<String, String> env) {
    String value = env.get(VARIABLE);
    if (value == null || value.isBlank() || value.trim().equalsIgnoreCase("on")) {
      return true;
    }
    if (value.trim().equalsIgnoreCase("off")) {
      return false;
    }
    throw new IllegalArgumentException(VARIABLE + " must be on or off, was '" + value + "'");
  }

  /**
   * The archive of child {@code command} run by {@code java} (feature version {@code javaFeature}) on
   * {@code classpath}, in the data directory {@code env} names; {@link #none()} when {@code env} turns
   * archives off, the classpath is not all jars, or the directory cannot be written.
   */
  public static ClassDataArchive forChild(Map<String, String> env, String java, int javaFeature, String classpath,
      String command) {
    if (!enabled(env)) {
      return none();
    }
    ClassDataArchive archive = in(io.durableagents.devserver.LocalTemporal.dataDir(env).resolve(DIRECTORY), java,
        javaFeature, classpath, command);
    if (archive.makes() && recordsFlight(env)) {
      // a JVM that dumps an archive turns JFR off ("JFR will be disabled during CDS dumping"): a recording
      // asked for is worth more than the archive, which a later start without one makes
      return none();
    }
    return archive;
  }

  /** Whether {@code env}'s extra child JVM options start a JFR recording. */
  static boolean recordsFlight(Map<String, String> env) {
    return env.getOrDefault(ChildProcesses.CHILD_JVM_OPTIONS, "").contains("-XX:StartFlightRecording");
  }

  /**
   * As {@link #forChild}, for a child of this jar ({@link ChildProcesses#classpath()}) whose environment is
   * this process's with {@code extraEnv} over it: what {@code demo}'s and the benchmark's children map.
   */
  public static ClassDataArchive forChildOfThisJar(Map<String, String> extraEnv, String java, int javaFeature,
      String command) {
    return forChild(io.durableagents.starter.Environment.variablesWith(extraEnv), java, javaFeature,
        ChildProcesses.classpath(), command);
  }

  /** As {@link #forChild}, with the archives in {@code directory}. */
  static ClassDataArchive in(Path directory, String java, int javaFeature, String classpath, String command) {
    if (javaFeature < 13) {
      return none(); // -XX:ArchiveClassesAtExit came with JDK 13
    }
    String key = key(java, classpath, command);
    if (key == null) {
      return none();
    }
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      return none();
    }
    String name = command.replaceAll("[^A-Za-z0-9-]", "_");
    Path archive = directory.resolve(name + "-" + key + ".jsa");
    if (usable(archive)) {
      return new ClassDataArchive(archive, null, java, classpath, List.of("-XX:SharedArchiveFile=" + archive, SILENT));
    }
    removeOthers(directory, name, archive);
    Path dump = directory.resolve(name + "-" + key + "." + ProcessHandle.current().pid() + "-"
        + Long.toHexString(System.nanoTime()) + ".dump");
    return new ClassDataArchive(archive, dump, java, classpath, List.of("-XX:ArchiveClassesAtExit=" + dump, SILENT));
  }

  /** The JVM options of the child. */
  public List<String> jvmOptions() {
    return options;
  }

  /** The archive file (it may not exist yet), or null when there is none. */
  public Path file() {
    return archive;
  }

  /** Whether this start makes the archive (its first run, which writes it at exit) rather than maps it. */
  public boolean makes() {
    return dump != null;
  }

  /**
   * Once {@code child} has exited: moves the archive its first run dumped into place, when it exited by
   * itself or on SIGTERM (a JVM killed while it dumped leaves a part) and a throwaway JVM starts with it,
   * and notes its size and time beside it; else deletes the dump. Nothing when this start mapped one.
   * Idempotent; never fails.
   */
  public synchronized void settle(Process child) {
    if (dump == null || settled || child.isAlive()) {
      return;
    }
    settled = true;
    int code = child.exitValue();
    // 128 + 9: SIGKILL (a forced stop), during which a dump may have been cut short; 134: a crash
    try {
      if (code != 137 && code != 134 && magic(dump) && starts(java, classpath, dump)) {
        Files.move(dump, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(note(archive), fingerprint(archive));
      } else {
        Files.deleteIfExists(dump);
      }
    } catch (IOException | RuntimeException e) {
      try {
        Files.deleteIfExists(dump);
        Files.deleteIfExists(note(archive));
      } catch (IOException ignored) {
        // the next first run deletes it (ABANDONED)
      }
    }
  }

  /** Whether a JVM on {@code classpath} starts with {@code archive} mapped (or ignored), rather than crashing. */
  static boolean starts(String java, String classpath, Path archive) {
    try {
      Process p = new ProcessBuilder(java, "-Xshare:auto", "-XX:SharedArchiveFile=" + archive, SILENT, "-cp", classpath,
          "-version").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static Path note(Path archive) {
    return archive.resolveSibling(archive.getFileName() + ".ok");
  }

  private static String fingerprint(Path file) throws IOException {
    return Files.size(file) + " " + Files.getLastModifiedTime(file).toMillis() + "\n";
  }

  /** Once {@code child} has exited: drops what its first run dumped (a child that failed early loaded too few classes). */
  public synchronized void discard(Process child) {
    if (dump == null || settled || child.isAlive()) {
      return;
    }
    settled = true;
    try {
      Files.deleteIfExists(dump);
    } catch (IOException e) {
      // the next first run deletes it (ABANDONED)
    }
  }

  /** Whether {@code file} is an archive a trial start took, unchanged since (its note fits it). */
  static boolean usable(Path file) {
    try {
      return magic(file) && Files.readString(note(file)).equals(fingerprint(file));
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** Whether {@code file} begins as a dynamic archive does (its magic). */
  static boolean magic(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(4);
      return head.length == 4 && ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getInt() == DYNAMIC_MAGIC;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * A digest of what the archive fits: the java executable's JDK (its path, and its modules file's size
   * and time: a JDK update changes them), each classpath entry's path, size and time, and the command;
   * null when an entry is not a jar file.
   */
  static String key(String java, String classpath, String command) {
    StringBuilder what = new StringBuilder(command).append('\n');
    try {
      Path javaPath = Path.of(java).toRealPath();
      what.append(javaPath).append('\n');
      Path home = javaPath.getParent() == null ? null : javaPath.getParent().getParent();
      Path modules = home == null ? null : home.resolve("lib").resolve("modules");
      if (modules != null && Files.isRegularFile(modules)) {
        what.append(Files.size(modules)).append(' ').append(Files.getLastModifiedTime(modules).toMillis()).append('\n');
      }
      for (String entry : classpath.split(File.pathSeparator)) {
        if (entry.isEmpty()) {
          continue;
        }
        Path jar = Path.of(entry).toAbsolutePath();
        if (!Files.isRegularFile(jar) || !jar.getFileName().toString().endsWith(".jar")) {
          return null;
        }
        what.append(jar).append(' ').append(Files.size(jar)).append(' ')
            .append(Files.getLastModifiedTime(jar).toMillis()).append('\n');
      }
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(sha.digest(what.toString().getBytes(StandardCharsets.UTF_8)), 0, 8);
    } catch (IOException | RuntimeException | NoSuchAlgorithmException e) {
      return null;
    }
  }

  /** Deletes the other archives of {@code name} (an older jar's, JDK's) and dumps abandoned long ago. */
  private static void removeOthers(Path directory, String name, Path keep) {
    List<Path> old = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, name + "-*")) {
      Instant abandoned = Instant.now().minus(ABANDONED);
      for (Path f : files) {
        String n = f.getFileName().toString();
        if (f.equals(keep) || f.equals(note(keep))) {
          continue;
        }
        if (n.endsWith(".jsa") || n.endsWith(".jsa.ok") || (n.endsWith(".dump")
            && Files.getLastModifiedTime(f).toInstant().isBefore(abandoned))) {
          old.add(f);
        }
      }
    } catch (IOException | RuntimeException e) {
      return;
    }
    for (Path f : old) {
      try {
        Files.deleteIfExists(f);
      } catch (IOException e) {
        // another start's, in use: left
      }
    }
  }
}
