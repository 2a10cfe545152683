package io.durableagents.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.scenarios.Builtins;
import io.durableagents.scenarios.negotiation.NegotiationParameters;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.StepCounts;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Mesa-LLM's negotiation example end to end on the test environment, with the offline rules model. */
class NegotiationSimulationTest {
  private TestWorkflowEnvironment env;

  @BeforeEach
  void setUp() {
    env = TestWorkers.start(Builtins.plugin().build());
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private SimulationResult run(String id, SimulationInput input) {
    SimulationWorkflow sim = env.getWorkflowClient().newWorkflowStub(SimulationWorkflow.class,
        WorkflowOptions.newBuilder().setTaskQueue(TaskQueues.AGENTS).setWorkflowId(id).build());
    return sim.run(input);
  }

  static SimulationInput input(long seed, int steps, Strategy strategy) {
    return new SimulationInput("negotiation", steps, seed, null,
        AgentOptions.newBuilder().setStrategy(strategy).build(), null, null)
        .withParameters(NegotiationParameters.DEFAULTS);
  }

  /** Sales only grow, money only shrinks, and every sale takes a seller's price from the buyers. */
  private static void assertConsistent(SimulationResult r) {
    int sales = 0;
    int money = 350;
    for (StepCounts s : r.perStep()) {
      assertEquals(List.of("sales_seller-0", "sales_seller-1", "money_left"), List.copyOf(s.counts().keySet()));
      int stepSales = s.counts().get("sales_seller-0").intValue() + s.counts().get("sales_seller-1").intValue();
      assertTrue(stepSales >= sales && s.counts().get("money_left").intValue() <= money, r.perStep().toString());
      // every product costs 35 to 50
      assertTrue(money - s.counts().get("money_left").intValue() <= 50 * (stepSales - sales)
          && money - s.counts().get("money_left").intValue() >= 35 * (stepSales - sales), r.perStep().toString());
      sales = stepSales;
      money = s.counts().get("money_left").intValue();
    }
  }

  @Test
  void everyStrategyPlaysTheExampleAndBothSellersSell() {
    for (Strategy strategy : Strategy.values()) {
      SimulationResult r = run("sim-nego-" + strategy.label(), input(42, 8, strategy));
      assertEquals(8, r.perStep().size());
      assertConsistent(r);
      StepCounts last = r.perStep().get(7);
      assertTrue(last.counts().get("sales_seller-0").intValue() > 0 && last.counts().get("sales_seller-1").intValue() > 0,
          strategy + ": " + r.perStep());
      assertEquals(7 * 8, r.agentSteps(), "every agent acts every step");
    }
  }

  @Test
  void theSameSeedGivesTheSameRun() {
    SimulationResult a = run("sim-nego-a", input(7, 6, Strategy.COT));
    SimulationResult b = run("sim-nego-b", input(7, 6, Strategy.COT));
    assertEquals(a.perStep(), b.perStep());
    // CoT: a reasoning and an execution call per agent step, even for an agent with nothing to do
    assertEquals(2 * a.agentSteps(), a.llmCalls());
  }

  @Test
  void wordsSpokenAtOneStepAreInTheRecipientsNextObservation() {
    run("sim-nego-msg", input(42, 4, Strategy.COT));
    List<String> heard = new ArrayList<>();
    for (int step = 1; step <= 4; step++) {
      for (String agent : List.of("seller-0", "seller-1", "buyer-0", "buyer-1", "buyer-2", "buyer-3", "buyer-4")) {
        AgentStepInput in = stepInput("sim-nego-msg/agent-" + agent + "/step-" + step);
        Object messages = in.observation().selfState().get("messages");
        if (messages != null) {
          assertTrue(step > 1, "nothing was said before step 1");
          heard.add(step + " " + agent + " " + messages);
        }
      }
    }
    assertTrue(heard.stream().anyMatch(h -> h.contains("seller-0 says: Brand A")), heard.toString());
    assertTrue(heard.stream().anyMatch(h -> h.contains(" buyer-") && h.contains("says: Hello!")), heard.toString());
  }

  private AgentStepInput stepInput(String workflowId) {
    List<HistoryEvent> events = env.getWorkflowClient().fetchHistory(workflowId).getEvents();
    Optional<HistoryEvent> started = events.stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED).findFirst();
    Payloads input = started.orElseThrow().getWorkflowExecutionStartedEventAttributes().getInput();
    return env.getWorkflowClient().getOptions().getDataConverter()
        .fromPayloads(0, Optional.of(input), AgentStepInput.class, AgentStepInput.class);
  }
}
