package io.durableagents.workflows.autonomous;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * What the reflexion judge said about the answer before one reflection round.
 *
 * @param round the reflection round (1, 2, ...) the verdict gates
 * @param allPassed true when every criterion passed
 * @param criteriaResults one result per success criterion, in the spec's order
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record JudgeVerdict(int round, boolean allPassed, List<CriterionResult> criteriaResults) {
  public JudgeVerdict {
    criteriaResults = criteriaResults == null ? List.of() : List.copyOf(criteriaResults);
  }

  /**
   * One criterion's result.
   *
   * @param criterion e.g. {@code correctness}
   * @param passed whether the answer meets it
   * @param reason the judge's reason
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record CriterionResult(String criterion, boolean passed, String reason) {}
}
