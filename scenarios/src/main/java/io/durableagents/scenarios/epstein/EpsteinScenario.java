package io.durableagents.scenarios.epstein;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.scenarios.grid.Direction;
import io.durableagents.scenarios.grid.GridPosition;
import io.durableagents.scenarios.grid.Torus;
import java.util.List;
import java.util.Map;

/**
 * Epstein's civil violence model as Mesa-LLM plays it: citizens decide whether to rebel and where to
 * move, cops arrest active citizens. Names of roles, conditions and world actions, and the prompts.
 */
public final class EpsteinScenario implements Scenario<EpsteinParameters> {
  public static final String NAME = "epstein";

  public static final String CITIZEN = "citizen";
  public static final String COP = "cop";

  public static final String QUIET = "quiet";
  public static final String ACTIVE = "active";
  public static final String JAILED = "jailed";

  /** World actions. Their {@code @Tool} declarations (what models see) are in the activities module. */
  public static final String CHANGE_STATE = "change_state";

  public static final String MOVE_ONE_STEP = "move_one_step";
  public static final String ARREST_CITIZEN = "arrest_citizen";

  public static final List<String> CITIZEN_TOOLS = List.of(CHANGE_STATE, MOVE_ONE_STEP);
  public static final List<String> COP_TOOLS = List.of(MOVE_ONE_STEP, ARREST_CITIZEN);
  public static final List<String> WORLD_ACTIONS = List.of(CHANGE_STATE, MOVE_ONE_STEP, ARREST_CITIZEN);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Epstein's civil violence model as Mesa-LLM plays it: citizens rebel or stay quiet, cops arrest";
  }

  @Override
  public List<String> roles() {
    return List.of(CITIZEN, COP);
  }

  @Override
  public Class<EpsteinParameters> parametersType() {
    return EpsteinParameters.class;
  }

  @Override
  public EpsteinParameters defaults() {
    return EpsteinParameters.DEFAULTS;
  }

  @Override
  public void check(EpsteinParameters parameters) {
    parameters.check();
  }

  @Override
  public ScenarioWorld create(EpsteinParameters parameters, SeededRandom random) {
    return EpsteinWorld.create(parameters, random);
  }

  @Override
  public ScenarioWorld restore(JsonNode snapshot) {
    return EpsteinWorld.restore(Json.MAPPER.convertValue(snapshot, EpsteinSnapshot.class));
  }

  /** Legitimacy, the threshold, the arrest constant, the jail term and vision apply from the next step. */
  @Override
  public ScenarioWorld adjust(ScenarioWorld world, EpsteinParameters parameters) {
    return EpsteinWorld.restore(parameters, ((EpsteinWorld) world).snapshot().agents());
  }

  @Override
  public String roleDescription(String role) {
    if (COP.equals(role)) {
      return "You are a cop in Epstein's civil violence model, on a grid of citizens under a "
          + "regime. Your duty is to keep order: arrest active (rebelling) citizens within your "
          + "vision, and patrol by moving one cell at a time.";
    }
    return "You are a citizen in Epstein's civil violence model, living under a regime whose "
        + "legitimacy you perceive. Your grievance is hardship x (1 - legitimacy). You weigh it "
        + "against your net risk of arrest (risk aversion x estimated arrest probability): if "
        + "grievance minus net risk exceeds your threshold you become active (rebel), otherwise you "
        + "stay quiet. You may also move one cell at a time. Attributes starting with '_' are "
        + "private: only you see them.";
  }

  @Override
  public String stepPrompt(String role) {
    if (COP.equals(role)) {
      return "Decide this step's actions: whom to arrest, if anyone, and where to move.";
    }
    return "Decide this step's actions: whether to be active or quiet, and where to move.";
  }

  /**
   * A planned move into a cell the agent now sees taken is blocked; a planned arrest of a citizen who
   * is out of sight or no longer active has no target. Either way the agent should re-plan.
   */
  @Override
  public String plannedActionProblem(Observation observation, String tool, JsonNode arguments) {
    Map<String, Object> self = observation.selfState();
    if (MOVE_ONE_STEP.equals(tool)) {
      GridPosition here = position(self.get("position"));
      Direction direction = Direction.parse(arguments == null ? null : arguments.path("direction").asText(null));
      Object grid = self.get("grid");
      if (here == null || direction == null || !(grid instanceof Map)) {
        return null;
      }
      Map<?, ?> g = (Map<?, ?>) grid;
      Torus torus = new Torus(((Number) g.get("width")).intValue(), ((Number) g.get("height")).intValue());
      GridPosition target = torus.step(here, direction);
      for (Map.Entry<String, Map<String, Object>> other : observation.localState().entrySet()) {
        if (target.equals(position(other.getValue().get("position")))) {
          return "move_one_step " + direction + ": cell " + target.asList() + " is now taken by "
              + other.getKey();
        }
      }
      return null;
    }
    if (ARREST_CITIZEN.equals(tool)) {
      String target = arguments == null ? null : arguments.path("citizen_id").asText(null);
      Map<String, Object> seen = target == null ? null : observation.localState().get(target);
      if (seen == null) {
        return "arrest_citizen " + target + ": no longer within vision";
      }
      if (!ACTIVE.equals(seen.get("state"))) {
        return "arrest_citizen " + target + ": is " + seen.get("state") + ", not active";
      }
    }
    return null;
  }

  private static GridPosition position(Object value) {
    if (value instanceof List && ((List<?>) value).size() == 2) {
      List<?> xy = (List<?>) value;
      return new GridPosition(((Number) xy.get(0)).intValue(), ((Number) xy.get(1)).intValue());
    }
    return null;
  }
}
