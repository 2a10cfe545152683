package io.durableagents.starter.run;

import io.durableagents.api.Scenario;
import io.durableagents.api.SeededRandom;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.workflows.scenario.ScenarioParameters;
import io.durableagents.workflows.simulation.SimulationInput;
import java.util.Locale;
import java.util.Optional;

/**
 * The one line {@code simulate} prints when a simulation is large enough that group steps ({@code
 * --agents-per-workflow}) would run it much faster than a workflow per agent step. Measured (see
 * BENCHMARKS.md): with a model that answers at once, such as the offline {@code rules} model, groups of
 * 50 do 2 to 3 times the agent steps per second from about 100 agents on; with a model that takes a
 * second or more per call, the shapes are alike until the per-step overhead outgrows the wait, at
 * several hundred agents.
 */
final class ShapeAdvice {
  /** Agents from which groups are much faster when the model answers at once (the offline rules model). */
  static final int FAST_MODEL_AGENTS = 100;

  /** Agents from which groups are much faster whatever the model. */
  static final int ANY_MODEL_AGENTS = 500;

  /** The group size the advice names. */
  static final int GROUP_SIZE = 50;

  private ShapeAdvice() {}

  /** The advice for {@code input}, a world of {@code agents} agents; empty when there is none to give. */
  static Optional<String> forInput(SimulationInput input, int agents) {
    if (input.agentsPerWorkflow() > 1) {
      return Optional.empty();
    }
    String model = input.agentOptions().model();
    boolean answersAtOnce = model != null && model.equals("rules");
    if (agents < ANY_MODEL_AGENTS && !(answersAtOnce && agents >= FAST_MODEL_AGENTS)) {
      return Optional.empty();
    }
    return Optional.of(String.format(Locale.ROOT, "Hint: %,d agents, each agent step its own workflow. "
        + "--agents-per-workflow %d runs the same simulation (the same result, every LLM call still its own "
        + "activity) in a workflow per %d agents of a role: less than half the CPU per agent step, 2 to 3 "
        + "times the agent steps per second when the model answers fast (BENCHMARKS.md).", agents, GROUP_SIZE,
        GROUP_SIZE));
  }

  /** The advice for {@code input} on this machine's scenarios (empty when its world cannot be made). */
  static Optional<String> forInput(SimulationInput input, LocalCatalog catalog) {
    try {
      Scenario<?> scenario = catalog.scenarios().get(input.scenario());
      return forInput(input, agents(scenario, input));
    } catch (RuntimeException e) {
      // the start checks report a bad scenario or parameter; no advice then
      return Optional.empty();
    }
  }

  private static <P extends Record> int agents(Scenario<P> scenario, SimulationInput input) {
    return scenario.create(ScenarioParameters.read(scenario, input.parameters()), new SeededRandom(input.seed()))
        .agentIds().size();
  }
}
