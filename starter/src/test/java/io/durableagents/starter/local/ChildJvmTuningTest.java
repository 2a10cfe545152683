package io.durableagents.starter.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Failures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The child JVMs' tuning ({@value ChildJvmTuning#VARIABLE}): start-up (C1 only, the serial collector) by
 * default, peak (the JVM's own defaults) when said, anything else a usage error naming it before anything
 * starts; the options reach a real child JVM, before {@value ChildProcesses#CHILD_JVM_OPTIONS}'s.
 */
class ChildJvmTuningTest {
  @TempDir
  Path dir;

  @Test
  void startUpByDefaultPeakWhenSaidAndAnythingElseIsAUsageErrorNamingIt() {
    assertEquals(ChildJvmTuning.START_UP, ChildJvmTuning.fromEnvironment(Map.of()));
    assertEquals(ChildJvmTuning.START_UP, ChildJvmTuning.fromEnvironment(Map.of(ChildJvmTuning.VARIABLE, " ")));
    assertEquals(ChildJvmTuning.START_UP,
        ChildJvmTuning.fromEnvironment(Map.of(ChildJvmTuning.VARIABLE, "Start-Up")));
    assertEquals(ChildJvmTuning.PEAK, ChildJvmTuning.fromEnvironment(Map.of(ChildJvmTuning.VARIABLE, " peak ")));
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> ChildJvmTuning.fromEnvironment(Map.of(ChildJvmTuning.VARIABLE, "fast")));
    assertEquals("DURABLE_AGENTS_CHILD_JVM_TUNING must be start-up or peak, was 'fast'", bad.getMessage());
    // demo, simulate on the embedded defaults and agent check it before they start anything
    CommandFailure f = assertThrows(CommandFailure.class,
        () -> LocalStack.checkModelSettings(Map.of(ChildJvmTuning.VARIABLE, "fast")));
    assertEquals(Failures.USAGE, f.exitCode());
    assertTrue(f.getMessage().startsWith("DURABLE_AGENTS_CHILD_JVM_TUNING must be start-up or peak"),
        f.getMessage());
  }

  @Test
  void theTuningComesBeforeTheUsersOwnOptionsSoTheyCanOverrideIt() {
    List<String> startUp = ChildProcesses.command("java", 17, "64m",
        Map.of(ChildProcesses.CHILD_JVM_OPTIONS, "-XX:TieredStopAtLevel=4"), List.of("-Xshare:auto"), "worker");
    int c1 = startUp.indexOf("-XX:TieredStopAtLevel=1");
    assertTrue(c1 > 0 && startUp.contains("-XX:+UseSerialGC"), startUp.toString());
    assertTrue(c1 < startUp.indexOf("-Xshare:auto") && c1 < startUp.indexOf("-XX:TieredStopAtLevel=4"),
        startUp.toString());
    List<String> peak = ChildProcesses.command("java", 17, "64m", Map.of(ChildJvmTuning.VARIABLE, "peak"),
        List.of(), "worker");
    assertFalse(peak.contains("-XX:TieredStopAtLevel=1") || peak.contains("-XX:+UseSerialGC"), peak.toString());
  }

  @Test
  void aChildJvmRunsWithIt() throws Exception {
    // the child prints its final flags (-XX:+PrintFlagsFinal) and the program's version, and exits
    assertEquals("true 1", flagsOfAChild(Map.of()));
    String peak = flagsOfAChild(Map.of(ChildJvmTuning.VARIABLE, "peak"));
    assertFalse(peak.equals("true 1") || peak.startsWith("true ") || peak.endsWith(" 1"), peak);
  }

  /** "UseSerialGC TieredStopAtLevel" of a child started with {@code env}, e.g. "true 1". */
  private String flagsOfAChild(Map<String, String> env) throws Exception {
    Path log = Files.createTempFile(dir, "child", ".log");
    Map<String, String> withFlags = new java.util.HashMap<>(env);
    withFlags.put(ChildProcesses.CHILD_JVM_OPTIONS, "-XX:+PrintFlagsFinal");
    Process p = ChildProcesses.start("64m", log.toFile(), withFlags, "--version");
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child did not exit");
    String out = Files.readString(log);
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("durable-agents"), out);
    return flag(out, "UseSerialGC") + " " + flag(out, "TieredStopAtLevel");
  }

  private static String flag(String flags, String name) {
    var m = Pattern.compile("\\s" + name + "\\s+= (\\S+)").matcher(flags);
    assertTrue(m.find(), name + " not in the child's flags");
    return m.group(1);
  }
}
