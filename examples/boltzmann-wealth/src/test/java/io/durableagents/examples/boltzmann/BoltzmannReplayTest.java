package io.durableagents.examples.boltzmann;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Observation;
import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import io.durableagents.testkit.DurableAgentsTestEnvironment;
import io.durableagents.testkit.WorkflowHistories;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestWorkflowEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Histories recorded once and checked in under {@code src/test/resources/histories/} replay against
 * today's code: a change to the scenario (or an upgrade of Durable Agents) that would break the runs in
 * flight when it is deployed fails the build.
 *
 * <p>To record them (only missing ones are written; keep old ones, they must keep replaying):
 * {@code ./mvnw -pl examples/boltzmann-wealth -am test -Dtest=BoltzmannReplayTest
 * -Dsurefire.failIfNoSpecifiedTests=false -DrecordHistories=true}.
 */
class BoltzmannReplayTest {
  static final Path HISTORIES = Path.of("src", "test", "resources", "histories");
  static final String SIMULATION = "boltzmann-replay";
  /** A step that makes a plan (one LLM call) and gives money at once. */
  static final String AGENT_STEP = SIMULATION + "/agent-person-4/step-1";

  static final DurableAgentsPlugin PLUGIN = DurableAgentsPlugin.newBuilder()
      .registerScenario(new BoltzmannScenario(), new BoltzmannActions(), new BoltzmannRulePolicy())
      .build();

  /** Six people with 1 unit each on a 2 x 2 torus, four steps of ReWOO plans of 2 steps: gifts and moves. */
  static SimulationInput recorded() {
    return SimulationInput.of(BoltzmannScenario.NAME, 4, 42)
        .withParameters(new BoltzmannParameters(6, 2, 2, 1, 4))
        .withAgentOptions(AgentOptions.newBuilder().setStrategy(Strategy.REWOO).setTtl(2).build());
  }

  @BeforeAll
  static void recordWhenAsked() {
    if (!Boolean.getBoolean("recordHistories")
        || Files.exists(HISTORIES.resolve(WorkflowHistories.fileName(SIMULATION)))) {
      return;
    }
    try (TestWorkflowEnvironment env = DurableAgentsTestEnvironment.start(PLUGIN)) {
      DurableAgentsTestEnvironment.simulation(env.getWorkflowClient(), SIMULATION).run(recorded());
      WorkflowHistories.record(env.getWorkflowClient(), SIMULATION, HISTORIES);
      WorkflowHistories.record(env.getWorkflowClient(), AGENT_STEP, HISTORIES);
    }
  }

  @Test
  void theRecordedHistoriesStillReplay() throws Exception {
    List<WorkflowExecutionHistory> histories = WorkflowHistories.readAll(HISTORIES);
    List<String> ids = histories.stream().map(h -> h.getWorkflowExecution().getWorkflowId()).toList();
    assertTrue(ids.containsAll(List.of(SIMULATION, AGENT_STEP)), "recorded: " + ids
        + "; record them with -DrecordHistories=true");
    WorkflowHistories.replay(PLUGIN, histories);
  }

  /**
   * The check has teeth: a plausible change, people without money sitting a step out, makes the
   * simulation start fewer agent steps than its history recorded, and the replay fails.
   */
  @Test
  void anIncompatibleChangeToTheScenarioFailsTheReplay() {
    DurableAgentsPlugin changed = DurableAgentsPlugin.newBuilder()
        .registerScenario(new BrokeSitOut(), new BoltzmannActions(), new BoltzmannRulePolicy())
        .build();
    WorkflowExecutionHistory simulation = WorkflowHistories.read(HISTORIES.resolve(WorkflowHistories.fileName(SIMULATION)));
    Exception e = assertThrows(Exception.class, () -> WorkflowHistories.replay(changed, simulation));
    assertTrue(e.toString().contains("NonDeterministicException") && e.toString().contains("agent-person-"),
        e.toString());
    assertEquals(BoltzmannScenario.NAME, new BrokeSitOut().name());
  }

  /** The scenario with one change: a person with no money does not act. */
  static final class BrokeSitOut implements Scenario<BoltzmannParameters> {
    private final BoltzmannScenario scenario = new BoltzmannScenario();

    @Override public String name() { return scenario.name(); }
    @Override public List<String> roles() { return scenario.roles(); }
    @Override public Class<BoltzmannParameters> parametersType() { return scenario.parametersType(); }
    @Override public BoltzmannParameters defaults() { return scenario.defaults(); }
    @Override public ScenarioWorld create(BoltzmannParameters p, SeededRandom random) {
      return new SitOut(BoltzmannWorld.create(p, random));
    }
    @Override public ScenarioWorld restore(JsonNode snapshot) {
      return new SitOut((BoltzmannWorld) scenario.restore(snapshot));
    }
    @Override public String roleDescription(String role) { return scenario.roleDescription(role); }
    @Override public String stepPrompt(String role) { return scenario.stepPrompt(role); }
  }

  private record SitOut(BoltzmannWorld world) implements ScenarioWorld {
    @Override public List<String> agentIds() { return world.agentIds(); }
    @Override public String roleOf(String id) { return world.roleOf(id); }
    @Override public boolean canAct(String id) { return world.person(id).wealth() > 0; }
    @Override public Observation observe(String id, int step) { return world.observe(id, step); }
    @Override public List<String> toolsOf(String role) { return world.toolsOf(role); }
    @Override public List<String> worldActions() { return world.worldActions(); }
    @Override public String apply(WorldAction action, SeededRandom random) { return world.apply(action, random); }
    @Override public void endStep(int step, SeededRandom random) { world.endStep(step, random); }
    @Override public Map<String, Number> counts() { return world.counts(); }
    @Override public Map<String, List<String>> drainMessages() { return world.drainMessages(); }
    @Override public Object snapshot() { return world.snapshot(); }
  }
}
