package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.Param;
import io.durableagents.api.RuleDecision;
import io.durableagents.api.RulePolicy;
import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import io.durableagents.scenarios.Builtins;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationFailureTypes;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A scenario written outside the engine, on the public API only, registered on the plugin: it runs
 * through every strategy with the rules model, its parameters are checked inside the workflow, and
 * the rules model says in the run's result what it could not play.
 */
class CustomScenarioTest {
  /** Walkers on a line of cells; each step a walker may step right; the mean position is recorded. */
  public record WalkParameters(
      @Param(value = "how many walkers", min = 1, max = 100) int walkers,
      @Param(value = "how many idlers (a role the rule policy has no rule for)", min = 0, max = 100) int idlers) {}

  public record WalkSnapshot(Map<String, Integer> positions, int idlers) {}

  static class WalkWorld implements ScenarioWorld {
    final Map<String, Integer> positions;
    final int idlers;

    WalkWorld(Map<String, Integer> positions, int idlers) {
      this.positions = new LinkedHashMap<>(positions);
      this.idlers = idlers;
    }

    @Override public List<String> agentIds() {
      List<String> ids = new ArrayList<>(positions.keySet());
      for (int i = 0; i < idlers; i++) {
        ids.add("idler-" + i);
      }
      return ids;
    }
    @Override public String roleOf(String id) { return id.startsWith("idler") ? "idler" : "walker"; }
    @Override public boolean canAct(String id) { return true; }
    @Override public Observation observe(String id, int step) {
      Map<String, Object> self = new LinkedHashMap<>();
      self.put("id", id);
      self.put("position", positions.getOrDefault(id, 0));
      return new Observation(step, self, Map.of());
    }
    @Override public List<String> toolsOf(String role) { return List.of("step_right"); }
    @Override public List<String> worldActions() { return List.of("step_right"); }
    @Override public String apply(WorldAction action, SeededRandom random) {
      if (!positions.containsKey(action.agentId())) {
        return "step_right: idlers cannot walk";
      }
      int cells = action.arguments() == null ? 1 : action.arguments().path("cells").asInt(1);
      if (cells < 1 || cells > 2) {
        return "step_right " + cells + ": 1 or 2 cells only";
      }
      positions.merge(action.agentId(), cells, Integer::sum);
      return "step_right: you are at " + positions.get(action.agentId());
    }
    @Override public void endStep(int step, SeededRandom random) {}
    @Override public Map<String, Number> counts() {
      double mean = positions.values().stream().mapToInt(Integer::intValue).average().orElse(0);
      Map<String, Number> counts = new LinkedHashMap<>();
      counts.put("mean_position", mean);
      counts.put("walkers", positions.size());
      return counts;
    }
    @Override public Object snapshot() { return new WalkSnapshot(positions, idlers); }
  }

  public static class Walk implements Scenario<WalkParameters> {
    @Override public String name() { return "walk"; }
    @Override public List<String> roles() { return List.of("walker", "idler"); }
    @Override public Class<WalkParameters> parametersType() { return WalkParameters.class; }
    @Override public WalkParameters defaults() { return new WalkParameters(3, 0); }
    @Override public ScenarioWorld create(WalkParameters p, SeededRandom random) {
      Map<String, Integer> positions = new LinkedHashMap<>();
      for (int i = 0; i < p.walkers(); i++) {
        positions.put("walker-" + i, random.nextInt(3));
      }
      return new WalkWorld(positions, p.idlers());
    }
    @Override public ScenarioWorld restore(JsonNode snapshot) {
      WalkSnapshot s = Json.MAPPER.convertValue(snapshot, WalkSnapshot.class);
      return new WalkWorld(s.positions(), s.idlers());
    }
    @Override public String roleDescription(String role) { return "You are a " + role + " on a line."; }
    @Override public String stepPrompt(String role) { return "Decide whether to step right."; }
  }

  public static final class WalkActions {
    @Tool(name = "step_right", value = "Step right by 1 or 2 cells.")
    public String stepRight(@P(name = "cells", value = "1 or 2") int cells) {
      return "requested";
    }
  }

  /** Walkers always step right by one; it has no rule for idlers. */
  public static final class WalkRules implements RulePolicy {
    @Override
    public Optional<RuleDecision> decide(String role, int step, Map<String, Object> self,
        Map<String, Map<String, Object>> local) {
      if (!"walker".equals(role)) {
        return Optional.empty();
      }
      return Optional.of(new RuleDecision(List.of("a walker walks"), List.of(new RuleDecision.Action(
          "step_right", Json.MAPPER.createObjectNode().put("cells", 1)))));
    }
  }

  private TestWorkflowEnvironment env;

  @AfterEach
  void stop() {
    if (env != null) {
      env.close();
    }
  }

