package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The metrics and health endpoint listens on loopback unless DURABLE_AGENTS_METRICS_HOST opens it. */
class MetricsBindingTest {
  @Test
  void loopbackByDefault() {
    assertEquals("127.0.0.1", MetricsServer.host(Map.of()));
    assertEquals("127.0.0.1", MetricsServer.host(Map.of(MetricsServer.HOST_VARIABLE, " ")));
    try (MetricsServer metrics = new MetricsServer(MetricsServer.host(Map.of()), 0, () -> true)) {
      assertTrue(metrics.address().getAddress().isLoopbackAddress(), metrics.address().toString());
    }
    try (MetricsServer metrics = new MetricsServer(0, () -> true)) {
      assertTrue(metrics.address().getAddress().isLoopbackAddress(), metrics.address().toString());
    }
  }

  @Test
  void theVariableOpensIt() {
    String host = MetricsServer.host(Map.of(MetricsServer.HOST_VARIABLE, "0.0.0.0"));
    assertEquals("0.0.0.0", host);
    try (MetricsServer metrics = new MetricsServer(host, 0, () -> true)) {
      assertTrue(metrics.address().getAddress().isAnyLocalAddress(), metrics.address().toString());
    }
  }
}
