package io.durableagents.starter.view.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.api.AgentPortrayal;
import io.durableagents.api.Portrayal;
import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.starter.view.SimulationPast;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.worker.SimulationReplay;
import io.durableagents.workflows.agent.AgentGroupStepInput;
import io.durableagents.workflows.scenario.ScenarioParameters;
import io.durableagents.workflows.simulation.Checkpoint;
import io.durableagents.workflows.simulation.SimulationInput;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.JacksonJsonPayloadConverter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A simulation's past read from its recorded histories by replay, exactly as {@code fork} reads it
 * ({@link SimulationReplay}: the simulation's own workflow code replayed locally, no worker, no LLM
 * call), for the view: the world after any step, restored with the scenario's {@code restore} and
 * drawn with its {@link ScenarioWorld#portrayal()}, and one agent at a step, from that agent step's
 * history. Every payload is decoded through {@code client}'s data converter, so an encrypted history is
 * decrypted here with the configured keys and nothing is sent anywhere else.
 *
 * <p>What was read is kept: the runs' histories (a run that has ended is fetched once; the running one
 * again only for a step its copy here has not completed), the world after every step read and every
 * agent step read. A second read of the same step answers from memory; another step of a run already
 * read costs one or two replays of that run and no fetch. Safe to share between threads (one reader at a
 * time).
 *
 * <pre>{@code
 * ReplayedPast past = new ReplayedPast(client, plugin, "http://localhost:8233");
 * JsonNode world = past.world("sim-epstein-42", 5);          // the grid after step 5
 * JsonNode citizen = past.agent("sim-epstein-42", "citizen-3", 5);
 * }</pre>
 */
public final class ReplayedPast implements SimulationPast, AutoCloseable {
  /** Simulations whose runs are kept; the least recently read is dropped beyond it. */
  static final int SIMULATIONS_KEPT = 8;
  /** Worlds and agent steps kept, across simulations. */
  static final int READINGS_KEPT = 20_000;

  private final WorkflowClient client;
  private final DurableAgentsPlugin plugin;
  private final String temporalUi;
  private final DataConverter converter;
  private final ObjectMapper json = JacksonJsonPayloadConverter.newDefaultObjectMapper();
  private final AgentStepReading agentSteps;
  private SimulationReplay replay;
  private final Map<String, RecordedRuns> simulations = lru(SIMULATIONS_KEPT);
  private final Map<String, JsonNode> worlds = lru(READINGS_KEPT);
  private final Map<String, JsonNode> agents = lru(READINGS_KEPT);
  private int fetched;

  /**
   * A reader of the simulations on {@code client}'s Temporal, with the scenarios (and codec) of {@code
   * plugin}, linking agent steps to the Temporal UI at {@code temporalUiBaseUrl} (null or blank: no
   * link, as for the in-memory Temporal, which has no UI).
   */
  public ReplayedPast(WorkflowClient client, DurableAgentsPlugin plugin, String temporalUiBaseUrl) {
    this.client = client;
    this.plugin = plugin;
    this.temporalUi = temporalUiBaseUrl == null || temporalUiBaseUrl.isBlank() ? null
        : temporalUiBaseUrl.replaceAll("/+$", "");
    this.converter = client.getOptions().getDataConverter();
    this.agentSteps = new AgentStepReading(converter, json);
  }

  /**
   * The world after {@code step} (0: as created, before the first step; a negative step: the latest
   * step the simulation has completed), in the shape {@link SimulationPast#world} gives, with {@code
   * "scenario"} and the step's {@code "counts"} besides.
   *
   * @throws IllegalArgumentException when there is no such simulation or it has not completed the step
   */
  @Override
  public synchronized JsonNode world(String simulationId, int step) {
    String key = simulationId + "\n" + step;
    JsonNode known = step >= 0 ? worlds.get(key) : null;
    if (known != null) {
      return known;
    }
    RecordedRuns runs = runs(simulationId);
    Checkpoint state;
    if (step < 0) {
      state = replay().latest(simulationId, history(runs.refreshLatest()));
      JsonNode latest = worlds.get(simulationId + "\n" + state.step());
      if (latest != null) {
        return latest;
      }
    } else {
      RecordedRuns.Run run = runs.runFor(step);
      state = replay().stateAfter(simulationId, java.util.List.of(history(run)), step);
    }
    JsonNode drawn = portrayed(state);
    worlds.put(simulationId + "\n" + state.step(), drawn);
    return drawn;
  }

