package io.durableagents.workflows.autonomous;

import java.util.Locale;

/** The guardrails that can end an autonomous run before the agent finishes on its own. */
public enum Guardrail {
  /** {@code guardrails.max_iterations}: the agent's LLM turns over the whole run. */
  MAX_ITERATIONS,
  /** {@code guardrails.autonomous_token_budget}: input plus output tokens, sub-agents included. */
  TOKEN_BUDGET,
  /** {@code guardrails.timeout_seconds}: wall-clock time, measured by a workflow timer. */
  TIMEOUT;

  /** The name as the spec writes it. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
