package io.durableagents.worker;

import io.durableagents.scenarios.Builtins;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Keys live in the worker's environment and nowhere in a history. */
class NoSecretInHistoryTest {
  private static final String OPENAI_KEY = "sk-fake-openai-key-0123456789";
  private static final String ANTHROPIC_KEY = "sk-ant-fake-key-9876543210";

  @Test
  void noKeyAppearsInAnyExportedHistory() {
    DurableAgentsPlugin plugin = Builtins.plugin().configureFromEnvironment(Map.of(
        "OPENAI_API_KEY", OPENAI_KEY, "ANTHROPIC_API_KEY", ANTHROPIC_KEY,
        "OPENAI_BASE_URL", "http://127.0.0.1:9/v1")).build();
    try (TestWorkflowEnvironment env = TestWorkers.start(plugin)) {
      env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId("sim-secret").build())
          .run(new SimulationInput("epstein", 2, 3, EpsteinParameters.DEFAULTS.withAgents(4, 1), null, null, null));
      List<String> exported = new ArrayList<>();
      String parent = env.getWorkflowClient().fetchHistory("sim-secret").toJson(true);
      exported.add(parent);
      for (HistoryEvent e : env.getWorkflowClient().fetchHistory("sim-secret").getEvents()) {
        if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
          exported.add(env.getWorkflowClient()
              .fetchHistory(e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId()).toJson(true));
        }
      }
      assertTrue(exported.size() > 5, "the simulation and its agent steps");
      for (String json : exported) {
        assertFalse(json.contains(OPENAI_KEY) || json.contains("fake-openai-key"), "OpenAI key in a history");
        assertFalse(json.contains(ANTHROPIC_KEY) || json.contains("ant-fake-key"), "Anthropic key in a history");
      }
    }
  }
}
