package io.durableagents.starter.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.starter.local.ChildProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the benchmark reads from the machine: CPU time, log lines and Java versions. */
class MachineReadingsTest {
  @Test
  void thisProcessHasUsedCpuTimeAndAProcessThatDoesNotExistReadsAsMinusOne() {
    assertTrue(MachineReadings.cpuMillis(ProcessHandle.current().pid()) > 0);
    assertEquals(-1, MachineReadings.cpuMillis(Long.MAX_VALUE));
  }

  @Test
  void thisJavaIsReadAsItsFeatureVersionAndAnythingElseAsZero() {
    String java = ChildProcesses.javaBinary();
    int feature = Runtime.version().feature();
    assertEquals(feature, MachineReadings.javaFeature(java));
    assertEquals("JDK " + feature + (feature >= 21 ? ", virtual threads" : ""), MachineReadings.javaLabel(java));
    assertEquals(0, MachineReadings.javaFeature("/no/such/java"));
  }

  @Test
  void chosenJvmsAreTakenAsGivenAndTheDefaultStartsWithThisOne() throws Exception {
    assertEquals(List.of("/opt/jdk/bin/java"), MachineReadings.jvmsToMeasure(List.of("/opt/jdk/bin/java")));
    assertEquals(ChildProcesses.javaBinary(), MachineReadings.jvmsToMeasure(null).get(0));
  }

  @Test
  void linesOfALogThatContainATextAreCounted(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("worker.log");
    Files.write(log, List.of("TMPRL1101 a", "ok", "b TMPRL1101"));
    assertEquals(2, MachineReadings.countInLog(log.toFile(), "TMPRL1101"));
  }
}