  private SimulationResult run(DurableAgentsPlugin plugin, SimulationInput input, String id) {
    env = TestWorkers.start(plugin);
    return env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build()).run(input);
  }

  private static SimulationInput walk(int steps, Strategy strategy, String parameters) {
    return SimulationInput.of("walk", steps, 7)
        .withAgentOptions(AgentOptions.newBuilder().setStrategy(strategy).setModel("rules").build())
        .withParameters(parameters == null ? null : Json.tryParse(parameters));
  }

  @Test
  void aRegisteredScenarioRunsThroughEveryStrategyWithTheRulesModel() {
    for (Strategy strategy : Strategy.values()) {
      DurableAgentsPlugin plugin = Builtins.plugin()
          .registerScenario(new Walk(), new WalkActions(), new WalkRules()).build();
      SimulationResult r = run(plugin, walk(4, strategy, "{\"walkers\": 4}"), "walk-" + strategy.label());
      env.close();
      env = null;
      assertEquals(4, r.steps());
      assertEquals(4, r.finalCounts().get("walkers").intValue());
      double start = r.perStep().get(0).counts().get("mean_position").doubleValue() - 1;
      assertEquals(start + 4, r.finalCounts().get("mean_position").doubleValue(), 1e-9,
          strategy + ": every walker stepped right once a step: " + r.perStep());
      assertTrue(r.warnings().isEmpty(), r.warnings().toString());
    }
  }

  @Test
  void theRulesModelSaysInTheResultWhatItCouldNotPlay() {
    DurableAgentsPlugin withRules = Builtins.plugin()
        .registerScenario(new Walk(), new WalkActions(), new WalkRules()).build();
    SimulationResult r = run(withRules, walk(2, Strategy.COT, "{\"walkers\": 2, \"idlers\": 2}"), "walk-idlers");
    assertEquals(List.of("rules model: the rule policy of scenario 'walk' has no rule for role 'idler'; "
        + "those agents took no action"), r.warnings());
    env.close();

    DurableAgentsPlugin noRules = Builtins.plugin()
        .registerScenario(new Walk(), new WalkActions()).build();
    SimulationResult none = run(noRules, walk(1, Strategy.REACT, null), "walk-no-policy");
    assertEquals(1, none.warnings().size(), none.warnings().toString());
    assertTrue(none.warnings().get(0).startsWith("rules model: scenario 'walk' has no rule policy registered"),
        none.warnings().toString());
  }

  @Test
  void badParametersAndUnknownScenariosFailTheRunAtOnceNamingWhatIsWrong() {
    DurableAgentsPlugin plugin = Builtins.plugin()
        .registerScenario(new Walk(), new WalkActions(), new WalkRules()).build();
    WorkflowFailedException bad = assertThrows(WorkflowFailedException.class,
        () -> run(plugin, walk(2, Strategy.COT, "{\"walkers\": 0}"), "walk-bad"));
    ApplicationFailure cause = assertInstanceOf(ApplicationFailure.class, bad.getCause());
    assertEquals(SimulationFailureTypes.INVALID_PARAMETER, cause.getType());
    assertEquals("walk: parameter walkers = 0 is not allowed: an integer from 1 to 100",
        cause.getOriginalMessage());
    assertTrue(cause.isNonRetryable());
    env.close();

    WorkflowFailedException unknown = assertThrows(WorkflowFailedException.class,
        () -> run(plugin, SimulationInput.of("walkk", 2, 1), "walk-unknown"));
    ApplicationFailure u = assertInstanceOf(ApplicationFailure.class, unknown.getCause());
    assertEquals(SimulationFailureTypes.UNKNOWN_SCENARIO, u.getType());
    assertEquals("scenario 'walkk' is not registered; registered: epstein, negotiation, walk",
        u.getOriginalMessage());
  }

  @Test
  void registrationFailsAtOnceOnDuplicateNames() {
    DurableAgentsPlugin.Builder builder = Builtins.plugin()
        .registerScenario(new Walk(), new WalkActions());
    class OtherWalk extends Walk {}
    String twice = assertThrows(IllegalArgumentException.class,
        () -> builder.registerScenario(new OtherWalk(), new WalkActions())).getMessage();
    assertTrue(twice.contains("a scenario named 'walk' is registered already (" + Walk.class.getName() + ")")
        && twice.contains(OtherWalk.class.getName() + " takes the same name"), "names both classes: " + twice);

    class ClashingActions {
      @Tool(name = "move_one_step", value = "Epstein has this name already.")
      public String move(@P(name = "to", value = "where") String to) {
        return "requested";
      }
    }
    Scenario<WalkParameters> other = new Walk() {
      @Override public String name() { return "walk-2"; }
    };
    String clash = assertThrows(IllegalArgumentException.class, () -> Builtins.plugin()
        .registerScenario(other, new ClashingActions()).build()).getMessage();
    assertTrue(clash.contains("two tools are named 'move_one_step'") && clash.contains("EpsteinActions"), clash);
  }

  @Test
  void aRoleOfferedAToolThatIsNotRegisteredFailsTheBuildNamingTheRoleAndTheTool() {
    /** Walkers are offered a weather tool that no one registered. */
    class WeatherWalk extends Walk {
      @Override public ScenarioWorld create(WalkParameters p, SeededRandom random) {
        WalkWorld plain = (WalkWorld) super.create(p, random);
        return new WalkWorld(plain.positions, plain.idlers) {
          @Override public List<String> toolsOf(String role) {
            return "walker".equals(role) ? List.of("step_right", "weather") : List.of("step_right");
          }
        };
      }
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Builtins.plugin()
        .registerScenario(new WeatherWalk(), new WalkActions()).build());
    assertTrue(e.getMessage().startsWith("scenario 'walk', role 'walker': its tools name 'weather', which is not "
        + "registered (its world actions: step_right; external tools: calculator, read_file)"), e.getMessage());
    assertTrue(e.getMessage().contains("registerTool") && e.getMessage().contains(WorkerSettings.MCP_SERVERS),
        e.getMessage());

    /** Registered, the same tool passes. */
    class Weather {
      @Tool(name = "weather", value = "The weather.")
      public String weather(@P(name = "city", value = "a city") String city) {
        return "sunny";
      }
    }
    DurableAgentsPlugin plugin = Builtins.plugin()
        .registerScenario(new WeatherWalk(), new WalkActions()).registerTool(new Weather()).build();
    assertTrue(plugin.tools().externalToolNames().contains("weather"));
  }
}
