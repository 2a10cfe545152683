package io.durableagents.workflows.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SimulationTaskTimeoutTest {
  @Test
  void fiveSecondsUpTo500AgentsThenASecondPer500AtMostAMinute() {
    assertEquals(Duration.ofSeconds(5), SimulationTaskTimeout.forAgents(0));
    assertEquals(Duration.ofSeconds(5), SimulationTaskTimeout.forAgents(200));
    assertEquals(Duration.ofSeconds(5), SimulationTaskTimeout.forAgents(500));
    assertEquals(Duration.ofSeconds(6), SimulationTaskTimeout.forAgents(501));
    assertEquals(Duration.ofSeconds(24), SimulationTaskTimeout.forAgents(10_000));
    assertEquals(Duration.ofSeconds(60), SimulationTaskTimeout.forAgents(1_000_000));
  }
}
