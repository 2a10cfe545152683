package io.durableagents.workflows.agent.react;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.workflows.agent.react.TextActionParser.Parsed;
import io.durableagents.workflows.agent.react.TextActionParser.TextAction;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The text action format, read line by line. */
class TextActionParserTest {
  private static List<String> names(Parsed p) {
    return p.actions().stream().map(TextAction::name).toList();
  }

  @Test
  void readsAThoughtAndOneToolCall() {
    Parsed p = TextActionParser.parse(
        "Thought: I need the product.\nAction: calculator[{\"expression\": \"17 * 23\"}]");
    assertNull(p.error());
    assertEquals("I need the product.", p.thought());
    assertEquals(List.of("calculator"), names(p));
    assertEquals("17 * 23", p.actions().get(0).arguments().get("expression").asText());
    assertTrue(!p.isPlainAnswer());
  }

  @Test
  void bracketsInsideJsonStringsDoNotEndTheArguments() {
    Parsed p = TextActionParser.parse("Action: lookup[{\"q\": \"a ] b ) c \\\" d\", \"n\": [1, 2]}]");
    assertNull(p.error(), p.error());
    assertEquals("a ] b ) c \" d", p.actions().get(0).arguments().get("q").asText());
    assertEquals(2, p.actions().get(0).arguments().get("n").size());
  }

  @Test
  void readsSeveralCallsAndTheRoundBracketFormOfCotPlans() {
    Parsed p = TextActionParser.parse("Thought 1: rebel\nAction: change_state({\"state\":\"active\"}); "
        + "move_one_step[{\"direction\":\"North\"}]");
    assertNull(p.error(), p.error());
    assertEquals(List.of("change_state", "move_one_step"), names(p));
  }

  @Test
  void finishTakesFreeTextUpToTheLastBracket() {
    Parsed p = TextActionParser.parse("Thought: done\nAction: finish[It is 391 [checked].\nReally.]");
    assertNull(p.error());
    assertTrue(p.actions().get(0).isFinish());
    assertEquals("It is 391 [checked].\nReally.", p.actions().get(0).answer());
    assertEquals("391", TextActionParser.parse("Action: Finish[{\"answer\": \"391\"}]").actions().get(0).answer());
  }

  @Test
  void anAnswerWithoutAnActionLineOrWithNoneIsAPlainAnswer() {
    Parsed plain = TextActionParser.parse("The answer is 391.");
    assertTrue(plain.isPlainAnswer());
    assertEquals("The answer is 391.", plain.thought());
    assertNull(plain.actionText());
    Parsed none = TextActionParser.parse("Thought: nothing to do\nAction: none");
    assertTrue(none.isPlainAnswer());
    assertEquals("nothing to do", none.thought());
  }

  @Test
  void aMadeUpObservationAndWhatFollowsAreDropped() {
    Parsed p = TextActionParser.parse("Thought: t\nAction: calculator[{\"expression\":\"1+1\"}]\n"
        + "Observation: 3\nThought: so it is 3\nAction: finish[3]");
    assertEquals(List.of("calculator"), names(p));
    assertEquals("Thought: t\nAction: calculator[{\"expression\":\"1+1\"}]", p.kept());
  }

  @Test
  void malformedActionsSayWhatWasExpected() {
    assertEquals("could not parse the action 'xyz': expected tool[json arguments] or finish[answer]",
        TextActionParser.parse("Action: xyz").error());
    assertEquals("could not parse the action 'calculator[2+3]': the arguments of calculator are not a "
        + "JSON object; expected tool[json arguments] or finish[answer]",
        TextActionParser.parse("Action: calculator[2+3]").error());
    assertTrue(TextActionParser.parse("Action: calculator[{\"a\":1}").error().contains("missing ']'"));
    assertTrue(TextActionParser.parse("Action:").error().contains("the action is empty"));
    assertTrue(TextActionParser.parse("Action: finish[").error().contains("missing ']'"));
    assertEquals(List.of(), TextActionParser.parse("Action: xyz").actions());
  }

  @Test
  void emptyArgumentsAreAnEmptyObject() {
    Parsed p = TextActionParser.parse("Action: list_files[]");
    assertNull(p.error());
    assertEquals(0, p.actions().get(0).arguments().size());
  }

  @Test
  void longObservationsKeepHeadAndTailWithinTheLimit() {
    String text = "A".repeat(5000) + "Z".repeat(5000);
    String compressed = ObservationCompressor.compress(text, 300);
    assertTrue(compressed.length() <= 300, "length " + compressed.length());
    assertTrue(compressed.startsWith("AAA") && compressed.endsWith("ZZZ"), compressed);
    assertTrue(compressed.contains("characters cut of 10000 ...]"), compressed);
    assertEquals("short", ObservationCompressor.compress("short", 300));
    // A surrogate pair is never split.
    String emoji = "\uD83D\uDE00".repeat(500);
    String cut = ObservationCompressor.compress(emoji, 103);
    assertTrue(!Character.isHighSurrogate(cut.charAt(cut.indexOf('\n') - 1)), cut);
    assertTrue(!Character.isLowSurrogate(cut.charAt(cut.lastIndexOf('\n') + 1)), cut);
    assertTrue(cut.length() <= 103);
  }
}
