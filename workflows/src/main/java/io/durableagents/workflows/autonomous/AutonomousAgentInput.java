package io.durableagents.workflows.autonomous;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The input of one autonomous run: the spec, the user's prompt and, for a sub-agent, where it sits in
 * the spawn tree.
 *
 * @param spec the agent
 * @param prompt what it is asked to do
 * @param depth 0 for a run started by a user; a sub-agent's is its parent's plus one
 * @param maxDepth the root's {@code max_depth}, carried down so that nested spawns respect it; 0 for
 *     a root (its own spec's then counts)
 * @param tokenBudget the budget left to a sub-agent by its parent (the smaller of it and the spec's
 *     counts), or null
 * @param timeoutSeconds a sub-agent's per-task timeout (the smaller of it and the spec's counts), or
 *     null
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AutonomousAgentInput(AgentSpec spec, String prompt, int depth, int maxDepth,
    Long tokenBudget, Integer timeoutSeconds) {

  /** A run started by a user. */
  public static AutonomousAgentInput root(AgentSpec spec, String prompt) {
    return new AutonomousAgentInput(spec, prompt, 0, 0, null, null);
  }
}
