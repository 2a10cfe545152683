package io.durableagents.activities.llm;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import io.durableagents.activities.tools.BuiltinTools;
import io.durableagents.activities.tools.ToolRegistry;
import java.nio.file.Path;

/**
 * World actions shaped like a grid scenario's (an enum direction, an enum state), for the providers'
 * wire tests: the engine knows no scenario, so these tests declare the actions their models call.
 */
public class CitizenActions {
  /** A state a citizen can take. */
  public enum CitizenState {
    active,
    quiet
  }

  /** A direction on the grid. */
  public enum Direction {
    North,
    South,
    East,
    West,
    NorthEast,
    NorthWest,
    SouthEast,
    SouthWest
  }

  @Tool(name = "change_state", value = "Change your state: 'active' to rebel openly, 'quiet' to stay quiet.")
  public String changeState(@P("the state to take: active or quiet") CitizenState state) {
    return "change_state " + state + ": requested";
  }

  @Tool(name = "move_one_step", value = "Move one cell on the grid. The move is blocked if the cell is taken.")
  public String moveOneStep(@P("the direction to move in") Direction direction) {
    return "move_one_step " + direction + ": requested";
  }

  /** The worker's own tools ({@link BuiltinTools}) with these world actions. */
  static ToolRegistry registry(Path filesDirectory) {
    return BuiltinTools.builder(filesDirectory).addWorldActions(new CitizenActions()).build();
  }
}
