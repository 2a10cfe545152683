package io.durableagents.starter.view.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.activities.checkpoint.DirectoryCheckpointStore;
import io.durableagents.api.AgentPortrayal;
import io.durableagents.api.Portrayal;
import io.durableagents.api.Scenario;
import io.durableagents.scenarios.BuiltinScenarios;
import io.durableagents.scenarios.epstein.EpsteinParameters;
import io.durableagents.testkit.DurableAgentsTestEnvironment;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.SimulationReplay;
import io.durableagents.worker.codec.AesGcmPayloadCodec;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.SimulationInput;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.TestWorkflowEnvironment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The past as the view reads it, on the in-memory Temporal: an Epstein run of 8 steps in three runs
 * (continued as new every 3 steps), its payloads encrypted, a checkpoint written after every step; and
 * the same in group steps of 4 agents.
 */
class ReplayedPastTest {
  private static final String SIMULATION = "sim-view-past";
  private static final String GROUPED = "sim-view-past-groups";
  private static final String PLAIN = "sim-view-past-plain";
  private static final String UI = "http://ui.test:8233/";

  @TempDir
  static Path dir;

  private static TestWorkflowEnvironment env;
  private static DurableAgentsPlugin plugin;
  private static DirectoryCheckpointStore store;

  @BeforeAll
  static void record() {
    store = new DirectoryCheckpointStore(dir.resolve("checkpoints"));
    byte[] key = new byte[32];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) (i * 7 + 3);
    }
    plugin = DurableAgentsPlugin.newBuilder().apply(new BuiltinScenarios()).setCheckpointStore(store)
        .setPayloadCodec(new AesGcmPayloadCodec(Map.of("k1", new SecretKeySpec(key, "AES")), "k1"))
        .build();
    env = DurableAgentsTestEnvironment.start(plugin);
    SimulationInput input = new SimulationInput("epstein", 8, 11, EpsteinParameters.DEFAULTS.withAgents(12, 3),
        null, null, null).withContinueAsNewEvery(3).withCheckpointEvery(1);
    DurableAgentsTestEnvironment.simulation(client(), SIMULATION).run(input);
    DurableAgentsTestEnvironment.simulation(client(), GROUPED).run(input.withAgentsPerWorkflow(4));
    DurableAgentsTestEnvironment.simulation(client(), PLAIN).run(input.withCheckpointEvery(0));
  }

  @AfterAll
  static void close() {
    env.close();
  }

  private static WorkflowClient client() {
    return env.getWorkflowClient();
  }

  @Test
  void theWorldAfterEveryStepIsTheOneForkStartsFromAndTheCheckpointWrittenThere() {
    SimulationReplay fork = new SimulationReplay(client(), plugin);
    try (ReplayedPast past = new ReplayedPast(client(), plugin, UI)) {
      for (int step = 0; step <= 8; step++) {
        JsonNode world = past.world(SIMULATION, step);
        assertEquals(step, world.get("step").asInt());
        assertEquals(10, world.at("/grid/width").asInt());
        Checkpoint forked = fork.stateAfter(client(), SIMULATION, step);
        assertEquals(drawn(forked), shown(world), "the world after step " + step + " as fork reads it");
        if (step > 0) {
          Checkpoint written = store.load(store.file(SIMULATION, step).toString());
          assertEquals(drawn(written), shown(world), "the world after step " + step + " as the run wrote it");
        }
      }
      IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class, () -> past.world(SIMULATION, 9));
      assertEquals("'" + SIMULATION + "' completed 8 steps; step 9 is not in its history", beyond.getMessage());
      assertEquals(8, past.world(SIMULATION, -1).get("step").asInt(), "a negative step is the latest");
      IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> past.world("nosuch", 1));
      assertEquals("no workflow 'nosuch' on this Temporal (namespace default)", none.getMessage());
    } finally {
      fork.close();
    }
  }

  @Test
  void aRunWithoutCheckpointsShowsTheWorldsTheSameSeedsRunWrote() {
    try (ReplayedPast past = new ReplayedPast(client(), plugin, UI)) {
      for (int step = 1; step <= 8; step++) {
        int replays = past.replays();
        JsonNode world = past.world(PLAIN, step);
        Checkpoint written = store.load(store.file(SIMULATION, step).toString());
        assertEquals(drawn(written), shown(world), "the world after step " + step);
        assertTrue(past.replays() - replays <= 2, "step " + step + ": " + (past.replays() - replays) + " replays");
      }
    }
  }

  @Test
  void aSecondReadOfAStepAnswersFromMemoryAndAnotherStepOfARunReadCostsNoFetch() {
    try (ReplayedPast past = new ReplayedPast(client(), plugin, UI)) {
      JsonNode five = past.world(SIMULATION, 5);
      int fetched = past.fetched();
      int replays = past.replays();
      assertEquals(2, fetched, "the latest run (steps 7-8) and the one holding step 5 (steps 4-6)");
      assertTrue(replays > 0);

      assertSame(five, past.world(SIMULATION, 5));
      assertEquals(fetched, past.fetched(), "no fetch for a step read before");
      assertEquals(replays, past.replays(), "no replay for a step read before");

      past.world(SIMULATION, 4);
      assertEquals(fetched, past.fetched(), "step 4 is in a run already read");
      assertTrue(past.replays() - replays <= 3, "near the step's agent steps: " + (past.replays() - replays));

      past.world(SIMULATION, 2);
      assertEquals(fetched + 1, past.fetched(), "only the first run more");
    }
  }

  @Test
  void anAgentAtAStepShowsWhatItsHistoryHoldsDecrypted() {
    String workflowId = SIMULATION + "/agent-citizen-1/step-2";
    List<HistoryEvent> events = client().fetchHistory(workflowId).getEvents();
    HistoryEvent started = events.get(0);
    assertEquals(AesGcmPayloadCodec.ENCODING, started.getWorkflowExecutionStartedEventAttributes().getInput()
        .getPayloads(0).getMetadataOrThrow(AesGcmPayloadCodec.METADATA_ENCODING).toStringUtf8(),
        "the history is encrypted");
    long llmActivities = events.stream().filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
        && e.getActivityTaskScheduledEventAttributes().getActivityType().getName()
            .equals(LlmActivities.CHAT_ACTIVITY_TYPE)).count();
    AgentStepResult result = client().newUntypedWorkflowStub(workflowId).getResult(AgentStepResult.class);

    try (ReplayedPast past = new ReplayedPast(client(), plugin, UI)) {
      JsonNode agent = past.agent(SIMULATION, "citizen-1", 2);
      assertEquals(workflowId, agent.get("workflowId").asText());
      assertEquals("http://ui.test:8233/namespaces/default/workflows/sim-view-past%2Fagent-citizen-1%2Fstep-2",
          agent.get("temporalUi").asText());
      assertEquals("citizen", agent.get("role").asText());
      assertEquals(2, agent.at("/observation/step").asInt());
      assertEquals("citizen-1", agent.at("/observation/selfState/id").asText());
      assertTrue(agent.at("/observation/localState").size() > 0, agent.get("observation").toString());
      assertTrue(llmActivities > 0);
      assertEquals(llmActivities, agent.get("llmCalls").size());
      assertEquals(result.llmCalls(), agent.get("llmCalls").size());
      long input = 0;
      long output = 0;
      for (JsonNode call : agent.get("llmCalls")) {
        assertEquals("rules", call.get("model").asText());
        assertEquals("completed", call.get("status").asText());
        input += call.get("inputTokens").asLong();
        output += call.get("outputTokens").asLong();
      }
      assertEquals(result.usage().input(), input);
      assertEquals(result.usage().output(), output);
      assertFalse(agent.at("/llmCalls/0/text").asText().isBlank(), "the model's reasoning text");
      assertEquals(result.reasoning(), agent.get("reasoning").asText());
      assertEquals(result.actions().size(), agent.get("actions").size());
      assertEquals(0, agent.get("toolCalls").size(), "Epstein's citizens have no external tool");
      assertTrue(agent.has("plan") && agent.has("remainingTtl") && agent.has("memory"));

      int fetched = past.fetched();
      assertSame(agent, past.agent(SIMULATION, "citizen-1", 2));
      assertEquals(fetched, past.fetched(), "an agent step read before costs no fetch");
    }
  }

  @Test
  void aCitizenInJailTookNoStepAndNamesTheLastStepItTook() {
    String demo = "sim-view-past-jail"; // the demo's world and seed: citizens are jailed within a few steps
    DurableAgentsTestEnvironment.simulation(client(), demo).run(SimulationInput.of("epstein", 10, 42));
    try (ReplayedPast past = new ReplayedPast(client(), plugin, UI)) {
      String jailed = null;
      int step = 0;
      for (int k = 2; k <= 10 && jailed == null; k++) {
        for (JsonNode a : past.world(demo, k - 1).path("agents")) {
          if (a.at("/attributes/jail_sentence").asInt() > 0) {
            jailed = a.get("id").asText();
            step = k;
            break;
          }
        }
      }
      assertTrue(jailed != null, "a citizen in jail across a step of the recorded run");
      JsonNode inJail = past.agent(demo, jailed, step);
      assertTrue(inJail.get("workflowId").isNull(), inJail.toString());
      int sentence = -1;
      for (JsonNode a : past.world(demo, step - 1).path("agents")) {
        if (a.get("id").asText().equals(jailed)) {
          sentence = a.at("/attributes/jail_sentence").asInt();
        }
      }
      assertEquals(jailed + " was jailed (sentence " + sentence + ") after step " + (step - 1)
          + ", and took no step at step " + step, inJail.get("note").asText());
      assertEquals("jailed (sentence " + sentence + ")", inJail.get("state").asText());
      int last = inJail.get("lastStep").asInt();
      assertTrue(last >= 1 && last < step, inJail.toString());
      JsonNode then = past.agent(demo, jailed, last);
      assertFalse(then.get("workflowId").isNull(), "it took step " + last + ": " + then);
      assertTrue(then.get("reasoning").asText().contains("active"), then.get("reasoning").asText());
    }
  }

  @Test
  void anAgentOfAGroupStepIsReadFromTheGroupsHistoryAndTheWorldIsTheSame() {
    try (ReplayedPast past = new ReplayedPast(client(), plugin, null)) {
      JsonNode agent = past.agent(GROUPED, "citizen-5", 3);
      String workflowId = agent.get("workflowId").asText();
      assertTrue(workflowId.startsWith(GROUPED + "/step-3/group-"), workflowId);
      assertTrue(agent.get("temporalUi").isNull(), "no UI given, no link");
      List<AgentStepResult> results = List.of(client().newUntypedWorkflowStub(workflowId)
          .getResult(AgentStepResult[].class));
      AgentStepResult own = results.stream().filter(r -> r.agentId().equals("citizen-5")).findFirst().orElseThrow();
      assertEquals(own.llmCalls(), agent.get("llmCalls").size(), "only citizen-5's calls of the group's");
      assertEquals(own.reasoning(), agent.get("reasoning").asText());
      assertEquals(shown(past.world(SIMULATION, 6)), shown(past.world(GROUPED, 6)),
          "groups change how agents run, not what they do");
    }
  }

  /** What the view should draw for a state: its world restored and portrayed by the scenario. */
  private static List<List<Object>> drawn(Checkpoint state) {
    Scenario<?> scenario = plugin.scenarios().get(state.input().scenario());
    Portrayal portrayal = state.input().state() == null
        ? new io.durableagents.scenarios.epstein.EpsteinScenario().create(
            EpsteinParameters.DEFAULTS.withAgents(12, 3), new io.durableagents.api.SeededRandom(11)).portrayal()
        : scenario.restore(state.input().state().world()).portrayal();
    List<List<Object>> rows = new ArrayList<>();
    for (AgentPortrayal a : portrayal.agents()) {
      rows.add(List.of(a.id(), a.x(), a.y(), a.color(), a.shape().jsonName(), String.valueOf(a.label()),
          String.valueOf(a.attributes().get("condition"))));
    }
    return rows;
  }

  /** What the view was given to draw, in the same rows. */
  private static List<List<Object>> shown(JsonNode world) {
    List<List<Object>> rows = new ArrayList<>();
    for (JsonNode a : world.get("agents")) {
      assertNotNull(a.get("attributes"));
      rows.add(List.of(a.get("id").asText(), a.get("x").asInt(), a.get("y").asInt(), a.get("color").asText(),
          a.get("shape").asText(), a.get("label").isNull() ? "null" : a.get("label").asText(),
          a.at("/attributes/condition").isMissingNode() ? "null" : a.at("/attributes/condition").asText()));
    }
    return rows;
  }
}
