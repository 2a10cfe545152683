package io.durableagents.starter.local;

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

/**
 * A class-data sharing archive (AppCDS) for a child JVM that {@code demo} and {@code agent} start (the
 * worker, the dev server): the classes its first run loaded, kept in the data directory and mapped by
 * every later start instead of being read from the jar, parsed and verified again. Made on the first
 * run, used from the second on.
 *
 * <p>On JDK 19 and later the JVM does it itself ({@code -XX:+AutoCreateSharedArchive}: it makes the
 * archive at exit when the file is missing or does not fit, and maps it otherwise). On JDK 17 and 18 the
 * first run dumps at exit into a file of its own ({@code -XX:ArchiveClassesAtExit}), which {@link
 * #settle} moves into place once the child exited normally; later runs map it ({@code
 * -XX:SharedArchiveFile}). The archive's name holds a digest of the java executable's JDK, the child's
 * classpath (each jar's path, size and time) and the command, so that a rebuilt jar or another JDK gets
 * an archive of its own rather than one the JVM would refuse; an older archive of the same command is
 * deleted when a new one is made. A missing, stale or broken archive never stops a start: the JVM
 * ignores one it cannot map ({@code -Xshare:auto}, its default), and what it would say about it is
 * silenced ({@code -Xlog:cds*=off}: the child's log is not the place for it).
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
  private final List<String> options;
  private boolean settled;

  private ClassDataArchive(Path archive, Path dump, List<String> options) {
    this.archive = archive;
    this.dump = dump;
    this.options = List.copyOf(options);
  }

  /** No archive: no options, nothing to settle. */
  static ClassDataArchive none() {
    return new ClassDataArchive(null, null, List.of());
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
    return in(io.durableagents.devserver.LocalTemporal.dataDir(env).resolve(DIRECTORY), java, javaFeature,
        classpath, command);
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
    if (javaFeature >= 19) {
      if (!Files.exists(archive)) {
        removeOthers(directory, name, archive);
      }
      // the JVM maps it when it fits, else makes it anew at exit
      return new ClassDataArchive(archive, null, List.of("-XX:+AutoCreateSharedArchive",
          "-XX:SharedArchiveFile=" + archive, SILENT));
    }
    if (usable(archive)) {
      return new ClassDataArchive(archive, null, List.of("-XX:SharedArchiveFile=" + archive, SILENT));
    }
    removeOthers(directory, name, archive);
    Path dump = directory.resolve(name + "-" + key + "." + ProcessHandle.current().pid() + "-"
        + Long.toHexString(System.nanoTime()) + ".dump");
    return new ClassDataArchive(archive, dump, List.of("-XX:ArchiveClassesAtExit=" + dump, SILENT));
  }

  /** The JVM options of the child. */
  public List<String> jvmOptions() {
    return options;
  }

  /** The archive file (it may not exist yet), or null when there is none. */
  public Path file() {
    return archive;
  }

  /** Whether this start makes the archive rather than maps it (JDK 17, 18: the first run). */
  public boolean makes() {
    return dump != null;
  }

  /**
   * Once {@code child} has exited: moves the archive its first run dumped into place (JDK 17, 18), when
   * it exited by itself or on SIGTERM (a JVM killed while it dumped leaves a part), else deletes the dump;
   * nothing otherwise. Idempotent; never fails.
   */
  public synchronized void settle(Process child) {
    if (dump == null || settled || child.isAlive()) {
      return;
    }
    settled = true;
    int code = child.exitValue();
    // 128 + 9: SIGKILL (a forced stop), during which a dump may have been cut short
    boolean whole = code != 137 && code != 134 && usable(dump);
    try {
      if (whole) {
        Files.move(dump, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.deleteIfExists(dump);
      }
    } catch (IOException | RuntimeException e) {
      try {
        Files.deleteIfExists(dump);
      } catch (IOException ignored) {
        // the next first run deletes it (ABANDONED)
      }
    }
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

  /** Whether {@code file} is a dynamic archive (its magic), not empty and not something else. */
  static boolean usable(Path file) {
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
      for (String entry : classpath.split(java.io.File.pathSeparator)) {
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
        if (f.equals(keep)) {
          continue;
        }
        if (n.endsWith(".jsa") || (n.endsWith(".dump")
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
