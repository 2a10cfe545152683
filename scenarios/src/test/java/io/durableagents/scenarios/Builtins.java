package io.durableagents.scenarios;

import io.durableagents.activities.rules.RulesChatModel;
import io.durableagents.activities.scenario.ScenarioRegistration;
import io.durableagents.scenarios.epstein.EpsteinActions;
import io.durableagents.scenarios.epstein.EpsteinRulePolicy;
import io.durableagents.scenarios.epstein.EpsteinScenario;
import io.durableagents.scenarios.negotiation.NegotiationActions;
import io.durableagents.scenarios.negotiation.NegotiationRulePolicy;
import io.durableagents.scenarios.negotiation.NegotiationScenario;
import io.durableagents.worker.DurableAgentsPlugin;
import io.durableagents.workflows.agent.AgentGroupStepWorkflow;
import io.durableagents.workflows.agent.AgentGroupStepWorkflowImpl;
import io.durableagents.workflows.agent.AgentStepWorkflow;
import io.durableagents.workflows.agent.AgentStepWorkflowImpl;
import io.durableagents.workflows.scenario.ScenarioRegistry;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.durableagents.workflows.simulation.SimulationWorkflowImpl;
import io.temporal.worker.Worker;
import java.util.List;

/**
 * The built-in scenarios as the engine's tests in this module use them: the engine names no scenario,
 * so a test that runs the engine on Epstein or negotiation takes them from here.
 */
public final class Builtins {
  private Builtins() {}

  /** The built-ins as the plugin registers them. */
  public static List<ScenarioRegistration> registrations() {
    return List.of(
        new ScenarioRegistration(new EpsteinScenario(), new EpsteinActions(), new EpsteinRulePolicy()),
        new ScenarioRegistration(
            new NegotiationScenario(), new NegotiationActions(), new NegotiationRulePolicy()));
  }

  /** A plugin builder with the built-in scenarios registered, as the command line has them. */
  public static DurableAgentsPlugin.Builder plugin() {
    return DurableAgentsPlugin.newBuilder().apply(new BuiltinScenarios());
  }

  /** A registry of the built-in scenarios, for workflow implementations made in a test. */
  public static ScenarioRegistry registry() {
    return ScenarioRegistry.of(registrations().stream().<io.durableagents.api.Scenario<?>>map(
        ScenarioRegistration::scenario).toList());
  }

  /** The offline rules model with the built-ins' rule policies. */
  public static RulesChatModel rulesModel() {
    return new RulesChatModel(ScenarioRegistration.policies(registrations()));
  }

  /** Registers the simulation and agent step workflows, knowing the built-ins, on {@code worker}. */
  public static void registerWorkflows(Worker worker) {
    ScenarioRegistry scenarios = registry();
    worker.registerWorkflowImplementationFactory(
        SimulationWorkflow.class, () -> new SimulationWorkflowImpl(scenarios));
    worker.registerWorkflowImplementationFactory(
        AgentStepWorkflow.class, () -> new AgentStepWorkflowImpl(scenarios));
    worker.registerWorkflowImplementationFactory(
        AgentGroupStepWorkflow.class, () -> new AgentGroupStepWorkflowImpl(scenarios));
  }
}
