package io.durableagents.worker;

import io.durableagents.scenarios.Builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The README's plugin snippet, exactly: a few lines add our agents to any worker. */
class PluginTest {
  @Test
  void theReadmeSnippetRunsASimulation() {
    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
      WorkflowServiceStubs service = env.getWorkflowServiceStubs();
      Map<String, String> environment = Map.of();

      // --- README snippet ---
      DurableAgentsPlugin plugin = Builtins.plugin().configureFromEnvironment(environment).build();
      WorkflowClient client = WorkflowClient.newInstance(service,
          WorkflowClientOptions.newBuilder().setPlugins(plugin).build());
      WorkerFactory factory = WorkerFactory.newInstance(client);
      factory.start();
      // --- end of snippet ---

      assertNotNull(factory.tryGetWorker(TaskQueues.AGENTS));
      assertNotNull(factory.tryGetWorker(TaskQueues.LLM));
      SimulationResult r = client.newWorkflowStub(SimulationWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).build())
          .run(new SimulationInput("epstein", 2, 1, EpsteinParameters.DEFAULTS.withAgents(3, 1), null, null, null));
      assertEquals(2, r.steps());
      assertEquals(16, r.llmCalls());
      factory.shutdownNow();
    }
  }
}
