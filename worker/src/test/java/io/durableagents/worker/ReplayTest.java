package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentStepWorkflowImpl;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.SimulationWorkflowImpl;
import io.durableagents.workflows.simulation.epstein.EpsteinParameters;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every workflow replays its own fresh history, and every history checked in under {@code
 * src/test/resources/histories/} still replays: a change that breaks old histories fails the build.
 *
 * <p>To record new histories (after a deliberate, versioned change), run {@code ./mvnw -pl worker -am
 * test -Dtest=ReplayTest -Dsurefire.failIfNoSpecifiedTests=false -DrecordHistories=true}.
 */
class ReplayTest {
  static final Path HISTORIES = Path.of("src", "test", "resources", "histories");
  static final String WORKFLOW_IDS = "workflow-ids.properties";
  static final String SIMULATION_ID = "sim-epstein-replay";


  @Test
  void freshHistoriesReplay() throws Exception {
    List<WorkflowExecutionHistory> fresh = record();
    for (WorkflowExecutionHistory h : fresh) {
      WorkflowReplayer.replayWorkflowExecution(h, SimulationWorkflowImpl.class, AgentStepWorkflowImpl.class);
    }
    if (Boolean.getBoolean("recordHistories")) {
      Files.createDirectories(HISTORIES);
      Files.writeString(HISTORIES.resolve("simulation-epstein-cot.json"), fresh.get(0).toJson(true));
      Files.writeString(HISTORIES.resolve("agent-step-cot.json"), fresh.get(1).toJson(true));
      // Child workflow ids derive from the parent's id, so replay needs the original ids.
      Files.writeString(HISTORIES.resolve(WORKFLOW_IDS),
          "simulation-epstein-cot.json=" + SIMULATION_ID + "\n"
              + "agent-step-cot.json=" + SIMULATION_ID + "/agent-citizen-0/step-2\n");
    }
  }

  @Test
  void checkedInHistoriesStillReplay() throws Exception {
    List<Path> files;
    try (Stream<Path> s = Files.list(HISTORIES)) {
      files = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
    assertFalse(files.isEmpty(), "no recorded histories under " + HISTORIES.toAbsolutePath());
    Properties ids = new Properties();
    try (var in = Files.newBufferedReader(HISTORIES.resolve(WORKFLOW_IDS))) {
      ids.load(in);
    }
    List<String> names = new ArrayList<>();
    for (Path file : files) {
      String workflowId = ids.getProperty(file.getFileName().toString());
      assertTrue(workflowId != null, "no workflow id for " + file + " in " + WORKFLOW_IDS);
      WorkflowExecutionHistory history = WorkflowExecutionHistory.fromJson(Files.readString(file), workflowId);
      WorkflowReplayer.replayWorkflowExecution(history, SimulationWorkflowImpl.class, AgentStepWorkflowImpl.class);
      names.add(file.getFileName().toString());
    }
    assertTrue(names.contains("simulation-epstein-cot.json"), names.toString());
    assertTrue(names.contains("agent-step-cot.json"), names.toString());
  }

  /** Runs a small simulation and returns its history and one agent step's. */
  private static List<WorkflowExecutionHistory> record() throws IOException {
    try (TestWorkflowEnvironment env = TestWorkers.start(DurableAgentsPlugin.newBuilder().build())) {
      String id = SIMULATION_ID;
      env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build())
          .run(new SimulationInput("epstein", 3, 11, EpsteinParameters.DEFAULTS.withAgents(4, 1),
              null, null, null));
      return List.of(env.getWorkflowClient().fetchHistory(id),
          env.getWorkflowClient().fetchHistory(id + "/agent-citizen-0/step-2"));
    }
  }
}
