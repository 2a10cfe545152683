package io.durableagents.workflows.autonomous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A judge's answer read into a verdict, or a judge failure. */
class JudgeAnswerTest {
  private static final List<String> CRITERIA = List.of("Cites sources", "Under 200 words");

  @Test
  void aVerdictInACodeFenceWithEveryCriterion() {
    JudgeVerdict v = JudgeAnswer.parse(2, "Here you are:\n```json\n{\"results\": ["
        + "{\"criterion\": \"cites sources\", \"passed\": true, \"reason\": \"two links\"},"
        + "{\"criterion\": \"Under 200 words\", \"passed\": false}]}\n```", CRITERIA);
    assertEquals(2, v.round());
    assertFalse(v.allPassed());
    assertEquals(List.of(new JudgeVerdict.CriterionResult("Cites sources", true, "two links"),
        new JudgeVerdict.CriterionResult("Under 200 words", false, "")), v.criteriaResults());
  }

  @Test
  void aBareArrayWhereEveryCriterionPassed() {
    JudgeVerdict v = JudgeAnswer.parse(1, "[{\"criterion\": \"Cites sources\", \"passed\": true},"
        + "{\"criterion\": \"Under 200 words\", \"passed\": true}]", CRITERIA);
    assertTrue(v.allPassed());
  }

  @Test
  void anAnswerThatIsNotJsonOrLacksACriterionIsAJudgeFailure() {
    assertNull(JudgeAnswer.parse(1, "looks good to me", CRITERIA));
    assertNull(JudgeAnswer.parse(1, null, CRITERIA));
    assertNull(JudgeAnswer.parse(1, "{\"results\": [{\"criterion\": \"Cites sources\", \"passed\": true}]}",
        CRITERIA));
    assertNull(JudgeAnswer.parse(1, "{\"results\": [{\"criterion\": \"Cites sources\", \"passed\": \"yes\"},"
        + "{\"criterion\": \"Under 200 words\", \"passed\": true}]}", CRITERIA), "passed must be a boolean");
    assertNull(JudgeAnswer.parse(1, "{\"verdict\": \"pass\"}", CRITERIA));
  }
}
