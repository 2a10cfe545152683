package io.durableagents.scenarios.negotiation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import io.durableagents.scenarios.grid.GridPosition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NegotiationWorldTest {
  private static final NegotiationParameters P = new NegotiationParameters(5, 5, 2, 3, 2, 50, 100);
  private static final SeededRandom R = new SeededRandom(1);

  private static NegotiationAgent sellerA(int x, int y) {
    return NegotiationAgent.seller("seller-0", new GridPosition(x, y), "Brand A",
        List.of("persuasive"), List.of(new NegotiationProduct("shoes", 40, 4),
            new NegotiationProduct("track_suit", 50, 4)));
  }

  private static NegotiationAgent sellerB(int x, int y) {
    return NegotiationAgent.seller("seller-1", new GridPosition(x, y), "Brand B",
        List.of("lazy"), List.of(new NegotiationProduct("shoes", 35, 4),
            new NegotiationProduct("track_suit", 47, 4)));
  }

  private static NegotiationAgent buyer(String id, int x, int y, int budget) {
    return NegotiationAgent.buyer(id, new GridPosition(x, y), budget);
  }

  /** seller-0 at [2, 2], seller-1 at [2, 3], buyer-0 at [0, 0] (50), buyer-1 at [4, 4] (100). */
  private static NegotiationWorld world() {
    return NegotiationWorld.restore(P, List.of(sellerA(2, 2), sellerB(2, 3), buyer("buyer-0", 0, 0, 50),
        buyer("buyer-1", 4, 4, 100)), Map.of());
  }

  private static WorldAction action(String agent, String tool, String args) {
    return new WorldAction(agent, "c", tool, Json.tryParse(args));
  }

  @Test
  void createsMesaLlmsExample() {
    NegotiationWorld w = NegotiationWorld.create(NegotiationParameters.DEFAULTS, new SeededRandom(1));
    assertEquals(List.of("seller-0", "seller-1", "buyer-0", "buyer-1", "buyer-2", "buyer-3", "buyer-4"),
        w.agentIds());
    assertEquals(new GridPosition(2, 2), w.agent("seller-0").position());
    assertEquals(new GridPosition(2, 3), w.agent("seller-1").position());
    assertEquals(List.of(50, 50, 50, 100, 100),
        w.agents().stream().filter(NegotiationAgent::isBuyer).map(NegotiationAgent::budget).toList());
    assertEquals(40, w.agent("seller-0").product("shoes").price());
    assertEquals(47, w.agent("seller-1").product("track_suit").price());
    assertEquals(7, w.agents().stream().map(NegotiationAgent::position).distinct().count());
    Map<String, Integer> expected = new LinkedHashMap<>();
    expected.put("sales_seller-0", 0);
    expected.put("sales_seller-1", 0);
    expected.put("money_left", 350);
    assertEquals(expected, w.counts());
    assertEquals(List.copyOf(expected.keySet()), List.copyOf(w.counts().keySet()), "stable order");
  }

  @Test
  void theSameSeedGivesTheSameWorldAndMoreSellersGetRandomCatalogues() {
    NegotiationParameters more = NegotiationParameters.DEFAULTS.withAgents(4, 6);
    NegotiationWorld a = NegotiationWorld.create(more, new SeededRandom(7));
    assertEquals(a.agents(), NegotiationWorld.create(more, new SeededRandom(7)).agents());
    assertNotEquals(a.agents(), NegotiationWorld.create(more, new SeededRandom(8)).agents());
    assertEquals("Brand D", a.agent("seller-3").brand());
    int shoes = a.agent("seller-2").product("shoes").price();
    assertTrue(shoes >= 30 && shoes <= 45, "price " + shoes);
    assertEquals(List.of("sales_seller-0", "sales_seller-1", "sales_seller-2", "sales_seller-3",
        "money_left"), List.copyOf(a.counts().keySet()));
  }

  @Test
  void observationsShowPriceListsAndHideBudgetsAndTraitsFromOthers() {
    NegotiationWorld w = world();
    Observation buyer = w.observe("buyer-0", 1);
    assertEquals(50, buyer.selfState().get("_budget"));
    assertEquals(Map.of("width", 5, "height", 5, "torus", false, "vision", 2), buyer.selfState().get("grid"));
    // vision 2 from [0, 0]: seller-0 at [2, 2] is seen, seller-1 at [2, 3] is not
    assertEquals(List.of("seller-0"), List.copyOf(buyer.localState().keySet()));
    Map<String, Object> seller = buyer.localState().get("seller-0");
    assertEquals(List.of(Map.of("product", "shoes", "price", 40, "quality", 4),
        Map.of("product", "track_suit", "price", 50, "quality", 4)), seller.get("products"));
    assertFalse(seller.containsKey("_traits"));

    Map<String, Object> seen = w.observe("seller-1", 1).localState().get("buyer-1");
    assertEquals(Map.of("role", "buyer", "position", List.of(4, 4), "owns", List.of()), seen);
    assertEquals(List.of("lazy"), w.observe("seller-1", 1).selfState().get("_traits"));
  }

  @Test
  void speakToDeliversMessagesAtTheStepsEndAndDrainsThemOnce() {
    NegotiationWorld w = world();
    String outcome = w.apply(action("seller-0", "speak_to",
        "{\"listener_agent_ids\":[\"buyer-0\",\"buyer-1\",\"nobody\",\"seller-0\"],\"message\":\"Shoes for 40!\"}"), R);
    assertEquals("speak_to: told buyer-0, buyer-1; not told nobody (no such agent), seller-0 (yourself)",
        outcome);
    assertFalse(w.observe("buyer-0", 1).selfState().containsKey("messages"), "not before the step ends");

    Map<String, List<String>> drained = w.drainMessages();
    assertEquals(Map.of("buyer-0", List.of("seller-0 says: Shoes for 40!"),
        "buyer-1", List.of("seller-0 says: Shoes for 40!")), drained);
    assertEquals(Map.of(), w.drainMessages(), "drained messages are cleared");

    w.endStep(1, R);
    assertEquals(List.of("seller-0 says: Shoes for 40!"), w.observe("buyer-0", 2).selfState().get("messages"));
    w.endStep(2, R);
    assertFalse(w.observe("buyer-0", 3).selfState().containsKey("messages"), "shown for one step");
  }

  @Test
  void speakToRefusesListenersOutOfVisionAndEmptyMessages() {
    NegotiationWorld w = world();
    assertEquals("speak_to: nobody heard you: buyer-1 (out of vision)", w.apply(action("buyer-0", "speak_to",
        "{\"listener_agent_ids\":[\"buyer-1\"],\"message\":\"hi\"}"), R));
    assertEquals("speak_to: the message is empty", w.apply(action("buyer-0", "speak_to",
        "{\"listener_agent_ids\":[\"seller-0\"],\"message\":\" \"}"), R));
    assertTrue(w.apply(action("buyer-0", "speak_to", "{\"message\":\"hi\"}"), R)
        .startsWith("speak_to: listener_agent_ids must be"));
    String longMessage = "x".repeat(NegotiationScenario.MAX_MESSAGE_CHARS + 50);
    w.apply(action("buyer-0", "speak_to",
        "{\"listener_agent_ids\":[\"seller-0\"],\"message\":\"" + longMessage + "\"}"), R);
    String delivered = w.drainMessages().get("seller-0").get(0);
    assertTrue(delivered.endsWith(" [cut]") && delivered.length() < longMessage.length(), delivered);
  }

  @Test
  void teleportMovesBuyersToFreeCellsOnly() {
    NegotiationWorld w = world();
    assertEquals("teleport_to_location: moved to [1, 2]",
        w.apply(action("buyer-0", "teleport_to_location", "{\"target_coordinates\":[1,2]}"), R));
    assertEquals(new GridPosition(1, 2), w.agent("buyer-0").position());
    assertEquals("teleport_to_location [1, 2]: blocked, the cell is taken by buyer-0",
        w.apply(action("buyer-1", "teleport_to_location", "{\"target_coordinates\":[1,2]}"), R));
    assertEquals("teleport_to_location [5, 0]: outside the grid (x in [0, 4], y in [0, 4])",
        w.apply(action("buyer-1", "teleport_to_location", "{\"target_coordinates\":[5,0]}"), R));
    assertTrue(w.apply(action("buyer-1", "teleport_to_location", "{\"target_coordinates\":[1]}"), R)
        .startsWith("teleport_to_location: target_coordinates must be [x, y]"));
    assertEquals("teleport_to_location: sellers stay at their stand",
        w.apply(action("seller-0", "teleport_to_location", "{\"target_coordinates\":[0,0]}"), R));
    assertEquals(new GridPosition(4, 4), w.agent("buyer-1").position());
  }

  @Test
  void buyingNeedsTheSellerNextToYouAndEnoughMoney() {
    NegotiationWorld w = world();
    assertTrue(w.apply(action("buyer-0", "buy_product", "{\"seller_id\":\"seller-0\",\"product\":\"shoes\"}"), R)
        .startsWith("buy_product: seller-0 at [2, 2] is not next to you"));
    w.apply(action("buyer-0", "teleport_to_location", "{\"target_coordinates\":[1,2]}"), R);
    assertEquals("buy_product: bought Brand A shoes from seller-0 for 40; budget left 10",
        w.apply(action("buyer-0", "buy_product", "{\"seller_id\":\"seller-0\",\"product\":\"Brand A Shoes\"}"), R));
    assertEquals("buy_product: track_suit from seller-1 costs 47, more than your budget of 10",
        w.apply(action("buyer-0", "buy_product", "{\"seller_id\":\"seller-1\",\"product\":\"track suit\"}"), R));
    assertEquals("buy_product: seller-1 does not sell 'hat'; it sells shoes, track_suit",
        w.apply(action("buyer-0", "buy_product", "{\"seller_id\":\"seller-1\",\"product\":\"hat\"}"), R));
    assertEquals("buy_product: no seller with id 'buyer-1'",
        w.apply(action("buyer-0", "buy_product", "{\"seller_id\":\"buyer-1\",\"product\":\"shoes\"}"), R));
    assertEquals("buy_product: only buyers can buy",
        w.apply(action("seller-1", "buy_product", "{\"seller_id\":\"seller-0\",\"product\":\"shoes\"}"), R));

    assertEquals(10, w.agent("buyer-0").budget());
    assertEquals(List.of(new NegotiationPurchase("seller-0", "shoes", 40)), w.agent("buyer-0").purchases());
    assertEquals(1, w.agent("seller-0").sales());
    assertEquals(40, w.agent("seller-0").revenue());
    assertEquals(Map.of("sales_seller-0", 1, "sales_seller-1", 0, "money_left", 110), w.counts());
    assertEquals(List.of("shoes"), w.observe("seller-0", 2).localState().get("buyer-0").get("owns"));
  }

  @Test
  void restoreRebuildsTheSameWorldWithItsMessages() {
    NegotiationWorld w = world();
    w.apply(action("buyer-0", "teleport_to_location", "{\"target_coordinates\":[1,2]}"), R);
    w.apply(action("buyer-0", "speak_to", "{\"listener_agent_ids\":[\"seller-0\"],\"message\":\"hi\"}"), R);
    w.endStep(1, R);
    NegotiationWorld copy = NegotiationWorld.restore(w.parameters(), w.agents(), w.inbox());
    assertEquals(w.observe("seller-0", 2), copy.observe("seller-0", 2));
    assertEquals(w.counts(), copy.counts());
  }

  @Test
  void plannedActionsThatCanNoLongerSucceedAreFound() {
    NegotiationWorld w = world();
    NegotiationScenario s = new NegotiationScenario();
    w.apply(action("buyer-1", "teleport_to_location", "{\"target_coordinates\":[3,3]}"), R);
    Observation o = w.observe("buyer-1", 2);
    assertEquals("teleport_to_location [2, 2]: the cell is now taken by seller-0",
        s.plannedActionProblem(o, "teleport_to_location", Json.tryParse("{\"target_coordinates\":[2,2]}")));
    assertNull(s.plannedActionProblem(o, "teleport_to_location", Json.tryParse("{\"target_coordinates\":[3,2]}")));
    assertNull(s.plannedActionProblem(o, "buy_product", Json.tryParse("{\"seller_id\":\"seller-0\",\"product\":\"shoes\"}")));
    assertEquals("buy_product buyer-9: the seller is no longer within vision",
        s.plannedActionProblem(o, "buy_product", Json.tryParse("{\"seller_id\":\"buyer-9\",\"product\":\"shoes\"}")));

    w.apply(action("buyer-1", "buy_product", "{\"seller_id\":\"seller-0\",\"product\":\"track_suit\"}"), R);
    w.apply(action("buyer-1", "teleport_to_location", "{\"target_coordinates\":[4,4]}"), R);
    o = w.observe("buyer-1", 3);
    assertEquals("buy_product seller-0: the seller is no longer next to you",
        s.plannedActionProblem(o, "buy_product", Json.tryParse("{\"seller_id\":\"seller-0\",\"product\":\"shoes\"}")));
    w.apply(action("buyer-1", "teleport_to_location", "{\"target_coordinates\":[3,3]}"), R);
    w.apply(action("buyer-1", "buy_product", "{\"seller_id\":\"seller-1\",\"product\":\"shoes\"}"), R);
    o = w.observe("buyer-1", 4);
    assertEquals("buy_product track_suit from seller-1: costs 47, more than your budget of 15",
        s.plannedActionProblem(o, "buy_product",
            Json.tryParse("{\"seller_id\":\"seller-1\",\"product\":\"track_suit\"}")));
    assertEquals("speak_to [buyer-9]: no longer within vision", s.plannedActionProblem(o, "speak_to",
        Json.tryParse("{\"listener_agent_ids\":[\"buyer-9\"],\"message\":\"hi\"}")));
  }
}
