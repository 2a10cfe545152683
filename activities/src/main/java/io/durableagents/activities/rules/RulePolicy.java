package io.durableagents.activities.rules;

import java.util.Map;
import java.util.Optional;

/**
 * The classic rule-based policy of one scenario, which the offline {@link RulesChatModel} plays.
 */
public interface RulePolicy {
  /**
   * Decides an agent's step from its observation, or returns empty when this policy has no rule for
   * the agent (another scenario's agent).
   *
   * @param step the simulation step
   * @param selfState the agent's own state
   * @param localState its neighbours' public states, by id
   */
  Optional<RuleDecision> decide(
      int step, Map<String, Object> selfState, Map<String, Map<String, Object>> localState);
}
