package io.durableagents.scenarios.negotiation;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.durableagents.api.RuleDecision;
import io.durableagents.api.RulePolicy;
import io.durableagents.scenarios.grid.GridPosition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Rules for Mesa-LLM's negotiation example, in which a pitch persuades and price decides among
 * pitches.
 *
 * <ul>
 *   <li>A <b>seller</b> never moves. A persuasive one (its {@code _traits} hold {@code persuasive})
 *       pitches its price list with {@code speak_to} to every buyer next to it that still lacks one of
 *       its products; any other seller only answers the buyers who spoke to it at the last step.
 *   <li>A <b>buyer</b> wants one pair of shoes and one track suit. Its offers are the products in sight
 *       it lacks and can afford, the best having the most quality per unit of price (then the lower
 *       price, then the seller id). If a seller next to it pitched to it at the last step, it buys the
 *       best offer of those sellers. Otherwise, if a seller with an offer is next to it, it asks that
 *       seller (and the other ones next to it that have offers) what they sell. Otherwise it teleports
 *       to the free cell next to the seller of its best offer nearest to it; with no seller in sight, to
 *       a random free cell. With no offer left it does nothing.
 * </ul>
 *
 * <p>Its decisions depend only on the observation (random choices are seeded with the agent id and
 * the step), so a retried or replayed call gets the same answer.
 */
public final class NegotiationRulePolicy implements RulePolicy {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  /** A product in sight: who sells it, what, at what price and quality. */
  record Offer(String seller, String product, int price, int quality) {
    double value() {
      return (double) quality / Math.max(1, price);
    }
  }

  /** The best offer first: most quality per price, then the lower price, then seller and product. */
  static final Comparator<Offer> BEST = Comparator.comparingDouble(Offer::value).reversed()
      .thenComparingInt(Offer::price)
      .thenComparing(Offer::seller)
      .thenComparing(Offer::product);

  @Override
  public Optional<RuleDecision> decide(
      String role, int step, Map<String, Object> self, Map<String, Map<String, Object>> local) {
    if (!self.containsKey("grid")) {
      return Optional.empty();
    }
    if (NegotiationScenario.SELLER.equals(role)) {
      return Optional.of(seller(self, local));
    }
    if (NegotiationScenario.BUYER.equals(role)) {
      return Optional.of(buyer(step, self, local));
    }
    return Optional.empty();
  }

  private RuleDecision seller(Map<String, Object> self, Map<String, Map<String, Object>> local) {
    GridPosition here = NegotiationScenario.position(self.get("position"));
    boolean persuasive = strings(self.get(NegotiationScenario.TRAITS)).contains("persuasive");
    Set<String> myProducts = new TreeSet<>();
    List<String> priceList = new ArrayList<>();
    for (Map<?, ?> p : maps(self.get(NegotiationScenario.PRODUCTS))) {
      myProducts.add(String.valueOf(p.get(NegotiationScenario.PRODUCT)));
      priceList.add(p.get(NegotiationScenario.PRODUCT) + " for " + p.get("price") + ", quality "
          + p.get("quality") + "/5");
    }
    Set<String> askers = senders(self);
    List<String> thoughts = new ArrayList<>();
    TreeSet<String> listeners = new TreeSet<>();
    for (Map.Entry<String, Map<String, Object>> e : local.entrySet()) {
      Map<String, Object> other = e.getValue();
      if (!NegotiationScenario.BUYER.equals(other.get("role"))) {
        continue;
      }
      boolean lacksSomething = !new HashSet<>(strings(other.get(NegotiationScenario.OWNS))).containsAll(myProducts);
      GridPosition there = NegotiationScenario.position(other.get("position"));
      boolean near = here != null && there != null
          && NegotiationScenario.distance(here, there) <= NegotiationScenario.REACH;
      if (askers.contains(e.getKey()) || (persuasive && near && lacksSomething)) {
        listeners.add(e.getKey());
      }
    }
    thoughts.add(persuasive
        ? "I am persuasive: I pitch to every buyer next to me who still lacks one of my products."
        : "I am not keen: I only answer buyers who speak to me.");
    if (listeners.isEmpty()) {
      thoughts.add("nobody to talk to this step.");
      return new RuleDecision(thoughts, List.of());
    }
    thoughts.add("talk to " + listeners + ".");
    String pitch = self.get("brand") + ": " + String.join("; ", priceList) + ". "
        + (persuasive ? "Best quality you will find on this market, buy it from me today!"
            : "That's what I have. Buy it or don't.");
    ObjectNode args = JSON.objectNode();
    listeners.forEach(args.putArray(NegotiationScenario.LISTENER_AGENT_IDS)::add);
    args.put(NegotiationScenario.MESSAGE, pitch);
    return new RuleDecision(thoughts, List.of(new RuleDecision.Action(NegotiationScenario.SPEAK_TO, args)));
  }

