package io.durableagents.workflows.scenario;

/**
 * The prompts of one scenario. They live in code, not in workflow inputs, so that a history never
 * holds a prompt in an input and a prompt change is a code change.
 */
public interface ScenarioPrompts {
  /** Who the agent is and what it wants, for the system prompt. */
  String roleDescription(String role);

  /** What the agent is asked at each step. */
  String stepPrompt(String role);
}
