package io.durableagents.workflows.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.durableagents.api.ScenarioWorld;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a simulation's {@code Strategy} search attribute says for the strategies its roles run. */
class StrategyAttributeTest {
  /** A world of citizens and cops: only its agents and their roles are asked. */
  private static final ScenarioWorld WORLD = (ScenarioWorld) Proxy.newProxyInstance(
      ScenarioWorld.class.getClassLoader(), new Class<?>[] {ScenarioWorld.class}, (proxy, method, args) ->
          switch (method.getName()) {
            case "agentIds" -> List.of("citizen-0", "citizen-1", "cop-0");
            case "roleOf" -> ((String) args[0]).substring(0, ((String) args[0]).indexOf('-'));
            default -> throw new UnsupportedOperationException(method.getName());
          });

  private static AgentOptions running(Strategy s) {
    return AgentOptions.newBuilder().setStrategy(s).build();
  }

  private static String attribute(Strategy defaults, Map<String, AgentOptions> byRole) {
    SimulationInput input = SimulationInput.of("epstein", 1, 1L).withAgentOptions(running(defaults))
        .withRoleOptions(byRole);
    return SimulationSearchAttributes.strategyAttribute(input, WORLD);
  }

  @Test
  void oneStrategyForAllIsItsName() {
    assertEquals("rewoo", attribute(Strategy.REWOO, Map.of()));
    // every role named with the same one: no mix, whatever the default
    assertEquals("react", attribute(Strategy.COT,
        Map.of("citizen", running(Strategy.REACT), "cop", running(Strategy.REACT))));
  }

  @Test
  void aMixNamesEachRolesStrategyByRoleAndNotTheDefaultNoneRuns() {
    assertEquals("citizen=rewoo,cop=react", attribute(Strategy.COT,
        Map.of("cop", running(Strategy.REACT), "citizen", running(Strategy.REWOO))));
    // a role without options of its own runs the default, and is named with it
    assertEquals("citizen=rewoo,cop=cot", attribute(Strategy.COT, Map.of("citizen", running(Strategy.REWOO))));
    // options of a role the world lacks say nothing
    assertEquals("cot", attribute(Strategy.COT, Map.of("seller", running(Strategy.REWOO))));
  }
}