  private RuleDecision buyer(int step, Map<String, Object> self, Map<String, Map<String, Object>> local) {
    GridPosition here = NegotiationScenario.position(self.get("position"));
    int budget = self.get(NegotiationScenario.BUDGET) instanceof Number
        ? ((Number) self.get(NegotiationScenario.BUDGET)).intValue() : 0;
    Set<String> owned = new HashSet<>();
    for (Map<?, ?> p : maps(self.get(NegotiationScenario.PURCHASES))) {
      owned.add(String.valueOf(p.get(NegotiationScenario.PRODUCT)));
    }
    List<Offer> offers = new ArrayList<>();
    List<String> sellers = new ArrayList<>();
    Set<String> near = new TreeSet<>();
    for (Map.Entry<String, Map<String, Object>> e : local.entrySet()) {
      Map<String, Object> other = e.getValue();
      if (!NegotiationScenario.SELLER.equals(other.get("role"))) {
        continue;
      }
      sellers.add(e.getKey());
      GridPosition there = NegotiationScenario.position(other.get("position"));
      if (here != null && there != null
          && NegotiationScenario.distance(here, there) <= NegotiationScenario.REACH) {
        near.add(e.getKey());
      }
      for (Map<?, ?> p : maps(other.get(NegotiationScenario.PRODUCTS))) {
        String product = String.valueOf(p.get(NegotiationScenario.PRODUCT));
        int price = ((Number) p.get("price")).intValue();
        if (!owned.contains(product) && price <= budget) {
          offers.add(new Offer(e.getKey(), product, price, ((Number) p.get("quality")).intValue()));
        }
      }
    }
    offers.sort(BEST);
    List<String> thoughts = new ArrayList<>();
    thoughts.add("budget " + budget + ", I own " + new TreeSet<>(owned) + "; " + offers.size()
        + " affordable offer(s) of what I lack in sight" + (offers.isEmpty() ? "." : ", best: "
        + describe(offers.get(0)) + "."));
    if (sellers.isEmpty()) {
      thoughts.add("no seller in sight: move to a random free cell.");
      return teleport(thoughts, randomFreeCell(self, local, new Random(31L * id(self).hashCode() + step)));
    }
    if (offers.isEmpty()) {
      thoughts.add("nothing I lack is affordable: I am done shopping.");
      return new RuleDecision(thoughts, List.of());
    }
    Set<String> pitched = senders(self);
    pitched.retainAll(near);
    Optional<Offer> pitchedBest = offers.stream().filter(o -> pitched.contains(o.seller())).findFirst();
    if (pitchedBest.isPresent()) {
      Offer o = pitchedBest.get();
      thoughts.add(pitched + " pitched to me: buy the best of their offers, " + describe(o) + ".");
      ObjectNode args = JSON.objectNode().put(NegotiationScenario.SELLER_ID, o.seller())
          .put(NegotiationScenario.PRODUCT, o.product());
      return new RuleDecision(thoughts, List.of(new RuleDecision.Action(NegotiationScenario.BUY_PRODUCT, args)));
    }
    TreeSet<String> ask = new TreeSet<>();
    for (Offer o : offers) {
      if (near.contains(o.seller())) {
        ask.add(o.seller());
      }
    }
    if (!ask.isEmpty()) {
      thoughts.add(ask + " next to me sell what I lack: ask them for their offer.");
      ObjectNode args = JSON.objectNode();
      ask.forEach(args.putArray(NegotiationScenario.LISTENER_AGENT_IDS)::add);
      args.put(NegotiationScenario.MESSAGE, "Hello! I am looking for "
          + String.join(" and ", lacking(offers)) + ". What can you offer me?");
      return new RuleDecision(thoughts, List.of(new RuleDecision.Action(NegotiationScenario.SPEAK_TO, args)));
    }
    for (Offer o : offers) {
      GridPosition stand = NegotiationScenario.position(local.get(o.seller()).get("position"));
      GridPosition cell = freeCellNear(self, local, here, stand);
      if (cell != null) {
        thoughts.add("go next to " + o.seller() + " for " + describe(o) + ": teleport to " + cell.asList() + ".");
        return teleport(thoughts, cell);
      }
    }
    thoughts.add("every cell next to a seller with an offer is taken: wait.");
    return new RuleDecision(thoughts, List.of());
  }

