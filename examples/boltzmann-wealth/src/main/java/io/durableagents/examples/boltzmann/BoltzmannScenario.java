package io.durableagents.examples.boltzmann;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import java.util.List;
import java.util.Map;

/**
 * Mesa's introductory Boltzmann wealth model with LLM agents: people on a grid, each with the same
 * money at the start; each step a person moves to a neighbouring cell and, if it has money, gives one
 * unit to someone in its cell. Money is conserved, yet it ends up unequally shared, as energy in a
 * gas does: the data collector records the Gini coefficient, the total and the richest person's money.
 *
 * <p>The scenario is the one class the engine asks about the model: its name, role, parameters,
 * world and prompts. It runs inside workflows, so it is deterministic. Registered on a worker with its
 * actions' declaration and its rule policy:
 *
 * <pre>{@code
 * DurableAgentsPlugin.newBuilder()
 *     .registerScenario(new BoltzmannScenario(), new BoltzmannActions(), new BoltzmannRulePolicy())
 * }</pre>
 */
public final class BoltzmannScenario implements Scenario<BoltzmannParameters> {
  public static final String NAME = "boltzmann-wealth";

  /** The one role. */
  public static final String PERSON = "person";

  /** World actions; their {@code @Tool} declarations, what models see, are in {@link BoltzmannActions}. */
  public static final String MOVE = "move";
  public static final String GIVE_MONEY = "give_money";
  public static final List<String> WORLD_ACTIONS = List.of(MOVE, GIVE_MONEY);

  /** Arguments of the actions. */
  public static final String DIRECTION = "direction";
  public static final String RECIPIENT_ID = "recipient_id";

  /** What an observation shows. */
  public static final String POSITION = "position";
  public static final String WEALTH = "wealth";
  public static final String CELLMATES = "cellmates";
  public static final String GRID = "grid";
  public static final String CELL_CAPACITY = "cell_capacity";

  /** The variables recorded each step. */
  public static final String GINI = "gini";
  public static final String TOTAL_WEALTH = "total_wealth";
  public static final String RICHEST_WEALTH = "richest_wealth";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Mesa's Boltzmann wealth model: people move about a torus and give money to those they meet";
  }

  @Override
  public List<String> roles() {
    return List.of(PERSON);
  }

  @Override
  public Class<BoltzmannParameters> parametersType() {
    return BoltzmannParameters.class;
  }

  @Override
  public BoltzmannParameters defaults() {
    return BoltzmannParameters.DEFAULTS;
  }

  @Override
  public void check(BoltzmannParameters parameters) {
    parameters.check();
  }

  @Override
  public ScenarioWorld create(BoltzmannParameters parameters, SeededRandom random) {
    return BoltzmannWorld.create(parameters, random);
  }

  @Override
  public ScenarioWorld restore(JsonNode snapshot) {
    return BoltzmannWorld.restore(Json.MAPPER.convertValue(snapshot, BoltzmannSnapshot.class));
  }

  @Override
  public String roleDescription(String role) {
    return "You are a person in the Boltzmann wealth model, on a grid whose edges wrap around, with "
        + "other people, several to a cell. Everyone started with the same money. Each step you may "
        + "move to one of the eight cells around you, and give one unit of your money to someone in "
        + "your cell. Money is never created or destroyed, only given. You see who is in your cell "
        + "and in the cells around you, and how much money each of them has.";
  }

  @Override
  public String stepPrompt(String role) {
    return "Decide this step's actions: where to move, and whether to give one unit of money to someone "
        + "in the cell you will be in, and to whom. Your actions are applied in the order you call them; "
        + "others act at the same time, so someone you see now may have moved when your gift arrives.";
  }

  /**
   * Why an action planned at an earlier step (a ReWOO plan held for several steps) can no longer
   * succeed, judged from the current observation: a gift to someone who is no longer in the agent's
   * cell, or with no money left, or a move into a cell now full. The agent then re-plans.
   */
  @Override
  public String plannedActionProblem(Observation observation, String tool, JsonNode arguments) {
    Map<String, Object> self = observation.selfState();
    Cell here = Cell.of(self.get(POSITION));
    if (GIVE_MONEY.equals(tool)) {
      String recipient = arguments == null ? null : arguments.path(RECIPIENT_ID).asText(null);
      if (self.get(WEALTH) instanceof Number wealth && wealth.intValue() < 1) {
        return "give_money: you have no money left";
      }
      Map<String, Object> seen = recipient == null ? null : observation.localState().get(recipient);
      if (seen == null) {
        return "give_money " + recipient + ": no longer within sight";
      }
      Cell there = Cell.of(seen.get(POSITION));
      if (here != null && there != null && !here.equals(there)) {
        return "give_money " + recipient + ": is at " + there.asList() + ", not in your cell " + here.asList();
      }
      return null;
    }
    if (MOVE.equals(tool) && here != null && self.get(GRID) instanceof Map<?, ?> grid) {
      Heading heading = Heading.parse(arguments == null ? null : arguments.path(DIRECTION).asText(null));
      if (heading == null) {
        return null;
      }
      Cell target = here.step(heading, number(grid.get("width")), number(grid.get("height")));
      long there = observation.localState().values().stream()
          .filter(other -> target.equals(Cell.of(other.get(POSITION)))).count();
      int capacity = number(grid.get(CELL_CAPACITY));
      if (!target.equals(here) && capacity > 0 && there >= capacity) {
        return "move " + heading + ": cell " + target.asList() + " is now full";
      }
    }
    return null;
  }

  private static int number(Object value) {
    return value instanceof Number n ? n.intValue() : 0;
  }
}
