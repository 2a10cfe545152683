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
}
