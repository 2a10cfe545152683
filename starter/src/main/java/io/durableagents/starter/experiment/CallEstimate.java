package io.durableagents.starter.experiment;

import io.durableagents.api.Scenario;
import io.durableagents.api.ScenarioWorld;
import io.durableagents.api.SeededRandom;
import io.durableagents.starter.LocalCatalog;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.scenario.ScenarioParameters;
import io.durableagents.workflows.simulation.SimulationInput;

/**
 * What a run of a sweep is expected to spend, before anything is paid: the agents of the world its
 * parameters make, times the steps it runs, times what an agent step of each agent's strategy spent in
 * the measured runs of BENCHMARKS.md section 6 (Epstein, the {@code rules} model): CoT 2 calls and ~1,400
 * tokens, ReAct 1 call and ~1,300 tokens, ReWOO 1 call and ~1,200 tokens with a TTL of 1, 0.6 calls and
 * ~750 tokens with a longer TTL. Agents that sit out a step (jailed, gone) make it an upper bound for
 * Epstein; other scenarios and models differ, which is why the experiment replaces it with the mean of
 * its completed runs as soon as one has ended.
 */
public record CallEstimate(long calls, long tokens) {
  /** LLM calls one agent step of {@code options}' strategy makes. */
  static double callsPerAgentStep(AgentOptions options) {
    return switch (options.strategy()) {
      case COT -> 2.0;
      case REACT -> 1.0;
      case REWOO -> options.ttl() <= 1 ? 1.0 : 0.6;
    };
  }

  /** Tokens (prompt and generated) one agent step of {@code options}' strategy uses. */
  static double tokensPerAgentStep(AgentOptions options) {
    return switch (options.strategy()) {
      case COT -> 1385;
      case REACT -> 1301;
      case REWOO -> options.ttl() <= 1 ? 1173 : 736;
    };
  }

  /**
   * The estimate for a run of {@code input} that runs {@code steps} steps (all of them for a new run,
   * those after the fork point for a what-if).
   */
  public static CallEstimate of(SimulationInput input, int steps, LocalCatalog catalog) {
    Scenario<?> scenario = catalog.scenarios().get(input.scenario());
    ScenarioWorld world = create(scenario, input);
    double calls = 0;
    double tokens = 0;
    for (String agent : world.agentIds()) {
      AgentOptions options = input.optionsFor(world.roleOf(agent));
      calls += callsPerAgentStep(options);
      tokens += tokensPerAgentStep(options);
    }
    return new CallEstimate((long) Math.ceil(calls * Math.max(steps, 0)), (long) Math.ceil(tokens * Math.max(steps, 0)));
  }

  private static <P extends Record> ScenarioWorld create(Scenario<P> scenario, SimulationInput input) {
    return scenario.create(ScenarioParameters.read(scenario, input.parameters()), new SeededRandom(input.seed()));
  }
}
