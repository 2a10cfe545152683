package io.durableagents.scenarios.negotiation;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.scenarios.grid.GridPosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Mesa-LLM's negotiation example: sellers stay at their stands and pitch their products with {@code
 * speak_to}; buyers with a budget {@code teleport_to_location} next to sellers, talk with them and
 * {@code buy_product}. Names of roles, products, world actions and observation keys, and the prompts.
 */
public final class NegotiationScenario implements Scenario<NegotiationParameters> {
  public static final String NAME = "negotiation";

  public static final String SELLER = "seller";
  public static final String BUYER = "buyer";

  /** Product kinds: every seller offers both. */
  public static final String SHOES = "shoes";

  public static final String TRACK_SUIT = "track_suit";

  /** World actions. Their {@code @Tool} declarations (what models see) are in the activities module. */
  public static final String SPEAK_TO = "speak_to";

  public static final String TELEPORT_TO_LOCATION = "teleport_to_location";
  public static final String BUY_PRODUCT = "buy_product";

  /** Argument names of the world actions. */
  public static final String LISTENER_AGENT_IDS = "listener_agent_ids";

  public static final String MESSAGE = "message";
  public static final String TARGET_COORDINATES = "target_coordinates";
  public static final String SELLER_ID = "seller_id";
  public static final String PRODUCT = "product";

  /** Sellers only speak (Mesa-LLM's {@code selected_tools=["speak_to"]}); buyers move, speak and buy. */
  public static final List<String> SELLER_TOOLS = List.of(SPEAK_TO);

  public static final List<String> BUYER_TOOLS = List.of(TELEPORT_TO_LOCATION, SPEAK_TO, BUY_PRODUCT);
  public static final List<String> WORLD_ACTIONS = List.of(SPEAK_TO, TELEPORT_TO_LOCATION, BUY_PRODUCT);

  /** Observation keys: an agent's messages received last step, a buyer's money, a seller's traits. */
  public static final String MESSAGES = "messages";

  public static final String BUDGET = "_budget";
  public static final String TRAITS = "_traits";
  public static final String PURCHASES = "purchases";
  public static final String OWNS = "owns";
  public static final String PRODUCTS = "products";

  /** What joins a message's sender and text: {@code seller-0 says: ...}. */
  public static final String SAYS = " says: ";

  /** Longer messages are cut, so that observations (and histories) stay bounded. */
  public static final int MAX_MESSAGE_CHARS = 500;

