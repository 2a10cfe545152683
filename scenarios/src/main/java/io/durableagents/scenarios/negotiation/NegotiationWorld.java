package io.durableagents.scenarios.negotiation;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Observation;
import io.durableagents.api.Portrayal;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import io.durableagents.scenarios.grid.GridPosition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The negotiation world, after Mesa-LLM's negotiation example: sellers at fixed stands, buyers with a
 * budget, on a grid without wrap-around.
 *
 * <ul>
 *   <li>Seller 0 sells Brand A (shoes 40, track suit 50) and is hardworking, dedicated and persuasive;
 *       seller 1 sells Brand B (shoes 35, track suit 47) and is lazy and unmotivated; all four products
 *       have quality 4 (Mesa-LLM: "slightly over-priced for the same quality"). They stand at the
 *       grid's centre and the cell above it, as in Mesa-LLM. Further sellers (Brand C, ...) stand on
 *       random cells, with random prices (shoes 30-45, track suit 42-55), quality (2-5) and, in turn,
 *       the first or the second seller's traits.
 *   <li>Buyers start on random free cells; the first {@code buyers - buyers / 2} have the low budget
 *       (50), the others the high one (100).
 *   <li>One agent a cell (unlike Mesa-LLM's MultiGrid), so two buyers teleporting into one cell is a
 *       conflict: the first activated gets it, the other is told.
 *   <li>{@code speak_to} reaches agents within vision; the recipients see {@code "<sender> says:
 *       <message>"} in their next observation's {@code self_state.messages}, and {@link
 *       #drainMessages()} hands the same messages to the simulation.
 *   <li>{@code buy_product} needs the seller within distance 1 and enough budget; it moves the price
 *       from the buyer's budget to the seller's revenue and counts a sale.
 * </ul>
 *
 * <p>Its state is its parameters, its agents and the messages delivered at the last step's end: {@link
 * #restore} rebuilds it from them.
 */
public final class NegotiationWorld implements ScenarioWorld {
  /** The prefix of the sales variables: {@code sales_seller-0}. */
  public static final String SALES_PREFIX = "sales_";

  /** The variable of the buyers' money left, summed over buyers. */
  public static final String MONEY_LEFT = "money_left";

  /** The traits of Mesa-LLM's seller A and seller B. */
  private static final List<String> PERSUASIVE = List.of("hardworking", "dedicated", "persuasive");

  private static final List<String> LAZY = List.of("lazy", "unmotivated");
  private static final int MESA_QUALITY = 4;

  private final NegotiationParameters parameters;
  private final LinkedHashMap<String, NegotiationAgent> agents = new LinkedHashMap<>();
  /** Messages delivered at the last step's end: what each agent sees in its observation now. */
  private final Map<String, List<String>> inbox = new LinkedHashMap<>();
  /** Messages sent during this step, delivered at its end. */
  private final Map<String, List<String>> sent = new LinkedHashMap<>();
  /** Messages sent since the last {@link #drainMessages()}. */
  private final Map<String, List<String>> undrained = new LinkedHashMap<>();

  private NegotiationWorld(NegotiationParameters parameters, List<NegotiationAgent> agents,
      Map<String, List<String>> inbox) {
    this.parameters = parameters;
    for (NegotiationAgent a : agents) {
      this.agents.put(a.id(), a);
    }
    if (inbox != null) {
      inbox.forEach((id, texts) -> this.inbox.put(id, new ArrayList<>(texts)));
    }
  }

  /** Places the sellers (Mesa-LLM's first two at the centre) and the buyers on random free cells. */
  public static NegotiationWorld create(NegotiationParameters p, SeededRandom random) {
    List<GridPosition> free = new ArrayList<>();
    for (int x = 0; x < p.width(); x++) {
      for (int y = 0; y < p.height(); y++) {
        free.add(new GridPosition(x, y));
      }
    }
    List<NegotiationAgent> agents = new ArrayList<>();
    for (int i = 0; i < p.sellers(); i++) {
      GridPosition stand = new GridPosition(p.width() / 2, p.height() / 2 + i);
      if (i >= 2 || !free.contains(stand)) {
        stand = free.get(random.nextInt(free.size()));
      }
      free.remove(stand);
      List<NegotiationProduct> products;
      List<String> traits;
      if (i == 0) {
        products = List.of(new NegotiationProduct(NegotiationScenario.SHOES, 40, MESA_QUALITY),
            new NegotiationProduct(NegotiationScenario.TRACK_SUIT, 50, MESA_QUALITY));
        traits = PERSUASIVE;
      } else if (i == 1) {
        products = List.of(new NegotiationProduct(NegotiationScenario.SHOES, 35, MESA_QUALITY),
            new NegotiationProduct(NegotiationScenario.TRACK_SUIT, 47, MESA_QUALITY));
        traits = LAZY;
      } else {
        products = List.of(
            new NegotiationProduct(NegotiationScenario.SHOES, random.nextIntInclusive(30, 45),
                random.nextIntInclusive(2, 5)),
            new NegotiationProduct(NegotiationScenario.TRACK_SUIT, random.nextIntInclusive(42, 55),
                random.nextIntInclusive(2, 5)));
        traits = i % 2 == 0 ? PERSUASIVE : LAZY;
      }
      agents.add(NegotiationAgent.seller("seller-" + i, stand, brand(i), traits, products));
    }
    List<GridPosition> cells = random.shuffled(free);
    int lowBudgets = p.buyers() - p.buyers() / 2;
    for (int i = 0; i < p.buyers(); i++) {
      agents.add(NegotiationAgent.buyer("buyer-" + i, cells.get(i),
          i < lowBudgets ? p.lowBudget() : p.highBudget()));
    }
    return new NegotiationWorld(p, agents, Map.of());
  }

  /**
   * Rebuilds a world from its saved state.
   *
   * @param inbox the messages delivered at the last step's end, by recipient (may be empty)
   */
  public static NegotiationWorld restore(NegotiationParameters p, List<NegotiationAgent> agents,
      Map<String, List<String>> inbox) {
    return new NegotiationWorld(p, agents, inbox);
  }

  /** Rebuilds a world from {@link #snapshot()}. */
  public static NegotiationWorld restore(NegotiationSnapshot snapshot) {
    return new NegotiationWorld(snapshot.parameters(), snapshot.agents(), snapshot.inbox());
  }

  @Override
  public NegotiationSnapshot snapshot() {
    return new NegotiationSnapshot(parameters, agents(), inbox());
  }

  /** {@code Brand A} ... {@code Brand Z}, then {@code Brand 27} and so on. */
  static String brand(int seller) {
    return "Brand " + (seller < 26 ? String.valueOf((char) ('A' + seller)) : String.valueOf(seller + 1));
  }

  public NegotiationParameters parameters() {
    return parameters;
  }

  /** The agents: sellers, then buyers. */
  public List<NegotiationAgent> agents() {
    return List.copyOf(agents.values());
  }

  public NegotiationAgent agent(String id) {
    return agents.get(id);
  }

  /** The messages each agent sees in its observation now, by recipient. */
  public Map<String, List<String>> inbox() {
    Map<String, List<String>> copy = new LinkedHashMap<>();
    inbox.forEach((id, texts) -> copy.put(id, List.copyOf(texts)));
    return copy;
  }

  @Override
  public List<String> agentIds() {
    return List.copyOf(agents.keySet());
  }

  @Override
  public String roleOf(String agentId) {
    return agents.get(agentId).role();
  }

  @Override
  public boolean canAct(String agentId) {
    return true;
  }

  @Override
  public List<String> toolsOf(String role) {
    return NegotiationScenario.SELLER.equals(role)
        ? NegotiationScenario.SELLER_TOOLS
        : NegotiationScenario.BUYER_TOOLS;
  }

  @Override
  public List<String> worldActions() {
    return NegotiationScenario.WORLD_ACTIONS;
  }

  @Override
  public Observation observe(String agentId, int step) {
    NegotiationAgent a = agents.get(agentId);
    Map<String, Object> self = new LinkedHashMap<>();
    self.put("id", a.id());
    self.put("role", a.role());
    self.put("position", a.position().asList());
    self.put("grid", Map.of("width", parameters.width(), "height", parameters.height(),
        "torus", false, "vision", parameters.vision()));
    if (a.isSeller()) {
      self.put("brand", a.brand());
      self.put(NegotiationScenario.PRODUCTS, products(a));
      self.put("sales", a.sales());
      self.put("revenue", a.revenue());
      self.put(NegotiationScenario.TRAITS, a.traits());
    } else {
      self.put(NegotiationScenario.BUDGET, a.budget());
      self.put(NegotiationScenario.PURCHASES, purchases(a));
    }
    List<String> messages = inbox.get(agentId);
    if (messages != null && !messages.isEmpty()) {
      self.put(NegotiationScenario.MESSAGES, List.copyOf(messages));
    }
    Map<String, Map<String, Object>> local = new LinkedHashMap<>();
    for (NegotiationAgent other : agents.values()) {
      if (!other.id().equals(a.id()) && inVision(a, other)) {
        local.put(other.id(), publicState(other));
      }
    }
    return new Observation(step, self, local);
  }

  /** What others see of {@code a}: a seller's stand and price list, a buyer's cell and what it owns. */
  private static Map<String, Object> publicState(NegotiationAgent a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("role", a.role());
    m.put("position", a.position().asList());
    if (a.isSeller()) {
      m.put("brand", a.brand());
      m.put(NegotiationScenario.PRODUCTS, products(a));
    } else {
      List<String> owns = new ArrayList<>();
      a.purchases().forEach(p -> owns.add(p.product()));
      m.put(NegotiationScenario.OWNS, owns);
    }
    return m;
  }

  private static List<Map<String, Object>> products(NegotiationAgent seller) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (NegotiationProduct p : seller.products()) {
      list.add(Map.of(NegotiationScenario.PRODUCT, p.product(), "price", p.price(), "quality", p.quality()));
    }
    return list;
  }

  private static List<Map<String, Object>> purchases(NegotiationAgent buyer) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (NegotiationPurchase p : buyer.purchases()) {
      list.add(Map.of("seller", p.seller(), NegotiationScenario.PRODUCT, p.product(), "price", p.price()));
    }
    return list;
  }

  private boolean inVision(NegotiationAgent a, NegotiationAgent b) {
    return NegotiationScenario.distance(a.position(), b.position()) <= parameters.vision();
  }

  @Override
  public String apply(WorldAction action, SeededRandom random) {
    NegotiationAgent actor = agents.get(action.agentId());
    if (actor == null) {
      return action.tool() + ": unknown agent " + action.agentId();
    }
    JsonNode args = action.arguments();
    switch (action.tool()) {
      case NegotiationScenario.SPEAK_TO:
        return speak(actor, args);
      case NegotiationScenario.TELEPORT_TO_LOCATION:
        return teleport(actor, args == null ? null : args.get(NegotiationScenario.TARGET_COORDINATES));
      case NegotiationScenario.BUY_PRODUCT:
        return buy(actor, text(args, NegotiationScenario.SELLER_ID), text(args, NegotiationScenario.PRODUCT));
      default:
        return action.tool() + ": not an action of this world";
    }
  }

  private String speak(NegotiationAgent speaker, JsonNode args) {
    String message = text(args, NegotiationScenario.MESSAGE);
    JsonNode ids = args == null ? null : args.get(NegotiationScenario.LISTENER_AGENT_IDS);
    if (message == null || message.isBlank()) {
      return "speak_to: the message is empty";
    }
    if (ids == null || !ids.isArray() || ids.isEmpty()) {
      return "speak_to: listener_agent_ids must be a non-empty list of agent ids, e.g. [\"buyer-2\"]";
    }
    String said = message.strip();
    if (said.length() > NegotiationScenario.MAX_MESSAGE_CHARS) {
      said = said.substring(0, NegotiationScenario.MAX_MESSAGE_CHARS) + " [cut]";
    }
    List<String> told = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    for (JsonNode idNode : ids) {
      String id = idNode.asText();
      NegotiationAgent listener = agents.get(id);
      if (told.contains(id)) {
        continue;
      }
      if (listener == null) {
        refused.add(id + " (no such agent)");
      } else if (listener.id().equals(speaker.id())) {
        refused.add(id + " (yourself)");
      } else if (!inVision(speaker, listener)) {
        refused.add(id + " (out of vision)");
      } else {
        told.add(id);
        String text = speaker.id() + NegotiationScenario.SAYS + said;
        sent.computeIfAbsent(id, k -> new ArrayList<>()).add(text);
        undrained.computeIfAbsent(id, k -> new ArrayList<>()).add(text);
      }
    }
    if (told.isEmpty()) {
      return "speak_to: nobody heard you: " + String.join(", ", refused);
    }
    return "speak_to: told " + String.join(", ", told)
        + (refused.isEmpty() ? "" : "; not told " + String.join(", ", refused));
  }

  private String teleport(NegotiationAgent actor, JsonNode target) {
    if (!actor.isBuyer()) {
      return "teleport_to_location: sellers stay at their stand";
    }
    GridPosition to = NegotiationScenario.position(target);
    if (to == null) {
      return "teleport_to_location: target_coordinates must be [x, y], two integers, was " + target;
    }
    if (to.x() < 0 || to.y() < 0 || to.x() >= parameters.width() || to.y() >= parameters.height()) {
      return "teleport_to_location " + to.asList() + ": outside the grid (x in [0, "
          + (parameters.width() - 1) + "], y in [0, " + (parameters.height() - 1) + "])";
    }
    if (to.equals(actor.position())) {
      return "teleport_to_location " + to.asList() + ": you are already there";
    }
    for (NegotiationAgent other : agents.values()) {
      if (other.position().equals(to)) {
        return "teleport_to_location " + to.asList() + ": blocked, the cell is taken by " + other.id();
      }
    }
    agents.put(actor.id(), actor.withPosition(to));
    return "teleport_to_location: moved to " + to.asList();
  }

  private String buy(NegotiationAgent buyer, String sellerId, String productName) {
    if (!buyer.isBuyer()) {
      return "buy_product: only buyers can buy";
    }
    NegotiationAgent seller = sellerId == null ? null : agents.get(sellerId);
    if (seller == null || !seller.isSeller()) {
      return "buy_product: no seller with id '" + sellerId + "'";
    }
    if (NegotiationScenario.distance(buyer.position(), seller.position()) > NegotiationScenario.REACH) {
      return "buy_product: " + sellerId + " at " + seller.position().asList()
          + " is not next to you; teleport to a free cell next to it first";
    }
    String kind = NegotiationScenario.parseProduct(productName);
    NegotiationProduct product = kind == null ? null : seller.product(kind);
    if (product == null) {
      List<String> names = new ArrayList<>();
      seller.products().forEach(p -> names.add(p.product()));
      return "buy_product: " + sellerId + " does not sell '" + productName + "'; it sells "
          + String.join(", ", names);
    }
    if (buyer.budget() < product.price()) {
      return "buy_product: " + product.product() + " from " + sellerId + " costs " + product.price()
          + ", more than your budget of " + buyer.budget();
    }
    agents.put(buyer.id(), buyer.afterPurchase(sellerId, product));
    agents.put(seller.id(), seller.afterSale(product));
    return "buy_product: bought " + seller.brand() + " " + product.product() + " from " + sellerId
        + " for " + product.price() + "; budget left " + (buyer.budget() - product.price());
  }

  private static String text(JsonNode args, String field) {
    if (args == null || !args.has(field) || args.get(field).isNull()) {
      return null;
    }
    return args.get(field).asText();
  }

  /** Delivers this step's messages: each agent's next observation shows what it was told now. */
  @Override
  public void endStep(int step, SeededRandom random) {
    inbox.clear();
    sent.forEach((id, texts) -> inbox.put(id, List.copyOf(texts)));
    sent.clear();
  }

  /** The messages that actions applied since the last call sent to other agents, by recipient id; clears them. */
  @Override
  public Map<String, List<String>> drainMessages() {
    Map<String, List<String>> drained = new LinkedHashMap<>();
    undrained.forEach((id, texts) -> drained.put(id, List.copyOf(texts)));
    undrained.clear();
    return drained;
  }

  /**
   * {@code sales_seller-0}, {@code sales_seller-1}, ... (products each seller has sold so far), then
   * {@code money_left} (the buyers' budgets left, summed).
   */
  /** A table of sellers and buyers ({@link NegotiationPortrayal}): the view draws no grid. */
  @Override
  public Portrayal portrayal() {
    return NegotiationPortrayal.of(this);
  }

  @Override
  public Map<String, Number> counts() {
    Map<String, Number> counts = new LinkedHashMap<>();
    int moneyLeft = 0;
    for (NegotiationAgent a : agents.values()) {
      if (a.isSeller()) {
        counts.put(SALES_PREFIX + a.id(), a.sales());
      } else {
        moneyLeft += a.budget();
      }
    }
    counts.put(MONEY_LEFT, moneyLeft);
    return counts;
  }
}
