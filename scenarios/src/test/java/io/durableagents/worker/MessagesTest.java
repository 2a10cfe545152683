package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Observation;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentStepWorkflow;
import io.durableagents.workflows.agent.AgentStepWorkflowImpl;
import io.durableagents.workflows.memory.AgentMemory;
import io.durableagents.workflows.memory.MemoryEntry;
import io.durableagents.workflows.memory.MemoryKind;
import io.durableagents.workflows.memory.MemoryOptions;
import io.durableagents.workflows.simulation.AgentState;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.SimulationWorkflowImpl;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link ScenarioWorld#drainMessages()} contract, with a world that delivers a message: every move
 * of cop-0 is told to citizen-0 ("cop-0 says: ..."), as a scenario's {@code speak_to} would. The
 * message lands in the recipient's memory and next observation, across continue-as-new.
 */
class MessagesTest {
  private static final String QUEUE = "messages-test";
  private TestWorkflowEnvironment env;

  /** Epstein's world, plus a message to citizen-0 for each action of cop-0. */
  static final class Speaking implements ScenarioWorld {
    private final ScenarioWorld world;
    private final Map<String, List<String>> outbox = new LinkedHashMap<>();

    Speaking(ScenarioWorld world) {
      this.world = world;
    }

    @Override
    public String apply(WorldAction action, SeededRandom random) {
      String outcome = world.apply(action, random);
      if (action.agentId().equals("cop-0")) {
        outbox.computeIfAbsent("citizen-0", k -> new ArrayList<>()).add("cop-0 says: " + outcome);
      }
      return outcome;
    }

    @Override
    public Map<String, List<String>> drainMessages() {
      Map<String, List<String>> drained = new LinkedHashMap<>(outbox);
      outbox.clear();
      return drained;
    }

    @Override
    public List<String> agentIds() {
      return world.agentIds();
    }

    @Override
    public String roleOf(String agentId) {
      return world.roleOf(agentId);
    }

    @Override
    public boolean canAct(String agentId) {
      return world.canAct(agentId);
    }

    @Override
    public Observation observe(String agentId, int step) {
      return world.observe(agentId, step);
    }

    @Override
    public List<String> toolsOf(String role) {
      return world.toolsOf(role);
    }

    @Override
    public List<String> worldActions() {
      return world.worldActions();
    }

    @Override
    public void endStep(int step, SeededRandom random) {
      world.endStep(step, random);
    }

    @Override
    public Map<String, Number> counts() {
      return world.counts();
    }

    @Override
    public Object snapshot() {
      return world.snapshot();
    }
  }

  /** The simulation workflow over the speaking world. */
  public static class SpeakingSimulation extends SimulationWorkflowImpl {
    public SpeakingSimulation() {
      super(Builtins.registry());
    }

    @Override
    protected ScenarioWorld createWorld(SimulationInput input, SeededRandom random) {
      return new Speaking(super.createWorld(input, random));
    }

    @Override
    protected ScenarioWorld restoreWorld(SimulationInput input, JsonNode snapshot) {
      return new Speaking(super.restoreWorld(input, snapshot));
    }
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  @Test
  void messagesLandInTheRecipientsMemoryAndNextObservationAcrossContinueAsNew() {
    RecordingChatModel model = new RecordingChatModel(Builtins.rulesModel());
    DurableAgentsPlugin plugin = Builtins.plugin().registerModel("recorded", model).build();
    env = TestWorkflowEnvironment.newInstance();
    plugin.initializeWorker(TaskQueues.LLM, env.newWorker(TaskQueues.LLM));
    Worker worker = env.newWorker(QUEUE);
    worker.registerWorkflowImplementationTypes(SpeakingSimulation.class);
    worker.registerWorkflowImplementationFactory(
        AgentStepWorkflow.class, () -> new AgentStepWorkflowImpl(Builtins.registry()));
    env.start();

    SimulationInput in = new SimulationInput("epstein", 4, 3, EpsteinParameters.DEFAULTS.withAgents(2, 1),
        AgentOptions.newBuilder().setModel("recorded").build(), null, null)
        .withMemory(MemoryOptions.of(MemoryKind.SHORT_TERM, 10)).withContinueAsNewEvery(2);
    SimulationResult r = env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId("speaking").build()).run(in);
    assertEquals(2, r.runs());

    SimulationWorkflow sim = env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class, "speaking");
    AgentState citizen = sim.agent("citizen-0");
    AgentMemory memory = citizen.memory();
    List<MemoryEntry> heard = memory.entries().stream().filter(e -> e.text().startsWith("cop-0 says: ")).toList();
    assertEquals(List.of(1, 2, 3, 4), heard.stream().map(MemoryEntry::step).toList(),
        "one message a step, in the recipient's memory: " + memory);
    // the last one is also in its next observation; the earlier ones were in the observations before
    assertEquals(List.of(heard.get(3).text()), citizen.observation().selfState().get("messages"));
    assertTrue(model.requests.stream().map(RecordingChatModel::text)
        .anyMatch(t -> t.contains("\"id\":\"citizen-0\"") && t.contains("Current observation (step 3)")
            && t.contains("\"messages\":[\"cop-0 says: ") && t.contains("- step 2: cop-0 says: ")),
        "the step-3 prompt (after a continue-as-new) shows the message in the observation and memory");
    assertTrue(sim.agent("citizen-1").memory().entries().stream().noneMatch(e -> e.text().contains("says")));
  }
}
