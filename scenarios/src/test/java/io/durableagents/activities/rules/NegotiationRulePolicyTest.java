package io.durableagents.activities.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ToolChoice;
import io.durableagents.activities.tools.ToolCallValidator;
import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.api.RuleDecision;
import io.durableagents.api.SeededRandom;
import io.durableagents.api.WorldAction;
import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.grid.GridPosition;
import io.durableagents.scenarios.negotiation.NegotiationActions;
import io.durableagents.scenarios.negotiation.NegotiationAgent;
import io.durableagents.scenarios.negotiation.NegotiationParameters;
import io.durableagents.scenarios.negotiation.NegotiationProduct;
import io.durableagents.scenarios.negotiation.NegotiationRulePolicy;
import io.durableagents.scenarios.negotiation.NegotiationScenario;
import io.durableagents.scenarios.negotiation.NegotiationWorld;
import io.durableagents.workflows.agent.cot.CotPrompts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NegotiationRulePolicyTest {
  private final NegotiationRulePolicy policy = new NegotiationRulePolicy();
  private static final SeededRandom R = new SeededRandom(3);

  private static NegotiationAgent sellerA() {
    return NegotiationAgent.seller("seller-0", new GridPosition(2, 2), "Brand A",
        List.of("hardworking", "dedicated", "persuasive"),
        List.of(new NegotiationProduct("shoes", 40, 4), new NegotiationProduct("track_suit", 50, 4)));
  }

  private static NegotiationAgent sellerB() {
    return NegotiationAgent.seller("seller-1", new GridPosition(2, 3), "Brand B",
        List.of("lazy", "unmotivated"),
        List.of(new NegotiationProduct("shoes", 35, 4), new NegotiationProduct("track_suit", 47, 4)));
  }

  private static NegotiationWorld world(NegotiationAgent... buyers) {
    List<NegotiationAgent> agents = new ArrayList<>(List.of(sellerA(), sellerB()));
    agents.addAll(List.of(buyers));
    return NegotiationWorld.restore(NegotiationParameters.DEFAULTS, agents, Map.of());
  }

  /** The decision on the observation as the model reads it: JSON, parsed back. */
  private RuleDecision decide(NegotiationWorld world, String id, int step) {
    Observation o = world.observe(id, step);
    Map<String, Object> self = Json.MAPPER.convertValue(o.selfState(), new TypeReference<>() {});
    Map<String, Map<String, Object>> local = Json.MAPPER.convertValue(o.localState(), new TypeReference<>() {});
    return policy.decide(String.valueOf(self.get("role")), step, self, local).orElseThrow();
  }

  private static String actions(RuleDecision d) {
    List<String> calls = new ArrayList<>();
    d.actions().forEach(a -> calls.add(a.tool() + a.arguments()));
    return String.join("; ", calls);
  }

  @Test
  void aBuyerFarFromSellersTeleportsNextToTheSellerOfItsBestOfferNearestToIt() {
    NegotiationWorld w = world(NegotiationAgent.buyer("buyer-0", new GridPosition(4, 0), 50));
    // equal quality: seller-1's shoes for 35 are the best value; [3, 2] is the free cell next to [2, 3]
    // nearest to [4, 0]
    RuleDecision d = decide(w, "buyer-0", 1);
    assertEquals("teleport_to_location{\"target_coordinates\":[3,2]}", actions(d));
    assertTrue(d.thoughts().get(0).contains("best: shoes from seller-1 for 35"), d.thoughts().toString());
  }

  @Test
  void aBuyerNextToSellersThatDidNotPitchAsksThem() {
    NegotiationWorld w = world(NegotiationAgent.buyer("buyer-0", new GridPosition(3, 2), 100));
    assertEquals("speak_to{\"listener_agent_ids\":[\"seller-0\",\"seller-1\"],"
        + "\"message\":\"Hello! I am looking for shoes and track suit. What can you offer me?\"}",
        actions(decide(w, "buyer-0", 1)));
  }

  @Test
  void aPitchPersuadesTheBuyerToBuyThePitchersBestOffer() {
    NegotiationWorld w = world(NegotiationAgent.buyer("buyer-0", new GridPosition(3, 2), 100));
    w.apply(new WorldAction("seller-0", "c", "speak_to",
        Json.tryParse("{\"listener_agent_ids\":[\"buyer-0\"],\"message\":\"Buy mine!\"}")), R);
    w.endStep(1, R);
    // seller-1 is cheaper, but only seller-0 pitched
    assertEquals("buy_product{\"seller_id\":\"seller-0\",\"product\":\"shoes\"}", actions(decide(w, "buyer-0", 2)));
  }

  @Test
  void aBuyerWhoCannotAffordWhatItLacksIsDone() {
    NegotiationWorld w = world(NegotiationAgent.buyer("buyer-0", new GridPosition(3, 2), 30));
    RuleDecision d = decide(w, "buyer-0", 1);
    assertEquals("", actions(d));
    assertTrue(d.thoughts().get(d.thoughts().size() - 1).contains("done shopping"), d.thoughts().toString());
  }

  @Test
  void aPersuasiveSellerPitchesBuyersNextToItAndALazyOneOnlyAnswers() {
    NegotiationWorld w = world(NegotiationAgent.buyer("buyer-0", new GridPosition(3, 2), 50),
        NegotiationAgent.buyer("buyer-1", new GridPosition(0, 0), 50));
    assertEquals("speak_to{\"listener_agent_ids\":[\"buyer-0\"],\"message\":\"Brand A: shoes for 40, "
        + "quality 4/5; track_suit for 50, quality 4/5. Best quality you will find on this market, buy "
        + "it from me today!\"}", actions(decide(w, "seller-0", 1)));
    assertEquals("", actions(decide(w, "seller-1", 1)), "lazy: nobody asked");

    w.apply(new WorldAction("buyer-1", "c", "speak_to",
        Json.tryParse("{\"listener_agent_ids\":[\"seller-1\"],\"message\":\"What do you sell?\"}")), R);
    w.endStep(1, R);
    assertTrue(actions(decide(w, "seller-1", 2))
        .startsWith("speak_to{\"listener_agent_ids\":[\"buyer-1\"],\"message\":\"Brand B: shoes for 35"));
  }

  @Test
  void decisionsAreAFunctionOfTheObservation() {
    NegotiationWorld w = NegotiationWorld.create(NegotiationParameters.DEFAULTS, new SeededRandom(5));
    for (String id : w.agentIds()) {
      assertEquals(decide(w, id, 4), decide(w, id, 4));
    }
  }

  /**
   * Through the rules model's chain-of-thought protocol, every role's decision becomes tool calls whose
   * arguments fit the schemas of {@link NegotiationActions}, i.e. what a model is shown.
   */
  @Test
  void theRulesModelTurnsDecisionsIntoCallsThatFitTheActionsSchemas() throws Exception {
    List<ToolSpecification> specs = ToolSpecifications.toolSpecificationsFrom(new NegotiationActions());
    Map<String, ToolSpecification> byName = new java.util.HashMap<>();
    specs.forEach(t -> byName.put(t.name(), t));
    assertEquals(java.util.Set.copyOf(NegotiationScenario.WORLD_ACTIONS), byName.keySet());

    RulesChatModel model = Builtins.rulesModel();
    NegotiationWorld w = world(NegotiationAgent.buyer("buyer-0", new GridPosition(3, 2), 100),
        NegotiationAgent.buyer("buyer-1", new GridPosition(4, 0), 50));
    w.apply(new WorldAction("seller-0", "c", "speak_to",
        Json.tryParse("{\"listener_agent_ids\":[\"buyer-0\"],\"message\":\"Buy mine!\"}")), R);
    w.endStep(1, R);
    List<String> tools = new ArrayList<>();
    for (String id : List.of("seller-0", "buyer-0", "buyer-1")) {
      String role = w.roleOf(id);
      String system = CotPrompts.reasoningSystem(new NegotiationScenario().roleDescription(role),
          w.observe(id, 2), null, w.toolsOf(role));
      String plan = model.chat(ChatRequest.builder().messages(SystemMessage.from(system), UserMessage.from("Decide."))
          .toolSpecifications(specs).toolChoice(ToolChoice.NONE).build()).aiMessage().text();
      List<ToolExecutionRequest> calls = model.chat(ChatRequest.builder()
          .messages(SystemMessage.from(CotPrompts.executionSystem()), UserMessage.from(CotPrompts.executionUser(plan)))
          .toolSpecifications(specs).toolChoice(ToolChoice.REQUIRED).build()).aiMessage().toolExecutionRequests();
      assertEquals(1, calls.size(), id + ": " + plan);
      ToolExecutionRequest call = calls.get(0);
      assertEquals(List.of(), ToolCallValidator.validate(byName.get(call.name()),
          Json.MAPPER.readTree(call.arguments())), id + ": " + call);
      tools.add(call.name());
    }
    assertEquals(List.of("speak_to", "buy_product", "teleport_to_location"), tools);
  }

  /** The rules played against the world, as the simulation applies them: both sellers sell. */
  @Test
  void playedOnMesaLlmsExampleBothSellersSellAndNoActionFails() {
    NegotiationWorld w = NegotiationWorld.create(NegotiationParameters.DEFAULTS, new SeededRandom(42));
    SeededRandom random = new SeededRandom(42);
    List<String> failures = new ArrayList<>();
    for (int step = 1; step <= 8; step++) {
      Map<String, RuleDecision> decisions = new java.util.LinkedHashMap<>();
      for (String id : w.agentIds()) {
        decisions.put(id, decide(w, id, step));
      }
      for (String id : random.shuffled(w.agentIds())) {
        for (RuleDecision.Action a : decisions.get(id).actions()) {
          String outcome = w.apply(new WorldAction(id, "c", a.tool(), a.arguments()), random);
          if (!outcome.startsWith("speak_to: told") && !outcome.startsWith("teleport_to_location: moved")
              && !outcome.startsWith("buy_product: bought")) {
            failures.add(step + " " + id + " " + outcome);
          }
        }
      }
      w.endStep(step, random);
    }
    Map<String, Number> counts = w.counts();
    assertTrue(counts.get("sales_seller-0").intValue() > 0 && counts.get("sales_seller-1").intValue() > 0,
        counts.toString());
    assertTrue(counts.get("money_left").intValue() < 350, counts.toString());
    // only conflicts for a cell may fail
    assertTrue(failures.stream().allMatch(f -> f.contains("blocked")), failures.toString());
  }
}