  /** The distance at which a buyer can buy from a seller: the seller's cell's neighbours. */
  public static final int REACH = 1;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Mesa-LLM's negotiation example: sellers pitch, buyers move, talk and buy";
  }

  @Override
  public List<String> roles() {
    return List.of(SELLER, BUYER);
  }

  @Override
  public Class<NegotiationParameters> parametersType() {
    return NegotiationParameters.class;
  }

  @Override
  public NegotiationParameters defaults() {
    return NegotiationParameters.DEFAULTS;
  }

  @Override
  public void check(NegotiationParameters parameters) {
    parameters.check();
  }

  @Override
  public ScenarioWorld create(NegotiationParameters parameters, SeededRandom random) {
    return NegotiationWorld.create(parameters, random);
  }

  @Override
  public ScenarioWorld restore(JsonNode snapshot) {
    return NegotiationWorld.restore(Json.MAPPER.convertValue(snapshot, NegotiationSnapshot.class));
  }

  @Override
  public String roleDescription(String role) {
    if (SELLER.equals(role)) {
      return "You are a seller in a negotiation game (Mesa-LLM's negotiation example), trying to sell "
          + "your brand's products to the buyer agents. Your products, prices and their quality (1 to "
          + "5) are in your self_state.products; prices are fixed. You stay at your stand: you cannot "
          + "move. Your personality is in _traits: act it out. To do any action, you must use the tools "
          + "provided to you: speak_to sends a message to agents within your vision; a sale happens "
          + "when a buyer next to you calls buy_product. Messages sent to you in the last step are in "
          + "self_state.messages.";
    }
    return "You are a buyer in a negotiation game (Mesa-LLM's negotiation example). You are interested "
        + "in buying a pair of shoes and a track suit (at most one of each) from the sellers, and in "
        + "negotiating with them. Your money left is _budget; sellers' products, prices and quality (1 "
        + "to 5) are in local_state. You can buy only from a seller next to you (distance 1), only "
        + "what you can afford. Prefer speaking over changing location as long as a seller is next to "
        + "you. Messages sent to you in the last step are in self_state.messages.";
  }

  @Override
  public String stepPrompt(String role) {
    if (SELLER.equals(role)) {
      return "Don't move around. If there are any buyers in your cell or in the neighboring cells, "
          + "pitch them your product using the speak_to tool. Talk to them until they agree or "
          + "definitely refuse to buy your product.";
    }
    return "Move around by using the teleport_to_location tool if you are not next to a seller "
        + "(self_state.grid gives the grid's size). Seller agents around you might try to pitch their "
        + "product by sending you messages: get as much information as possible. When you have enough "
        + "information, decide what to buy with buy_product.";
  }

  /**
   * A planned teleport into a cell the agent now sees taken is blocked; a planned purchase fails when
   * the seller is gone from sight or no longer next to the buyer, does not sell the product, or the
   * budget no longer covers its price; planned words go nowhere when no listener is in sight.
   */
  @Override
  public String plannedActionProblem(Observation observation, String tool, JsonNode arguments) {
    Map<String, Object> self = observation.selfState();
    Map<String, Map<String, Object>> local = observation.localState();
    if (TELEPORT_TO_LOCATION.equals(tool)) {
      GridPosition target = position(arguments == null ? null : arguments.get(TARGET_COORDINATES));
      if (target == null) {
        return null;
      }
      for (Map.Entry<String, Map<String, Object>> other : local.entrySet()) {
        if (target.equals(position(other.getValue().get("position")))) {
          return TELEPORT_TO_LOCATION + " " + target.asList() + ": the cell is now taken by "
              + other.getKey();
        }
      }
      return null;
    }
    if (BUY_PRODUCT.equals(tool)) {
      String sellerId = arguments == null ? null : arguments.path(SELLER_ID).asText(null);
      Map<String, Object> seller = sellerId == null ? null : local.get(sellerId);
      if (seller == null) {
        return BUY_PRODUCT + " " + sellerId + ": the seller is no longer within vision";
      }
      GridPosition here = position(self.get("position"));
      GridPosition there = position(seller.get("position"));
      if (here != null && there != null && distance(here, there) > REACH) {
        return BUY_PRODUCT + " " + sellerId + ": the seller is no longer next to you";
      }
      String product = parseProduct(arguments.path(PRODUCT).asText(null));
      Integer price = price(seller.get(PRODUCTS), product);
      if (price == null) {
        return BUY_PRODUCT + " " + sellerId + ": does not sell '" + arguments.path(PRODUCT).asText("")
            + "'";
      }
      Object budget = self.get(BUDGET);
      if (budget instanceof Number && ((Number) budget).intValue() < price) {
        return BUY_PRODUCT + " " + product + " from " + sellerId + ": costs " + price
            + ", more than your budget of " + budget;
      }
      return null;
    }
    if (SPEAK_TO.equals(tool) && arguments != null && arguments.path(LISTENER_AGENT_IDS).isArray()) {
      List<String> gone = new ArrayList<>();
      for (JsonNode id : arguments.path(LISTENER_AGENT_IDS)) {
        if (!local.containsKey(id.asText())) {
          gone.add(id.asText());
        }
      }
      if (!gone.isEmpty() && gone.size() == arguments.path(LISTENER_AGENT_IDS).size()) {
        return SPEAK_TO + " " + gone + ": no longer within vision";
      }
    }
    return null;
  }

  /**
   * The product kind a model meant: {@code shoes} or {@code track_suit}, ignoring case, spaces,
   * dashes and a brand prefix ({@code "Brand A Track Suit"}); null when it is neither.
   */
  public static String parseProduct(String value) {
    if (value == null) {
      return null;
    }
    String v = value.toLowerCase(Locale.ROOT).replaceAll("[^a-z]", "");
    if (v.endsWith("shoes") || v.endsWith("shoe")) {
      return SHOES;
    }
    if (v.endsWith("tracksuit") || v.endsWith("tracksuits")) {
      return TRACK_SUIT;
    }
    return null;
  }

  /** The Chebyshev (Moore) distance on a grid without wrap-around. */
  public static int distance(GridPosition a, GridPosition b) {
    return Math.max(Math.abs(a.x() - b.x()), Math.abs(a.y() - b.y()));
  }

  /** {@code [x, y]} (a list or a JSON array) as a position, or null. */
  public static GridPosition position(Object value) {
    if (value instanceof JsonNode) {
      JsonNode xy = (JsonNode) value;
      if (xy.isArray() && xy.size() == 2 && xy.get(0).isNumber() && xy.get(1).isNumber()) {
        return new GridPosition(xy.get(0).asInt(), xy.get(1).asInt());
      }
      return null;
    }
    if (value instanceof List && ((List<?>) value).size() == 2) {
      List<?> xy = (List<?>) value;
      if (xy.get(0) instanceof Number && xy.get(1) instanceof Number) {
        return new GridPosition(((Number) xy.get(0)).intValue(), ((Number) xy.get(1)).intValue());
      }
    }
    return null;
  }

  private static Integer price(Object products, String product) {
    if (!(products instanceof List) || product == null) {
      return null;
    }
    for (Object p : (List<?>) products) {
      if (p instanceof Map && product.equals(((Map<?, ?>) p).get(PRODUCT))
          && ((Map<?, ?>) p).get("price") instanceof Number) {
        return ((Number) ((Map<?, ?>) p).get("price")).intValue();
      }
    }
    return null;
  }
}
