package io.durableagents.workflows.experiment;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What a whole experiment may spend on LLM calls: a number of calls, of tokens, or both (null: no bound).
 * A run starts only when what the finished runs spent, plus an estimate for every running run and for
 * itself, stays within it.
 *
 * @param calls the most LLM calls, all runs together (null: no bound)
 * @param tokens the most tokens, prompt and generated, all runs together (null: no bound)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExperimentBudget(Long calls, Long tokens) {
  public ExperimentBudget {
    if (calls != null && calls < 0) {
      throw new IllegalArgumentException("the budget's calls must be >= 0, was " + calls);
    }
    if (tokens != null && tokens < 0) {
      throw new IllegalArgumentException("the budget's tokens must be >= 0, was " + tokens);
    }
  }

  /** {@code 500 calls}, {@code 1000000 tokens}, {@code 500 calls, 1000000 tokens}. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    if (calls != null) {
      sb.append(calls).append(" calls");
    }
    if (tokens != null) {
      sb.append(sb.length() == 0 ? "" : ", ").append(tokens).append(" tokens");
    }
    return sb.length() == 0 ? "no budget" : sb.toString();
  }
}
