package io.durableagents.examples.boltzmann;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.testkit.DurableAgentsTestEnvironment;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.simulation.SimulationFailureTypes;
import io.durableagents.workflows.simulation.SimulationInput;
import io.durableagents.workflows.simulation.SimulationResult;
import io.durableagents.workflows.simulation.StepCounts;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The scenario run by the simulation workflow on Temporal's test environment, with the offline {@code
 * rules} model playing {@link BoltzmannRulePolicy}: through every strategy, across continue-as-new, and
 * with a bad parameter.
 */
class BoltzmannSimulationTest {
  static final DurableAgentsPlugin PLUGIN = DurableAgentsPlugin.newBuilder()
      .registerScenario(new BoltzmannScenario(), new BoltzmannActions(), new BoltzmannRulePolicy())
      .build();

  @RegisterExtension
  static final TestWorkflowExtension temporal = DurableAgentsTestEnvironment.extension(PLUGIN).build();

  /** 10 people with 3 units each on a 3 x 3 torus: crowded enough that money changes hands every step. */
  static final BoltzmannParameters SMALL = new BoltzmannParameters(10, 3, 3, 3, 4);

  static SimulationInput input(int steps, AgentOptions options) {
    return SimulationInput.of(BoltzmannScenario.NAME, steps, 42).withParameters(SMALL).withAgentOptions(options);
  }

  @Test
  void everyStrategyPlaysMesasRulesOfflineAndMoneyOnlyChangesHands(WorkflowClient client) {
    int steps = 5;
    for (AgentOptions options : new AgentOptions[] {
        AgentOptions.newBuilder().setStrategy(Strategy.COT).build(),
        AgentOptions.newBuilder().setStrategy(Strategy.REACT).build(),
        AgentOptions.newBuilder().setStrategy(Strategy.REWOO).build(),
        AgentOptions.newBuilder().setStrategy(Strategy.REWOO).setTtl(2).build()}) {
      String id = "boltzmann-" + options.strategy().label() + "-ttl" + options.ttl();
      SimulationResult r = DurableAgentsTestEnvironment.simulation(client, id).run(input(steps, options));

      assertEquals(steps, r.steps(), id);
      assertEquals(10L * steps, r.agentSteps(), id + ": every person acts every step");
      assertTrue(r.warnings().isEmpty(), id + ": " + r.warnings());
      for (StepCounts s : r.perStep()) {
        assertEquals(30, s.counts().get(BoltzmannScenario.TOTAL_WEALTH).intValue(), id + " step " + s.step());
        assertInstanceOf(Double.class, s.counts().get(BoltzmannScenario.GINI), id);
      }
      double gini = r.finalCounts().get(BoltzmannScenario.GINI).doubleValue();
      assertTrue(gini > 0 && gini < 1, id + ": money changed hands, unequally: " + r.perStep());
      assertTrue(r.finalCounts().get(BoltzmannScenario.RICHEST_WEALTH).intValue() > 3, id);
    }
  }

  @Test
  void aRunThatContinuesAsNewEndsExactlyAsOneInOnePiece(WorkflowClient client) {
    // ReWOO plans of 3 steps are held across the run boundaries: the carried state must hold them too
    AgentOptions options = AgentOptions.newBuilder().setStrategy(Strategy.REWOO).setTtl(3).build();
    SimulationInput whole = input(10, options).withContinueAsNewWhenSuggested(false);
    SimulationResult once = DurableAgentsTestEnvironment.simulation(client, "boltzmann-whole").run(whole);
    SimulationResult continued = DurableAgentsTestEnvironment.simulation(client, "boltzmann-continued")
        .run(whole.withContinueAsNewEvery(4));

    assertEquals(1, once.runs());
    assertEquals(3, continued.runs(), "steps 1-4, 5-8 and 9-10");
    assertEquals(once.perStep(), continued.perStep());
    assertEquals(once.finalCounts(), continued.finalCounts());
    assertEquals(once.llmCalls(), continued.llmCalls());
    assertEquals(once.usage(), continued.usage());
    assertEquals(once.planCounts(), continued.planCounts());
    assertTrue(once.planCounts().planStepsReused() > 0, "steps were served from held plans: " + once.planCounts());
  }

  @Test
  void aBadParameterFailsTheRunAtOnceNamingItAndWhatIsAllowed(WorkflowClient client) {
    SimulationInput tooMany = SimulationInput.of(BoltzmannScenario.NAME, 3, 1)
        .withParameters(new BoltzmannParameters(40, 3, 3, 1, 4));
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class,
        () -> DurableAgentsTestEnvironment.simulation(client, "boltzmann-bad").run(tooMany));
    ApplicationFailure cause = assertInstanceOf(ApplicationFailure.class, e.getCause());
    assertEquals(SimulationFailureTypes.INVALID_PARAMETER, cause.getType());
    assertEquals("boltzmann-wealth: parameter agents = 40 is not allowed: at most width x height x "
        + "cell_capacity = 36", cause.getOriginalMessage());
    assertTrue(cause.isNonRetryable());
  }
}
