package io.durableagents.workflows.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.InvalidParameterException;
import io.durableagents.api.Json;
import io.durableagents.api.Param;
import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScenarioParametersTest {
  enum Topology { GRID, TORUS }

  record MarketParameters(
      @Param(value = "how many traders", min = 1, max = 500) int traders,
      @Param(value = "interest rate", min = 0, max = 1) double interestRate,
      @Param("the grid's shape") Topology topology,
      @Param("whether prices are shown") boolean showPrices,
      @Param("the market's name") String marketName,
      int undocumented) {}

  static class Market implements Scenario<MarketParameters> {
    @Override public String name() { return "market"; }
    @Override public List<String> roles() { return List.of("trader"); }
    @Override public Class<MarketParameters> parametersType() { return MarketParameters.class; }
    @Override public MarketParameters defaults() {
      return new MarketParameters(10, 0.05, Topology.TORUS, true, "Main St", 3);
    }
    @Override public void check(MarketParameters p) {
      if (p.undocumented() > p.traders()) {
        throw new InvalidParameterException("undocumented", p.undocumented(), "at most traders = " + p.traders());
      }
    }
    @Override public ScenarioWorld create(MarketParameters p, SeededRandom r) { throw new UnsupportedOperationException(); }
    @Override public ScenarioWorld restore(JsonNode snapshot) { throw new UnsupportedOperationException(); }
    @Override public String roleDescription(String role) { return "a trader"; }
    @Override public String stepPrompt(String role) { return "trade"; }
  }

  private static final Market MARKET = new Market();

  private static JsonNode json(String text) {
    return Json.tryParse(text);
  }

  private static String error(String parameters) {
    return assertThrows(InvalidParameterException.class,
        () -> ScenarioParameters.read(MARKET, json(parameters))).getMessage();
  }

  @Test
  void specsComeFromTheRecordItsParamsAndDefaults() {
    List<ParameterSpec> specs = ScenarioParameters.specs(MARKET);
    assertEquals(List.of("traders", "interest_rate", "topology", "show_prices", "market_name", "undocumented"),
        specs.stream().map(ParameterSpec::name).toList());
    assertEquals("integer", specs.get(0).type());
    assertEquals("an integer from 1 to 500", specs.get(0).allowed());
    assertEquals(10, specs.get(0).defaultValue().asInt());
    assertEquals("a number from 0 to 1", specs.get(1).allowed());
    assertEquals("one of GRID, TORUS", specs.get(2).allowed());
    assertEquals("true or false", specs.get(3).allowed());
    assertEquals("the market's name", specs.get(4).description());
    assertEquals("", specs.get(5).description());
  }

  @Test
  void unsetValuesTakeTheDefaults() {
    assertEquals(MARKET.defaults(), ScenarioParameters.read(MARKET, null));
    MarketParameters p = ScenarioParameters.read(MARKET, json("{\"traders\": 40, \"topology\": \"GRID\"}"));
    assertEquals(new MarketParameters(40, 0.05, Topology.GRID, true, "Main St", 3), p);
    assertEquals(p, ScenarioParameters.read(MARKET, ScenarioParameters.toJson(p)), "written and read back");
  }

  @Test
  void everyBadValueNamesTheParameterTheValueAndWhatIsAllowed() {
    assertEquals("market: parameter traders = 501 is not allowed: an integer from 1 to 500",
        error("{\"traders\": 501}"));
    assertEquals("market: parameter traders = 2.5 is not allowed: an integer from 1 to 500",
        error("{\"traders\": 2.5}"));
    assertEquals("market: parameter interest_rate = \"high\" is not allowed: a number from 0 to 1",
        error("{\"interest_rate\": \"high\"}"));
    assertEquals("market: parameter topology = \"HEX\" is not allowed: one of GRID, TORUS",
        error("{\"topology\": \"HEX\"}"));
    assertEquals("market: parameter show_prices = null is not allowed: true or false",
        error("{\"show_prices\": null}"));
    assertTrue(error("{\"tradrs\": 5}").contains("there is no parameter 'tradrs'; parameters: traders, "
        + "interest_rate, topology, show_prices, market_name, undocumented"));
    assertEquals("market: parameter undocumented = 50 is not allowed: at most traders = 10",
        error("{\"undocumented\": 50}"));
    assertTrue(error("[1, 2]").contains("must be a JSON object"));
  }

  @Test
  void textValuesAreReadAsTheirParametersTypesAndNamesMatchInAnySpelling() {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("interestRate", "0.25");
    values.put("SHOW-PRICES", "false");
    values.put("market_name", "Harbour");
    assertEquals("{\"interest_rate\":0.25,\"show_prices\":false,\"market_name\":\"Harbour\"}",
        ScenarioParameters.fromText(MARKET, values).toString());
    String bad = assertThrows(InvalidParameterException.class,
        () -> ScenarioParameters.fromText(MARKET, Map.of("show_prices", "maybe"))).getMessage();
    assertEquals("market: parameter show_prices = 'maybe' is not allowed: true or false", bad);
  }

  @Test
  void epsteinInputsWrittenBeforeParametersWereGenericStillRead() {
    // how SimulationInput.epstein was written: camelCase names, every value set
    JsonNode old = json("{\"width\":8,\"height\":8,\"citizens\":12,\"cops\":3,\"vision\":4,\"legitimacy\":0.7,"
        + "\"activeThreshold\":0.2,\"arrestProbabilityConstant\":2.0,\"maxJailTerm\":9}");
    assertEquals(new EpsteinParameters(8, 8, 12, 3, 4, 0.7, 0.2, 2.0, 9),
        ScenarioParameters.read(new EpsteinScenario(), old));
    assertTrue(ScenarioParameters.toJson(EpsteinParameters.DEFAULTS).has("max_jail_term"), "new inputs: snake_case");
  }

  @Test
  void aRegistryRejectsDuplicatesAndBadScenariosAndNamesTheRegisteredOnes() {
    ScenarioRegistry registry = ScenarioRegistry.of(new EpsteinScenario(), MARKET);
    assertEquals(List.of("epstein", "market"), registry.names());
    assertEquals("scenario 'zombies' is not registered; registered: epstein, market",
        assertThrows(IllegalArgumentException.class, () -> registry.get("zombies")).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ScenarioRegistry.of(MARKET, new Market())).getMessage().contains("two scenarios are named 'market'"));
    Market badDefaults = new Market() {
      @Override public MarketParameters defaults() {
        return new MarketParameters(0, 0.05, Topology.GRID, true, "x", 0);
      }
    };
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ScenarioRegistry.of(badDefaults))
        .getMessage().contains("its defaults are not valid: market: parameter traders = 0"));
    Market badName = new Market() {
      @Override public String name() { return "My Market"; }
    };
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ScenarioRegistry.of(badName))
        .getMessage().contains("name 'My Market' is not allowed"));
  }
}
