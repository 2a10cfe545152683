package io.durableagents.workflows.llm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * Tokens a model read ({@code input}) and wrote ({@code output}). Every LLM result carries one, and
 * agent steps and simulations add them up.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TokenUsage(long input, long output) {
  /** No tokens. */
  public static final TokenUsage ZERO = new TokenUsage(0, 0);

  /** Input plus output tokens. */
  public long total() {
    return input + output;
  }

  /** The sum of this usage and {@code other}; a null {@code other} counts as zero. */
  public TokenUsage plus(TokenUsage other) {
    return other == null ? this : new TokenUsage(input + other.input, output + other.output);
  }
}
