package io.durableagents.scenarios.negotiation;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import java.util.List;

/**
 * The world actions of Mesa-LLM's negotiation example, as the model sees them. These methods only
 * declare the actions (their names and JSON schemas); the simulation workflow applies them to the
 * world ({@link io.durableagents.scenarios.negotiation.NegotiationWorld}).
 *
 * <p>The arguments follow Mesa-LLM's tools: {@code speak_to(listener_agents_unique_ids, message)}
 * with our string ids, {@code teleport_to_location(target_coordinates)}, and {@code
 * buy_product(chosen_product, chosen_price)}, which here names the seller and the product kind
 * instead, since every seller sells both kinds at its own fixed price.
 */
public class NegotiationActions {
  /** The kinds of product every seller offers. */
  public enum Product {
    shoes,
    track_suit
  }

  @Tool(name = "speak_to",
      value = "Say something to other agents within your vision, by id (e.g. buyer-2, seller-0). "
          + "They read it as '<your id> says: <message>' in their next observation's "
          + "self_state.messages. Messages longer than 500 characters are cut.")
  public String speakTo(
      @P("the ids of the agents to speak to, e.g. [\"buyer-2\", \"buyer-4\"]") List<String> listener_agent_ids,
      @P("what to say") String message) {
    return "speak_to " + listener_agent_ids + ": requested";
  }

  @Tool(name = "teleport_to_location",
      value = "Move at once to any free cell of the grid. Buyers only. The move is blocked if the cell "
          + "is taken; cells run from [0, 0] to [width - 1, height - 1] (self_state.grid).")
  public String teleportToLocation(
      @P("exactly two integers [x, y] inside the grid, e.g. [3, 2]") List<Integer> target_coordinates) {
    return "teleport_to_location " + target_coordinates + ": requested";
  }

  @Tool(name = "buy_product",
      value = "Buy one product from a seller next to you (distance 1) at the seller's listed price, "
          + "which is taken from your budget. Buyers only; fails if the price exceeds your budget.")
  public String buyProduct(
      @P("the id of the seller to buy from, e.g. seller-1") String seller_id,
      @P("the product to buy: shoes or track_suit") Product product) {
    return "buy_product " + product + " from " + seller_id + ": requested";
  }
}
