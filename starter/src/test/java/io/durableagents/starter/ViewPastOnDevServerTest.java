package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.AgentPortrayal;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.starter.view.history.ReplayedPast;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.SimulationReplay;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.TemporalDevServer;
import io.temporal.testing.TemporalDevServerOptions;
import io.temporal.worker.WorkerFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The view's reading of the past on Temporal's real dev server (the Temporal CLI's, SQLite): the world
 * after a step as fork reads it, an agent at a step with its calls and its Temporal UI link.
 */
class ViewPastOnDevServerTest {
  @TempDir
  Path dir;

  @Test
  void readsTheWorldAndAnAgentOfARecordedRunFromTheDevServer() throws Exception {
    Path cli = RealDevServer.cli();
    DurableAgentsPlugin plugin = DurableAgentsPlugin.newBuilder().configureFromClasspath().build();
    try (TemporalDevServer server = TemporalDevServer.start(TemporalDevServerOptions.newBuilder()
        .setExistingPath(cli.toString()).setIp("127.0.0.1").setUiEnabled(false)
        .setDatabaseFilename(dir.resolve("temporal.db").toString()).setStartupTimeout(Duration.ofSeconds(60))
        .build())) {
      WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
          WorkflowServiceStubsOptions.newBuilder().setTarget(server.getTarget()).build());
      try {
        WorkflowClient client = WorkflowClient.newInstance(service,
            WorkflowClientOptions.newBuilder().setPlugins(plugin).build());
        WorkerFactory factory = WorkerFactory.newInstance(client);
        factory.start();
        try {
          client.newWorkflowStub(SimulationWorkflow.class, WorkflowOptions.newBuilder()
              .setTaskQueue(TaskQueues.AGENTS).setWorkflowId("sim-view-dev").build())
              .run(SimulationInput.of("epstein", 4, 3).withParameters(io.durableagents.workflows.scenario
                  .ScenarioParameters.toJson(EpsteinParameters.DEFAULTS.withAgents(8, 2))).withContinueAsNewEvery(2));
        } finally {
          factory.shutdownNow();
        }

        SimulationReplay fork = new SimulationReplay(client, plugin);
        try (ReplayedPast past = new ReplayedPast(client, plugin, "http://127.0.0.1:9999")) {
          JsonNode world = past.world("sim-view-dev", 3);
          Checkpoint forked = fork.stateAfter(client, "sim-view-dev", 3);
          List<AgentPortrayal> expected =
              plugin.scenarios().get("epstein").restore(forked.input().state().world()).portrayal().agents();
          assertEquals(expected.size(), world.get("agents").size());
          for (int i = 0; i < expected.size(); i++) {
            JsonNode shown = world.get("agents").get(i);
            assertEquals(List.of(expected.get(i).id(), expected.get(i).x(), expected.get(i).y(), expected.get(i).color()),
                List.of(shown.get("id").asText(), shown.get("x").asInt(), shown.get("y").asInt(),
                    shown.get("color").asText()));
          }

          String workflowId = "sim-view-dev/agent-cop-0/step-3";
          AgentStepResult result = client.newUntypedWorkflowStub(workflowId).getResult(AgentStepResult.class);
          JsonNode cop = past.agent("sim-view-dev", "cop-0", 3);
          assertEquals(workflowId, cop.get("workflowId").asText());
          assertEquals("http://127.0.0.1:9999/namespaces/default/workflows/sim-view-dev%2Fagent-cop-0%2Fstep-3",
              cop.get("temporalUi").asText());
          assertTrue(result.llmCalls() > 0);
          assertEquals(result.llmCalls(), cop.get("llmCalls").size());
          assertEquals(result.usage().output(), cop.get("llmCalls").findValues("outputTokens").stream()
              .mapToLong(JsonNode::asLong).sum());
        } finally {
          fork.close();
        }
      } finally {
        service.shutdownNow();
      }
    }
  }
}
