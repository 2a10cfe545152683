package io.durableagents.workflows.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import io.durableagents.scenarios.epstein.EpsteinWorld;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.llm.ToolChoice;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JSON an agent step's input and result are written as: smaller than the plain records, and read
 * back as the same values, whether written now or by an older version.
 */
class AgentStepWireTest {
  /** Temporal's default converter's mapper: no sorted keys, as the payloads are written. */
  private static final ObjectMapper PLAIN = new ObjectMapper();

  private static Observation observation() {
    EpsteinParameters p = new EpsteinParameters(20, 20, 160, 40, 5, 0.5, 0.1, 2.3, 30);
    EpsteinWorld world = EpsteinWorld.create(p, new SeededRandom(7));
    return world.observe("citizen-3", 1);
  }

  /** The observation as it was written before the table: its records' fields as they are. */
  private static String oldJson(Observation o) throws Exception {
    Map<String, Object> old = new LinkedHashMap<>();
    old.put("step", o.step());
    old.put("selfState", o.selfState());
    old.put("localState", o.localState());
    return PLAIN.writeValueAsString(old);
  }

  @Test
  void anObservationReadsBackTheSameAndItsPromptIsTheSameText() throws Exception {
    Observation o = observation();
    assertTrue(o.localState().size() > 10, "the citizen should see many neighbours: " + o.localState().size());
    String json = PLAIN.writeValueAsString(o);
    JsonNode tree = PLAIN.readTree(json);
    assertTrue(tree.has("localStateTable"), json);
    assertFalse(tree.has("localState"), json);
    Observation back = PLAIN.readValue(json, Observation.class);
    assertEquals(o, back);
    assertEquals(List.copyOf(o.localState().keySet()), List.copyOf(back.localState().keySet()),
        "the neighbours in the same order");
    String role = new EpsteinScenario().roleDescription(EpsteinScenario.CITIZEN);
    assertEquals(CotPrompts.reasoningSystem(role, o, null, List.of("move_one_step")),
        CotPrompts.reasoningSystem(role, back, null, List.of("move_one_step")));
    int before = oldJson(o).length();
    assertTrue(json.length() < 0.7 * before, "the table should be much smaller: " + json.length() + " vs " + before);
  }

  @Test
  void anObservationWrittenTheOldWayStillReads() throws Exception {
    Observation o = observation();
    assertEquals(o, PLAIN.readValue(oldJson(o), Observation.class));
  }

  @Test
  void neighboursWithDifferentAttributesKeepExactlyTheirOwn() throws Exception {
    Map<String, Map<String, Object>> local = new LinkedHashMap<>();
    local.put("a", Map.of("role", "citizen", "position", List.of(1, 2), "state", "quiet"));
    local.put("b", Map.of("role", "cop", "position", List.of(3, 4)));
    local.put("c", Map.of("state", "active", "mood", 0.5));
    local.put("d", Map.of());
    Observation o = new Observation(3, Map.of("x", 1), local);
    for (ObjectMapper mapper : List.of(PLAIN, Json.MAPPER)) {
      Observation back = PLAIN.readValue(mapper.writeValueAsString(o), Observation.class);
      assertEquals(o, back);
    }
    assertEquals(new Observation(1, Map.of(), Map.of()),
        PLAIN.readValue(PLAIN.writeValueAsString(new Observation(1, null, null)), Observation.class));
  }

  @Test
  void optionsAtTheirDefaultsAreLeftOutAndReadBackAsDefaults() throws Exception {
    AgentOptions defaults = AgentOptions.defaults();
    assertEquals("{\"strategy\":\"COT\",\"model\":\"rules\"}", PLAIN.writeValueAsString(defaults));
    assertEquals(defaults, PLAIN.readValue(PLAIN.writeValueAsString(defaults), AgentOptions.class));
    AgentOptions changed = AgentOptions.newBuilder().setStrategy(Strategy.REWOO).setTtl(3).setMaxIterations(4)
        .setToolChoice(ToolChoice.REQUIRED).setActionFormat(ActionFormat.TEXT).build();
    String json = PLAIN.writeValueAsString(changed);
    assertTrue(json.contains("\"ttl\":3") && json.contains("\"maxIterations\":4"), json);
    assertEquals(changed, PLAIN.readValue(json, AgentOptions.class));
    // written in full, as before
    String full = "{\"strategy\":\"COT\",\"model\":\"rules\",\"toolChoice\":\"AUTO\",\"maxCorrections\":1,"
        + "\"maxIterations\":10,\"actionFormat\":\"FUNCTION_CALLING\",\"maxObservationChars\":4000,"
        + "\"repeatLimit\":3,\"maxPlanSteps\":8,\"replanOnFailure\":1,\"ttl\":1,\"onAgentFailure\":\"SKIP\"}";
    assertEquals(AgentOptions.newBuilder().setOnAgentFailure(AgentFailureMode.SKIP).build(),
        PLAIN.readValue(full, AgentOptions.class));
  }

