package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ThreadEvictionsTest {
  @Test
  void warnsOnlyWhenTheSdkEvictedWorkflowsSinceTheLastCheckNamingTheSetting() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ThreadEvictions evictions = new ThreadEvictions(registry, 1000);
    assertEquals(Optional.empty(), evictions.check(), "no counter yet");
    registry.counter(ThreadEvictions.COUNTER, "workflow_type", "AgentGroupStep").increment(3);
    registry.counter(ThreadEvictions.COUNTER, "workflow_type", "Simulation").increment(2);
    String warning = evictions.check().orElseThrow();
    assertTrue(warning.startsWith("5 cached workflow(s) were evicted"), warning);
    assertTrue(warning.contains("allows 1000 (DURABLE_AGENTS_WORKFLOW_THREADS)"), warning);
    assertTrue(warning.contains("Java 21+"), warning);
    assertEquals(Optional.empty(), evictions.check(), "nothing new since the last check");
    registry.counter(ThreadEvictions.COUNTER, "workflow_type", "AgentGroupStep").increment();
    assertTrue(evictions.check().orElseThrow().startsWith("1 cached workflow(s)"));
  }
}
