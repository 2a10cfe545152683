package io.durableagents.examples.boltzmann;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;

/**
 * The world actions of the Boltzmann wealth model, as models see them: LangChain4j turns each {@code
 * @Tool} method into the action's name, description and JSON schema (its arguments' names come from
 * the parameters' names, hence {@code -parameters} in the compiler's configuration). The bodies are
 * never called: the simulation workflow applies the actions to the world ({@link BoltzmannWorld#apply}).
 */
public class BoltzmannActions {
  @Tool(name = BoltzmannScenario.MOVE,
      value = "Move to one of the eight cells around you; the grid wraps around at its edges. "
          + "Blocked if that cell is full.")
  public String move(@P("the direction to move in") Heading direction) {
    return "move " + direction + ": requested";
  }

  @Tool(name = BoltzmannScenario.GIVE_MONEY,
      value = "Give one unit of your money to another person in your cell, by id (e.g. person-3). "
          + "Call it after move to give to someone in the cell you move to. Refused if they are no "
          + "longer in your cell or you have no money.")
  public String giveMoney(@P("the id of the person to give to, e.g. person-3") String recipient_id) {
    return "give_money " + recipient_id + ": requested";
  }
}
