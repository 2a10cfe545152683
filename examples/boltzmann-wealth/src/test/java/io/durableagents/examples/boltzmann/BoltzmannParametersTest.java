package io.durableagents.examples.boltzmann;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.durableagents.api.InvalidParameterException;
import io.durableagents.api.Json;
import io.durableagents.workflows.scenario.ParameterSpec;
import io.durableagents.workflows.scenario.ScenarioParameters;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The parameters, declared once on the record: their names, defaults and ranges, and the messages a
 * bad value gets, naming the parameter and what is allowed.
 */
class BoltzmannParametersTest {
  private static final BoltzmannScenario SCENARIO = new BoltzmannScenario();

  private static InvalidParameterException bad(String json) {
    return assertThrows(InvalidParameterException.class,
        () -> ScenarioParameters.read(SCENARIO, Json.tryParse(json)));
  }

  @Test
  void theParametersAreTheRecordsComponentsInSnakeCaseWithTheirDefaultsAndRanges() {
    ScenarioRegistry.check(SCENARIO);
    List<ParameterSpec> specs = ScenarioParameters.specs(SCENARIO);
    assertEquals(List.of("agents", "width", "height", "starting_wealth", "cell_capacity"),
        specs.stream().map(ParameterSpec::name).toList());
    assertEquals("an integer from 1 to 1000", specs.get(1).allowed());
    assertEquals(25, specs.get(0).defaultValue().asInt());
    assertEquals(BoltzmannParameters.DEFAULTS, ScenarioParameters.read(SCENARIO, null));
    assertEquals(new BoltzmannParameters(25, 5, 5, 10, 4),
        ScenarioParameters.read(SCENARIO, ScenarioParameters.fromText(SCENARIO, Map.of("starting_wealth", "10"))));
  }

  @Test
  void aValueOutOfItsRangeNamesTheParameterAndTheRange() {
    InvalidParameterException e = bad("{\"width\": 0}");
    assertEquals("width", e.parameter());
    assertEquals("boltzmann-wealth: parameter width = 0 is not allowed: an integer from 1 to 1000", e.getMessage());
    assertEquals("boltzmann-wealth: parameter starting_wealth = -1 is not allowed: an integer from 0 to 1000000",
        bad("{\"starting_wealth\": -1}").getMessage());
    assertEquals("boltzmann-wealth: parameter cell_capacity = 1.5 is not allowed: an integer from 1 to 1000",
        bad("{\"cell_capacity\": 1.5}").getMessage());
  }

  @Test
  void peopleMustFitOnTheGridAndTheMoneyInAnInt() {
    InvalidParameterException crowd = bad("{\"agents\": 101, \"width\": 5, \"height\": 5, \"cell_capacity\": 4}");
    assertEquals("agents", crowd.parameter());
    assertEquals("boltzmann-wealth: parameter agents = 101 is not allowed: at most width x height x "
        + "cell_capacity = 100", crowd.getMessage());
    ScenarioParameters.read(SCENARIO, Json.tryParse("{\"agents\": 100, \"width\": 5, \"height\": 5}"));

    InvalidParameterException rich = bad("{\"agents\": 10000, \"width\": 100, \"height\": 100, "
        + "\"starting_wealth\": 1000000}");
    assertEquals("starting_wealth", rich.parameter());
    assertEquals("boltzmann-wealth: parameter starting_wealth = 1000000 is not allowed: at most 214748 for "
        + "10000 agents", rich.getMessage());
  }

  @Test
  void anUnknownNameListsTheKnownOnes() {
    assertEquals("boltzmann-wealth: there is no parameter 'citizens'; parameters: agents, width, height, "
        + "starting_wealth, cell_capacity", bad("{\"citizens\": 3}").getMessage());
  }
}