  private static RuleDecision teleport(List<String> thoughts, GridPosition cell) {
    if (cell == null) {
      thoughts.add("no free cell: stay.");
      return new RuleDecision(thoughts, List.of());
    }
    ObjectNode args = JSON.objectNode();
    args.putArray(NegotiationScenario.TARGET_COORDINATES).add(cell.x()).add(cell.y());
    return new RuleDecision(thoughts,
        List.of(new RuleDecision.Action(NegotiationScenario.TELEPORT_TO_LOCATION, args)));
  }

  /** The free cell within reach of {@code stand} nearest to {@code here} (then lowest x, then y). */
  private static GridPosition freeCellNear(Map<String, Object> self,
      Map<String, Map<String, Object>> local, GridPosition here, GridPosition stand) {
    if (here == null || stand == null) {
      return null;
    }
    GridPosition best = null;
    for (GridPosition cell : freeCells(self, local)) {
      if (NegotiationScenario.distance(cell, stand) > NegotiationScenario.REACH) {
        continue;
      }
      if (best == null || squaredDistance(cell, here) < squaredDistance(best, here)) {
        best = cell;
      }
    }
    return best;
  }

  private static GridPosition randomFreeCell(Map<String, Object> self,
      Map<String, Map<String, Object>> local, Random random) {
    List<GridPosition> free = freeCells(self, local);
    return free.isEmpty() ? null : free.get(random.nextInt(free.size()));
  }

  /** The cells of the grid that neither the agent nor anyone in sight occupies, by x then y. */
  private static List<GridPosition> freeCells(Map<String, Object> self, Map<String, Map<String, Object>> local) {
    Map<?, ?> grid = (Map<?, ?>) self.get("grid");
    int width = ((Number) grid.get("width")).intValue();
    int height = ((Number) grid.get("height")).intValue();
    Set<GridPosition> taken = new HashSet<>();
    taken.add(NegotiationScenario.position(self.get("position")));
    for (Map<String, Object> other : local.values()) {
      taken.add(NegotiationScenario.position(other.get("position")));
    }
    List<GridPosition> free = new ArrayList<>();
    for (int x = 0; x < width; x++) {
      for (int y = 0; y < height; y++) {
        GridPosition cell = new GridPosition(x, y);
        if (!taken.contains(cell)) {
          free.add(cell);
        }
      }
    }
    return free;
  }

  private static int squaredDistance(GridPosition a, GridPosition b) {
    int dx = a.x() - b.x();
    int dy = a.y() - b.y();
    return dx * dx + dy * dy;
  }

  /** Who spoke to the agent at the last step: the senders of {@code self_state.messages}. */
  private static Set<String> senders(Map<String, Object> self) {
    Set<String> senders = new TreeSet<>();
    for (String message : strings(self.get(NegotiationScenario.MESSAGES))) {
      int says = message.indexOf(NegotiationScenario.SAYS);
      if (says > 0) {
        senders.add(message.substring(0, says));
      }
    }
    return senders;
  }

  private static List<String> lacking(List<Offer> offers) {
    TreeSet<String> products = new TreeSet<>();
    offers.forEach(o -> products.add(o.product().replace('_', ' ')));
    return new ArrayList<>(products);
  }

  private static String describe(Offer o) {
    return String.format(Locale.ROOT, "%s from %s for %d (quality %d)", o.product(), o.seller(),
        o.price(), o.quality());
  }

  private static String id(Map<String, Object> self) {
    return String.valueOf(self.get("id"));
  }

  private static List<String> strings(Object value) {
    List<String> list = new ArrayList<>();
    if (value instanceof List) {
      for (Object o : (List<?>) value) {
        list.add(String.valueOf(o));
      }
    }
    return list;
  }

  private static List<Map<?, ?>> maps(Object value) {
    List<Map<?, ?>> list = new ArrayList<>();
    if (value instanceof List) {
      for (Object o : (List<?>) value) {
        if (o instanceof Map) {
          list.add((Map<?, ?>) o);
        }
      }
    }
    return list;
  }
}
