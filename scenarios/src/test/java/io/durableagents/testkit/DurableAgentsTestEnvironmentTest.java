package io.durableagents.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.TestWorkflowExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The plugin on Temporal's JUnit extension and on a test environment of one's own. */
class DurableAgentsTestEnvironmentTest {
  static final DurableAgentsPlugin PLUGIN = Builtins.plugin().build();

  @RegisterExtension
  static final TestWorkflowExtension temporal = DurableAgentsTestEnvironment.extension(PLUGIN).build();

  private static SimulationInput small(int steps) {
    return SimulationInput.of("epstein", steps, 3).withParameters(EpsteinParameters.DEFAULTS.withAgents(4, 1));
  }

  @Test
  void theExtensionsEnvironmentRunsThePluginsWorkflowsAndActivities(WorkflowClient client) {
    SimulationResult r = DurableAgentsTestEnvironment.simulation(client, "testkit-extension").run(small(2));
    assertEquals(2, r.steps());
    assertEquals(10, r.agentSteps(), "5 agents, 2 steps");
    assertTrue(r.llmCalls() > 0, "the rules model answered through the LLM activity");
  }

  @Test
  void anEnvironmentOfOnesOwnRunsThemToo() {
    try (TestWorkflowEnvironment env = DurableAgentsTestEnvironment.start(PLUGIN)) {
      SimulationResult r = DurableAgentsTestEnvironment.simulation(env.getWorkflowClient(), "testkit-own")
          .run(small(1));
      assertEquals(1, r.steps());
      assertEquals(5, r.agentSteps());
    }
  }
}
