package io.durableagents.scenarios.epstein;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import io.durableagents.scenarios.grid.Direction;

/**
 * The world actions of Epstein's civil violence model, as the model sees them. These methods only
 * declare the actions (their names and JSON schemas); the simulation workflow applies them to the
 * world ({@link io.durableagents.scenarios.epstein.EpsteinWorld}).
 */
public class EpsteinActions {
  /** A citizen's state that it can choose. */
  public enum CitizenState {
    active,
    quiet
  }

  @Tool(name = "change_state",
      value = "Change your state: 'active' to rebel openly, 'quiet' to stay quiet. Citizens only.")
  public String changeState(@P("the state to take: active or quiet") CitizenState state) {
    return "change_state " + state + ": requested";
  }

  @Tool(name = "move_one_step",
      value = "Move one cell on the grid. The move is blocked if the cell is taken.")
  public String moveOneStep(@P("the direction to move in") Direction direction) {
    return "move_one_step " + direction + ": requested";
  }

  @Tool(name = "arrest_citizen",
      value = "Arrest an active citizen within your vision, by id (e.g. citizen-3). Cops only.")
  public String arrestCitizen(@P("the id of the citizen to arrest, e.g. citizen-3") String citizen_id) {
    return "arrest_citizen " + citizen_id + ": requested";
  }
}
