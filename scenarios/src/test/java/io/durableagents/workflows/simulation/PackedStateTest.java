package io.durableagents.workflows.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import io.durableagents.workflows.agent.Plan;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PackedStateTest {

  /** A state with {@code agents} agents' plans and last outcomes, as a simulation carries them. */
  private static SimulationState state(int agents) {
    Map<String, Plan> plans = new TreeMap<>();
    Map<String, List<String>> last = new TreeMap<>();
    for (int i = 0; i < agents; i++) {
      plans.put("citizen-" + i, new Plan(3, "Thought 1: grievance 0." + (i % 97) + " above the threshold.\n"
          + "Action: move_one_step({\"direction\":\"East\"})", 1, List.of(), 0));
      last.put("citizen-" + i, List.of("move_one_step East: moved to [" + (i % 40) + ", " + (i % 33) + "]"));
    }
    return new SimulationState(3, Json.MAPPER.createObjectNode().put("agents", agents), 12345L, plans,
        Map.of(), last, List.of(), agents * 3L, agents * 6L, 0, null, null, false, false, 1, Map.of(),
        List.of());
  }

  private static SimulationInput input(SimulationState s) {
    return SimulationInput.of("epstein", 10, 42).withState(s);
  }

  @Test
  void aSmallStateIsWrittenAsItsJson() throws Exception {
    SimulationState s = state(10);
    String json = Json.MAPPER.writeValueAsString(input(s));
    JsonNode written = Json.MAPPER.readTree(json).get("state");
    assertFalse(written.has(PackedState.FIELD));
    assertEquals(3, written.get("step").asInt());
    assertEquals(s, Json.MAPPER.readValue(json, SimulationInput.class).state());
    assertTrue(PackedState.sizeOf(s) <= PackedState.PACK_OVER);
  }

  @Test
  void aLargeStateIsWrittenDeflatedAndReadBackEqual() throws Exception {
    SimulationState s = state(10_000);
    long plain = Json.MAPPER.writeValueAsBytes(s).length;
    assertTrue(plain > PackedState.PACK_OVER, "the test's state is " + plain + " bytes");
    String json = Json.MAPPER.writeValueAsString(input(s));
    JsonNode written = Json.MAPPER.readTree(json).get("state");
    assertEquals(1, written.size());
    assertTrue(written.has(PackedState.FIELD));
    assertTrue(json.length() < plain / 4, json.length() + " bytes written for " + plain + " of JSON");
    assertEquals(s, Json.MAPPER.readValue(json, SimulationInput.class).state());
    long measured = PackedState.sizeOf(s);
    assertTrue(Math.abs(measured - written.toString().length()) < 64, measured + " vs " + written.toString().length());
  }

  @Test
  void aStateWrittenBeforePackingReadsAsItWas() throws Exception {
    SimulationState s = state(10_000);
    // the form histories and checkpoints written before PackedState hold: the state's plain JSON
    String old = "{\"scenario\":\"epstein\",\"steps\":10,\"seed\":42,\"state\":" + Json.MAPPER.writeValueAsString(s) + "}";
    assertEquals(s, Json.MAPPER.readValue(old, SimulationInput.class).state());
  }
}
