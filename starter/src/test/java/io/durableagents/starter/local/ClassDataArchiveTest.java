package io.durableagents.starter.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Failures;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The child JVMs' class-data sharing archive: made on a first run, mapped from the second on (a class of
 * the jar loaded from it), a broken or cut-short archive never stops a start and is made again, a classpath
 * with directories gets none, and {@value ClassDataArchive#VARIABLE} is on, off, or a usage error naming it.
 * Each run is a real JVM on a small jar (Maven's test classpath is directories, which no archive holds).
 */
class ClassDataArchiveTest {
  private static final String JDK_25 = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java";

  @TempDir
  Path dir;

  @Test
  void theSettingIsOnByDefaultOffWhenSaidAndAnythingElseIsAUsageErrorNamingIt() {
    assertTrue(ClassDataArchive.enabled(Map.of()));
    assertTrue(ClassDataArchive.enabled(Map.of(ClassDataArchive.VARIABLE, "on")));
    assertTrue(ClassDataArchive.enabled(Map.of(ClassDataArchive.VARIABLE, " ")));
    assertFalse(ClassDataArchive.enabled(Map.of(ClassDataArchive.VARIABLE, "OFF")));
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> ClassDataArchive.enabled(Map.of(ClassDataArchive.VARIABLE, "false")));
    assertEquals("DURABLE_AGENTS_CLASS_DATA_SHARING must be on or off, was 'false'", bad.getMessage());
    // demo and agent check it before they start anything
    CommandFailure f = assertThrows(CommandFailure.class,
        () -> LocalStack.checkModelSettings(Map.of(ClassDataArchive.VARIABLE, "false")));
    assertEquals(Failures.USAGE, f.exitCode());
    assertTrue(f.getMessage().startsWith("DURABLE_AGENTS_CLASS_DATA_SHARING must be on or off"), f.getMessage());
  }

  @Test
  void offOrAClasspathWithADirectoryGetsNoArchive() throws Exception {
    Path jar = helloJar();
    Map<String, String> env = new HashMap<>(Map.of("DURABLE_AGENTS_DATA_DIR", dir.resolve("data").toString()));
    String java = ChildProcesses.javaBinary();
    assertFalse(ClassDataArchive.forChild(env, java, 17, jar.toString(), "hello").jvmOptions().isEmpty());
    env.put(ClassDataArchive.VARIABLE, "off");
    assertEquals(List.of(), ClassDataArchive.forChild(env, java, 17, jar.toString(), "hello").jvmOptions());
    env.remove(ClassDataArchive.VARIABLE);
    String withDirectory = jar + File.pathSeparator + dir;
    assertEquals(List.of(), ClassDataArchive.forChild(env, java, 17, withDirectory, "hello").jvmOptions());
    assertNull(ClassDataArchive.key(java, withDirectory, "hello"));
  }

  @Test
  void aChildRecordingJfrMapsAnArchiveButNeverMakesOneForTheDumpWouldTurnJfrOff() throws Exception {
    Path jar = helloJar();
    Map<String, String> env = new HashMap<>(Map.of("DURABLE_AGENTS_DATA_DIR", dir.resolve("data").toString(),
        ChildProcesses.CHILD_JVM_OPTIONS, "-Xmx64m -XX:StartFlightRecording=filename=" + dir.resolve("r.jfr")));
    String java = ChildProcesses.javaBinary();
    int feature = feature(java);
    assertEquals(List.of(), ClassDataArchive.forChild(env, java, feature, jar.toString(), "hello").jvmOptions(),
        "no archive yet: none made while recording");
    Map<String, String> plain = new HashMap<>(env);
    plain.remove(ChildProcesses.CHILD_JVM_OPTIONS);
    ClassDataArchive first = ClassDataArchive.forChild(plain, java, feature, jar.toString(), "hello");
    assertTrue(first.makes());
    first.settle(run(java, first, jar).process());
    ClassDataArchive recorded = ClassDataArchive.forChild(env, java, feature, jar.toString(), "hello");
    assertFalse(recorded.makes());
    assertEquals(first.file(), recorded.file(), "an archive already made is mapped with the recording on");
  }

  @Test
  void theFirstRunMakesItTheSecondMapsItAndAnotherJarGetsItsOwn() throws Exception {
    for (String java : javas()) {
      Path jar = helloJar();
      Path archives = dir.resolve("class-data-" + feature(java));

      ClassDataArchive first = ClassDataArchive.in(archives, java, feature(java), jar.toString(), "hello");
      assertTrue(first.makes(), first.jvmOptions().toString());
      Run made = run(java, first, jar);
      assertEquals("hello", made.out(), "nothing said about the archive: " + made.out());
      assertFalse(Files.exists(first.file()), "not in place before the run is settled");
      first.settle(made.process());
      assertTrue(ClassDataArchive.usable(first.file()), "the first run's archive is in place");
      assertEquals(List.of(first.file().getFileName().toString(), first.file().getFileName() + ".ok"),
          names(archives), "the dump was moved, not copied, and its note is beside it");

      ClassDataArchive second = ClassDataArchive.in(archives, java, feature(java), jar.toString(), "hello");
      assertFalse(second.makes());
      assertEquals(first.file(), second.file());
      assertTrue(loadedFromArchive(java, second, jar), "the second run maps the classes from the archive (" + java + ")");

      // a rebuilt jar is another archive; the older one goes when the new one is made
      Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 5_000));
      ClassDataArchive rebuilt = ClassDataArchive.in(archives, java, feature(java), jar.toString(), "hello");
      assertTrue(rebuilt.makes());
      assertFalse(rebuilt.file().equals(first.file()));
      assertFalse(Files.exists(first.file()), "the older jar's archive is deleted");
    }
  }

  @Test
  void aBrokenArchiveNeverStopsAStartAndIsMadeAgain() throws Exception {
    for (String java : javas()) {
      Path jar = helloJar();
      Path archives = dir.resolve("class-data-" + feature(java));
      ClassDataArchive first = ClassDataArchive.in(archives, java, feature(java), jar.toString(), "hello");
      first.settle(run(java, first, jar).process());
      byte[] whole = Files.readAllBytes(first.file());

      // cut short (the right magic, a part of the rest): JDK 17 would crash on it; it is made again instead
      Files.write(first.file(), Arrays.copyOf(whole, 4096));
      ClassDataArchive cut = ClassDataArchive.in(archives, java, feature(java), jar.toString(), "hello");
      assertTrue(cut.makes(), "a file that is not the one noted is not mapped");
      Run withCut = run(java, cut, jar);
      assertEquals("hello", withCut.out());
      cut.settle(withCut.process());
      assertTrue(ClassDataArchive.usable(cut.file()));
      assertTrue(loadedFromArchive(java, ClassDataArchive.in(archives, java, feature(java), jar.toString(), "hello"), jar));

      // not an archive at all: made again, silently
      Files.writeString(first.file(), "not an archive");
      ClassDataArchive garbage = ClassDataArchive.in(archives, java, feature(java), jar.toString(), "hello");
      assertTrue(garbage.makes());
      Run again = run(java, garbage, jar);
      assertEquals("hello", again.out());
      garbage.settle(again.process());
      assertTrue(ClassDataArchive.usable(garbage.file()));
    }
  }

  @Test
  void aDumpThatDoesNotStartAJvmIsNeverPutInPlace() throws Exception {
    String java = ChildProcesses.javaBinary();
    Path jar = helloJar();
    Path archives = dir.resolve("class-data");
    ClassDataArchive first = ClassDataArchive.in(archives, java, feature(java), jar.toString(), "hello");
    first.settle(run(java, first, jar).process());
    Path cut = dir.resolve("cut.jsa");
    Files.write(cut, Arrays.copyOf(Files.readAllBytes(first.file()), 4096));
    assertTrue(ClassDataArchive.magic(cut));
    if (feature(java) < 19) {
      assertFalse(ClassDataArchive.starts(java, jar.toString(), cut), "JDK 17 crashes on an archive cut short");
    }
    assertTrue(ClassDataArchive.starts(java, jar.toString(), first.file()));
  }

  @Test
  void aDumpOfAKilledJvmOrOfAChildThatFailedEarlyIsDropped() throws Exception {
    Path jar = helloJar();
    String java = ChildProcesses.javaBinary();
    Path archives = dir.resolve("class-data");
    ClassDataArchive killed = ClassDataArchive.in(archives, java, 17, jar.toString(), "hello");
    Path dump = Path.of(killed.jvmOptions().get(0).substring("-XX:ArchiveClassesAtExit=".length()));
    // a dump begun (the right magic) by a JVM then killed with SIGKILL
    Files.write(dump, new byte[] {(byte) 0xa8, (byte) 0xba, 0x0b, (byte) 0xf0, 0, 0});
    Process sigkill = new ProcessBuilder("sh", "-c", "kill -9 $$").start();
    assertTrue(sigkill.waitFor(10, TimeUnit.SECONDS));
    assertEquals(137, sigkill.exitValue());
    killed.settle(sigkill);
    assertFalse(Files.exists(dump));
    assertFalse(Files.exists(killed.file()));

    ClassDataArchive early = ClassDataArchive.in(archives, java, 17, jar.toString(), "hello");
    Path earlyDump = Path.of(early.jvmOptions().get(0).substring("-XX:ArchiveClassesAtExit=".length()));
    Files.write(earlyDump, new byte[] {(byte) 0xa8, (byte) 0xba, 0x0b, (byte) 0xf0, 0, 0});
    Process exited = new ProcessBuilder("true").start();
    assertTrue(exited.waitFor(10, TimeUnit.SECONDS));
    early.discard(exited);
    assertFalse(Files.exists(earlyDump));
    assertFalse(Files.exists(early.file()));
  }

  /** This JVM's java, and a JDK 25 where there is one. */
  private static List<String> javas() {
    List<String> javas = new ArrayList<>(List.of(ChildProcesses.javaBinary()));
    if (Files.isExecutable(Path.of(JDK_25))) {
      javas.add(JDK_25);
    }
    return javas;
  }

  private static int feature(String java) {
    return java.equals(JDK_25) ? 25 : Runtime.version().feature();
  }

  private record Run(Process process, String out) {}

  /** Runs the jar's Hello with the archive's options; waits for it. */
  private static Run run(String java, ClassDataArchive archive, Path jar, String... extra) throws Exception {
    List<String> command = new ArrayList<>(List.of(java, "-Xmx64m"));
    command.addAll(archive.jvmOptions());
    command.addAll(List.of(extra));
    command.addAll(List.of("-cp", jar.toString(), "Hello"));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
    assertEquals(0, p.exitValue(), out);
    return new Run(p, out);
  }

  /** Whether a run with the archive loads the jar's class from it (the JVM's class+load log says where from). */
  private static boolean loadedFromArchive(String java, ClassDataArchive archive, Path jar) throws Exception {
    String out = run(java, archive, jar, "-Xlog:class+load=info").out();
    String hello = out.lines().filter(l -> l.contains(" Hello source: ")).findFirst().orElseThrow(() ->
        new AssertionError("no class+load line of Hello:\n" + out));
    return hello.contains("shared objects file");
  }

  private static List<String> names(Path directory) throws IOException {
    try (var files = Files.list(directory)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  /** A jar with a class Hello that prints hello (and loads a few classes of its own). */
  private Path helloJar() throws IOException {
    Path src = dir.resolve("src");
    Files.createDirectories(src);
    Files.writeString(src.resolve("Hello.java"), """
        public class Hello {
          record Greeting(String text) {}
          public static void main(String[] args) {
            System.out.println(new Greeting("hello").text());
          }
        }
        """);
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertEquals(0, javac.run(null, null, null, "--release", "17", "-d", classes.toString(),
        src.resolve("Hello.java").toString()));
    Path jar = dir.resolve("hello.jar");
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
    try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest);
        var compiled = Files.list(classes)) {
      for (Path c : compiled.sorted().toList()) {
        out.putNextEntry(new JarEntry(c.getFileName().toString()));
        out.write(Files.readAllBytes(c));
        out.closeEntry();
      }
    }
    return jar;
  }
}
