package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkerSettingsTest {
  @Test
  void defaults() {
    WorkerSettings s = WorkerSettings.fromEnvironment(Map.of());
    assertEquals(WorkerSettings.Sticky.AUTO, s.sticky());
    assertEquals(Path.of("files"), s.filesDirectory());
    assertNull(s.executionJournal());
    assertNull(s.llmCallsPerSecond());
    assertNull(s.metricsPort());
  }

  @Test
  void valuesAreRead() {
    WorkerSettings s = WorkerSettings.fromEnvironment(Map.of("DURABLE_AGENTS_STICKY", "off",
        "DURABLE_AGENTS_LLM_RATE_LIMIT", "2.5", "DURABLE_AGENTS_METRICS_PORT", "9464",
        "DURABLE_AGENTS_EXECUTION_LOG", "/tmp/j.log"));
    assertEquals(WorkerSettings.Sticky.OFF, s.sticky());
    assertEquals(2.5, s.llmCallsPerSecond());
    assertEquals(9464, s.metricsPort());
    assertEquals(Path.of("/tmp/j.log"), s.executionJournal());
  }

  @Test
  void badValuesNameTheVariableAndTheAllowedValues() {
    String sticky = assertThrows(IllegalArgumentException.class,
        () -> WorkerSettings.fromEnvironment(Map.of("DURABLE_AGENTS_STICKY", "maybe"))).getMessage();
    assertTrue(sticky.contains("DURABLE_AGENTS_STICKY") && sticky.contains("auto, on, off"), sticky);
    String rate = assertThrows(IllegalArgumentException.class,
        () -> WorkerSettings.fromEnvironment(Map.of("DURABLE_AGENTS_LLM_RATE_LIMIT", "0"))).getMessage();
    assertTrue(rate.contains("DURABLE_AGENTS_LLM_RATE_LIMIT"), rate);
    String port = assertThrows(IllegalArgumentException.class,
        () -> WorkerSettings.fromEnvironment(Map.of("DURABLE_AGENTS_METRICS_PORT", "http"))).getMessage();
    assertTrue(port.contains("DURABLE_AGENTS_METRICS_PORT"), port);
    String max = assertThrows(IllegalArgumentException.class,
        () -> WorkerSettings.fromEnvironment(Map.of("DURABLE_AGENTS_MAX_OUTPUT_BYTES", "5000000"))).getMessage();
    assertTrue(max.contains("DURABLE_AGENTS_MAX_OUTPUT_BYTES") && max.contains("2 MB"), max);
    String mode = assertThrows(IllegalArgumentException.class,
        () -> WorkerSettings.fromEnvironment(Map.of("DURABLE_AGENTS_OVERSIZE_OUTPUT", "drop"))).getMessage();
    assertTrue(mode.contains("DURABLE_AGENTS_OVERSIZE_OUTPUT") && mode.contains("truncate, fail"), mode);
  }

  @Test
  void badSlotsFailThePluginAtStartUpNamingTheVariable() {
    for (String bad : new String[] {"two", "-1", "openai:smollm2=x", "=3", "mistral:x=1"}) {
      String slots = assertThrows(IllegalArgumentException.class, () -> DurableAgentsPlugin.newBuilder()
          .configureFromEnvironment(Map.of(WorkerSettings.LLM_SLOTS, bad))).getMessage();
      assertTrue(slots.startsWith("DURABLE_AGENTS_LLM_SLOTS='" + bad + "' is not allowed")
          && slots.contains("openai:smollm2=1"), slots);
    }
  }

  @Test
  void virtualThreadsAreOnWhereTheJvmHasThemUnlessTurnedOff() {
    assertEquals(true, WorkerSettings.virtualThreads(java.util.Map.of(), true));
    assertEquals(false, WorkerSettings.virtualThreads(java.util.Map.of(), false));
    assertEquals(false, WorkerSettings.virtualThreads(java.util.Map.of(WorkerSettings.VIRTUAL_THREADS, "off"), true));
    IllegalArgumentException notHere = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> WorkerSettings.virtualThreads(java.util.Map.of(WorkerSettings.VIRTUAL_THREADS, "on"), false));
    org.junit.jupiter.api.Assertions.assertTrue(notHere.getMessage().startsWith(WorkerSettings.VIRTUAL_THREADS));
    IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> WorkerSettings.virtualThreads(java.util.Map.of(WorkerSettings.VIRTUAL_THREADS, "maybe"), true));
    org.junit.jupiter.api.Assertions.assertTrue(bad.getMessage().contains("auto, on, off"), bad.getMessage());
  }

  @Test
  void concurrencyAndCacheSettingsAreWholeNumbers() {
    assertEquals(1000, WorkerSettings.positive(java.util.Map.of(), WorkerSettings.LLM_CONCURRENCY, 1000));
    assertEquals(64, WorkerSettings.positive(java.util.Map.of(WorkerSettings.WORKFLOW_CACHE, "64"),
        WorkerSettings.WORKFLOW_CACHE, 1000));
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> WorkerSettings.positive(java.util.Map.of(WorkerSettings.LLM_CONCURRENCY, "0"),
            WorkerSettings.LLM_CONCURRENCY, 1000));
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().startsWith(WorkerSettings.LLM_CONCURRENCY), e.getMessage());
  }

  @Test
  void workflowThreadsCoverGroupStepsAndNeverFallBelowTheCache() {
    assertEquals(WorkerSettings.DEFAULT_WORKFLOW_THREADS, maxWorkflowThreads(java.util.Map.of()));
    assertEquals(3000, maxWorkflowThreads(java.util.Map.of(WorkerSettings.WORKFLOW_THREADS, "3000")));
    // a cache larger than the threads would evict for want of threads: the cache wins
    assertEquals(5000, maxWorkflowThreads(java.util.Map.of(WorkerSettings.WORKFLOW_THREADS, "3000",
        WorkerSettings.WORKFLOW_CACHE, "5000")));
    IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> DurableAgentsPlugin.newBuilder().configureFromEnvironment(
            java.util.Map.of(WorkerSettings.WORKFLOW_THREADS, "many")));
    org.junit.jupiter.api.Assertions.assertTrue(bad.getMessage().startsWith(WorkerSettings.WORKFLOW_THREADS),
        bad.getMessage());
  }

  private static int maxWorkflowThreads(java.util.Map<String, String> env) {
    DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().configureFromEnvironment(env).build();
    io.temporal.worker.WorkerFactoryOptions.Builder options = io.temporal.worker.WorkerFactoryOptions.newBuilder();
    plugin.configureWorkerFactory(options);
    return options.build().getMaxWorkflowThreadCount();
  }
}
