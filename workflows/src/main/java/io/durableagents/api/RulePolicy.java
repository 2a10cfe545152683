package io.durableagents.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A scenario's classic rule-based policy, which the offline {@code rules} model ({@code
 * RulesChatModel}) plays in place of an LLM, through every strategy: so a scenario runs, and its
 * tests run, with no network and no key. Registered with its scenario on the worker:
 *
 * <pre>{@code
 * DurableAgentsPlugin.newBuilder()
 *     .registerScenario(new WealthScenario(), new WealthActions(), new WealthRulePolicy());
 * }</pre>
 *
 * <p>A policy reads the same observation a model reads (the world's {@code self_state} and {@code
 * local_state}, as JSON maps) and answers with thoughts and world actions by name, with JSON
 * arguments that fit the actions' {@code @Tool} schemas. It must be deterministic: the same
 * observation always gets the same decision (seed any randomness with the agent id and the step), so
 * that a retried call changes nothing.
 */
public interface RulePolicy {
  /**
   * Decides an agent's step from its observation, or returns empty when this policy has no rule for
   * the role: the rules model then says so in the run's result ({@code SimulationResult.warnings}) and
   * the agent takes no action.
   *
   * @param role the agent's role in the scenario
   * @param step the simulation step
   * @param selfState the agent's own state
   * @param localState its neighbours' public states, by id
   */
  Optional<RuleDecision> decide(String role, int step, Map<String, Object> selfState,
      Map<String, Map<String, Object>> localState);

  /**
   * A ReWOO plan of at most {@code length} actions, one per simulation step, starting with this step's
   * {@code decision}; the rules model answers a planner call with it. The default plans this step's
   * decision only (the agent plans again when the plan runs out); a policy that can foresee its next
   * moves (Epstein's walkers) plans further.
   */
  default List<RuleDecision.Action> plan(String role, int step, Map<String, Object> selfState,
      Map<String, Map<String, Object>> localState, RuleDecision decision, int length) {
    List<RuleDecision.Action> actions = decision.actions();
    return actions.size() > length ? actions.subList(0, length) : actions;
  }
}
