package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.durableagents.scenarios.Builtins;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The histories the worker replays before it polls replay with today's workflows (else the warm-up is void). */
class WarmupTest {
  @Test
  void everyShippedHistoryReplays() {
    DurableAgentsPlugin plugin = Builtins.plugin().build();
    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
      Warmup.Result r = Warmup.run(env.getWorkflowClient(), plugin, Duration.ofMinutes(2));
      assertEquals(Warmup.HISTORIES.size(), r.replayed(), "replayed " + r);
    }
  }
}