  @Test
  void aReasoningThatIsThePlanIsWrittenOnce() throws Exception {
    String text = "Thought 1: quiet.\nAction: move_one_step({\"direction\":\"North\"})";
    AgentStepResult r = new AgentStepResult("citizen-1", 2, text,
        List.of(new WorldAction("citizen-1", "c1", "move_one_step", Json.object().put("direction", "North"))),
        List.of(), new Plan(2, text, 1), new TokenUsage(10, 5), 2, 0);
    String json = PLAIN.writeValueAsString(r);
    assertEquals(1, json.split("Thought 1", -1).length - 1, json);
    assertEquals(r, PLAIN.readValue(json, AgentStepResult.class));

    AgentStepResult other = new AgentStepResult("citizen-1", 2, "something else", List.of(), List.of(),
        new Plan(2, text, 1), TokenUsage.ZERO, 1, 0, "forced", true, false, 1, List.of("w"), null);
    assertEquals(other, PLAIN.readValue(PLAIN.writeValueAsString(other), AgentStepResult.class));
    AgentStepResult failed = AgentStepResult.failed("cop-1", 3, null, "LlmNonRetriable: no");
    assertEquals(failed, PLAIN.readValue(PLAIN.writeValueAsString(failed), AgentStepResult.class));
    AgentStepResult noReasoning = new AgentStepResult("a", 1, null, List.of(), List.of(), new Plan(1, text, 1),
        TokenUsage.ZERO, 0, 0);
    assertEquals(noReasoning, PLAIN.readValue(PLAIN.writeValueAsString(noReasoning), AgentStepResult.class));
  }

  @Test
  void aResultWrittenTheOldWayStillReads() throws Exception {
    String old = "{\"agentId\":\"citizen-1\",\"step\":2,\"reasoning\":\"R\",\"actions\":[],\"toolOutcomes\":[],"
        + "\"plan\":{\"step\":2,\"llmPlan\":\"R\",\"ttl\":1,\"nextStep\":0},\"usage\":{\"input\":1,\"output\":2},"
        + "\"llmCalls\":2,\"toolCalls\":0,\"forcedFinish\":null,\"planMade\":false,\"planStepReused\":false,"
        + "\"replans\":0}";
    assertEquals(new AgentStepResult("citizen-1", 2, "R", List.of(), List.of(), new Plan(2, "R", 1),
        new TokenUsage(1, 2), 2, 0), PLAIN.readValue(old, AgentStepResult.class));
  }

  @Test
  void aGroupWritesWhatItsAgentsShareOnce() throws Exception {
    EpsteinParameters p = new EpsteinParameters(20, 20, 160, 40, 5, 0.5, 0.1, 2.3, 30);
    EpsteinWorld world = EpsteinWorld.create(p, new SeededRandom(7));
    AgentOptions options = AgentOptions.newBuilder().setTtl(2).build();
    List<AgentStepInput> inputs = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String id = "citizen-" + i;
      inputs.add(new AgentStepInput("sim", EpsteinScenario.NAME, id, EpsteinScenario.CITIZEN, world.observe(id, 1),
          i == 0 ? new Plan(0, "earlier", 2) : null, EpsteinScenario.CITIZEN_TOOLS, EpsteinScenario.WORLD_ACTIONS,
          options));
    }
    AgentGroupStepInput group = new AgentGroupStepInput(inputs);
    String json = PLAIN.writeValueAsString(group);
    assertTrue(PLAIN.readTree(json).has("shared"), json);
    assertEquals(1, json.split("\\\"worldActions\\\"", -1).length - 1, json);
    assertEquals(group, PLAIN.readValue(json, AgentGroupStepInput.class));
    long separately = 0;
    for (AgentStepInput in : inputs) {
      separately += PLAIN.writeValueAsBytes(in).length;
    }
    assertTrue(json.length() < separately, json.length() + " vs " + separately);

    // agents that do not share everything (another role): written whole, as before
    List<AgentStepInput> mixed = new java.util.ArrayList<>(inputs);
    mixed.add(new AgentStepInput("sim", EpsteinScenario.NAME, "cop-0", EpsteinScenario.COP, world.observe("cop-0", 1),
        null, EpsteinScenario.COP_TOOLS, EpsteinScenario.WORLD_ACTIONS, options));
    String whole = PLAIN.writeValueAsString(new AgentGroupStepInput(mixed));
    assertTrue(PLAIN.readTree(whole).has("agents"), whole);
    assertEquals(new AgentGroupStepInput(mixed), PLAIN.readValue(whole, AgentGroupStepInput.class));
    assertEquals(new AgentGroupStepInput(List.of()),
        PLAIN.readValue(PLAIN.writeValueAsString(new AgentGroupStepInput(List.of())), AgentGroupStepInput.class));
  }
}
