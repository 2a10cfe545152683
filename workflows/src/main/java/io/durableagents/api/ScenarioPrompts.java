package io.durableagents.api;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The prompts of one scenario. They live in code, not in workflow inputs, so that a history never
 * holds a prompt in an input and a prompt change is a code change.
 */
public interface ScenarioPrompts {
  /** Prompts of agents outside any scenario (a single task). */
  ScenarioPrompts GENERIC =
      new ScenarioPrompts() {
        @Override
        public String roleDescription(String role) {
          return "You are " + (role == null ? "an assistant" : role) + ".";
        }

        @Override
        public String stepPrompt(String role) {
          return "Decide what to do next.";
        }
      };

  /** Who the agent is and what it wants, for the system prompt. */
  String roleDescription(String role);

  /** What the agent is asked at each step. */
  String stepPrompt(String role);

  /**
   * Why a world action planned at an earlier step can no longer succeed, judged from the agent's
   * current observation (a blocked cell, a target that is gone), or null when it still can. A ReWOO
   * agent holding a plan re-plans instead of taking a doomed action. The default finds no problem.
   */
  default String plannedActionProblem(Observation observation, String tool, JsonNode arguments) {
    return null;
  }
}