  /**
   * The agent {@code agentId} at {@code step}, in the shape {@link SimulationPast#agent} gives, with
   * {@code "role"}, {@code "strategy"}, {@code "planBefore"} (the plan it held coming in), {@code
   * "reasoning"}, {@code "failure"} and {@code "status"} besides; {@code remainingTtl} is how many more
   * steps its plan stays valid after this one (as the {@code plans} command counts). An agent that took
   * no step then (a jailed citizen) has {@code "workflowId": null} and says why in {@code "note"}.
   *
   * @throws IllegalArgumentException when there is no such simulation or it has not started the step
   */
  @Override
  public synchronized JsonNode agent(String simulationId, String agentId, int step) {
    String key = simulationId + "\n" + agentId + "\n" + step;
    JsonNode known = agents.get(key);
    if (known != null) {
      return known;
    }
    if (step < 1) {
      throw new IllegalArgumentException("agents act from step 1 on; step " + step + " has no agent step");
    }
    RecordedRuns.Run run = runs(simulationId).runFor(step - 1);
    StepOf found = agentStepOf(run, simulationId, agentId, step);
    String workflowId = found == null ? null : found.workflowId();
    boolean group = found != null && found.group();
    ObjectNode reading;
    if (workflowId == null) {
      if (!run.showsCompleted(step - 1)) {
        throw new IllegalArgumentException("'" + simulationId + "' has not started step " + step);
      }
      reading = json.createObjectNode();
      reading.put("agentId", agentId);
      reading.put("step", step);
      reading.putNull("workflowId");
      reading.putNull("temporalUi");
      JsonNode before = agentIn(world(simulationId, step - 1), agentId);
      String state = before == null ? "" : before.path("state").asText("");
      reading.put("state", state);
      reading.put("note", before == null ? agentId + " is no agent of '" + simulationId + "': it took no step at step "
          + step : state.isEmpty() ? agentId + " took no step at step " + step + ": it could not act after step "
          + (step - 1) : agentId + " was " + state + " after step " + (step - 1) + ", and took no step at step "
          + step);
      Integer last = lastStepBefore(simulationId, agentId, step);
      if (last != null) {
        reading.put("lastStep", last); // a jailed citizen: the step it last acted, where it rebelled
      }
      reading.set("llmCalls", json.createArrayNode());
      reading.set("toolCalls", json.createArrayNode());
      reading.set("actions", json.createArrayNode());
    } else {
      reading = agentSteps.read(fetch(workflowId, null), agentId, step, group);
      reading.put("workflowId", workflowId);
      reading.put("temporalUi", temporalUi == null ? null : temporalUi + "/namespaces/"
          + client.getOptions().getNamespace() + "/workflows/" + workflowId.replace("/", "%2F"));
    }
    if (!"running".equals(reading.path("status").asText())) {
      agents.put(key, reading);
    }
    return reading;
  }

  /** The agent {@code agentId} in a world as {@link #world} draws it, or null when it has none such. */
  private static JsonNode agentIn(JsonNode world, String agentId) {
    for (JsonNode a : world.path("agents")) {
      if (agentId.equals(a.path("id").asText())) {
        return a;
      }
    }
    return null;
  }

  /** Where an agent's step ran: its own workflow, or the group step holding it. */
  private record StepOf(String workflowId, boolean group) {}

  private StepOf agentStepOf(RecordedRuns.Run run, String simulationId, String agentId, int step) {
    String own = AgentStepIds.agentStep(simulationId, agentId, step);
    for (HistoryEvent e : run.history().getEvents()) {
      if (e.getEventType() != EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
        continue;
      }
      var started = e.getStartChildWorkflowExecutionInitiatedEventAttributes();
      if (started.getWorkflowId().equals(own)) {
        return new StepOf(own, false);
      }
      if (AgentStepIds.isGroupStep(simulationId, started.getWorkflowId(), step)
          && converter.fromPayloads(0, Optional.of(started.getInput()), AgentGroupStepInput.class,
              AgentGroupStepInput.class).agents().stream().anyMatch(a -> a.agentId().equals(agentId))) {
        return new StepOf(started.getWorkflowId(), true);
      }
    }
    return null;
  }

  /** The last step before {@code step} at which the agent acted, looking back at most 100 steps. */
  private Integer lastStepBefore(String simulationId, String agentId, int step) {
    for (int k = step - 1; k >= Math.max(1, step - 100); k--) {
      if (agentStepOf(runs(simulationId).runFor(k - 1), simulationId, agentId, k) != null) {
        return k;
      }
    }
    return null;
  }

  /** How many histories were fetched from the server so far (runs of simulations and agent steps). */
  public synchronized int fetched() {
    return fetched;
  }

  /** How many history prefixes were replayed so far. */
  public synchronized int replays() {
    return replay == null ? 0 : replay.replays();
  }

  /** Releases the replaying worker. */
  @Override
  public synchronized void close() {
    if (replay != null) {
      replay.close();
      replay = null;
    }
  }

  private JsonNode portrayed(Checkpoint state) {
    SimulationInput input = state.input();
    Scenario<?> scenario = plugin.scenarios().get(input.scenario());
    ScenarioWorld world = input.state() == null
        ? create(scenario, input.parameters(), new SeededRandom(input.seed()))
        : scenario.restore(input.state().world());
    Portrayal portrayal = world.portrayal();
    ObjectNode drawn = json.createObjectNode();
    drawn.put("step", state.step());
    drawn.put("scenario", input.scenario());
    if (portrayal.grid() == null) {
      drawn.putNull("grid");
    } else {
      drawn.putObject("grid").put("width", portrayal.grid().width()).put("height", portrayal.grid().height());
    }
    ArrayNode list = drawn.putArray("agents");
    for (AgentPortrayal a : portrayal.agents()) {
      ObjectNode agent = list.addObject();
      agent.put("id", a.id());
      agent.put("role", a.role());
      agent.put("x", a.x());
      agent.put("y", a.y());
      agent.put("color", a.color());
      agent.put("shape", a.shape().jsonName());
      agent.put("label", a.label());
      agent.put("state", portrayal.stateOf(a));
      agent.set("attributes", json.valueToTree(a.attributes()));
    }
    drawn.set("legend", json.valueToTree(portrayal.legend()));
    drawn.set("counts", json.valueToTree(world.counts()));
    return drawn;
  }

  /** A world created as the simulation's first run creates it, from its parameters and seed. */
  private static <P extends Record> ScenarioWorld create(Scenario<P> scenario, JsonNode parameters,
      SeededRandom random) {
    return scenario.create(ScenarioParameters.read(scenario, parameters), random);
  }

  private RecordedRuns runs(String simulationId) {
    return simulations.computeIfAbsent(simulationId, id -> new RecordedRuns(id, replay(), this::fetch));
  }

  private SimulationReplay replay() {
    if (replay == null) {
      replay = new SimulationReplay(client, plugin);
    }
    return replay;
  }

  private static WorkflowExecutionHistory history(RecordedRuns.Run run) {
    return run.history();
  }

  private WorkflowExecutionHistory fetch(String workflowId, String runId) {
    try {
      fetched++;
      return runId == null ? client.fetchHistory(workflowId) : client.fetchHistory(workflowId, runId);
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        throw new IllegalArgumentException("no workflow '" + workflowId + "' on this Temporal (namespace "
            + client.getOptions().getNamespace() + ")", e);
      }
      throw e;
    }
  }

  private static <V> Map<String, V> lru(int size) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > size;
      }
    };
  }
}
