package io.durableagents.activities.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.agent.rewoo.ReWooPrompts;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the rules model reads from a request's messages, by the lines the prompts write. */
class RulesPromptsTest {
  @Test
  void anObservationIsReadWithItsScenarioRoleStepAndStates() throws Exception {
    List<ChatMessage> messages = List.of(SystemMessage.from(CotPrompts.SCENARIO_PREFIX + "epstein"
        + CotPrompts.ROLE_SEPARATOR + "cop\n" + CotPrompts.STEP_PREFIX + "3) of you\n"
        + CotPrompts.SELF_STATE_PREFIX + "{\"x\":1}\n" + CotPrompts.LOCAL_STATE_PREFIX + "{\"c1\":{\"x\":2}}"));
    RulesPrompts.Observed o = RulesPrompts.observe(messages);
    assertEquals("epstein", o.scenario());
    assertEquals("cop", o.role());
    assertEquals(3, o.step());
    assertEquals(Map.of("x", 1), o.self());
    assertEquals(Map.of("c1", Map.of("x", 2)), o.local());
  }

  @Test
  void withoutAScenarioLineTheRoleComesFromTheSelfStateAndWithoutAStateThereIsNoObservation() throws Exception {
    RulesPrompts.Observed o = RulesPrompts.observe(List.of(UserMessage.from(CotPrompts.STEP_PREFIX + "1)\n"
        + CotPrompts.SELF_STATE_PREFIX + "{\"role\":\"citizen\"}")));
    assertNull(o.scenario());
    assertEquals("citizen", o.role());
    assertNull(RulesPrompts.observe(List.of(UserMessage.from("What is 2 + 2?"))));
  }

  @Test
  void theLastActionLineThePlanLengthAndTheToolsResultsAreRead() {
    List<ChatMessage> messages = List.of(UserMessage.from("task\n" + ReWooPrompts.PLAN_LENGTH_PREFIX + "4 steps"),
        AiMessage.from(CotPrompts.ACTION_PREFIX + "a()\n" + CotPrompts.ACTION_PREFIX + "b({})"),
        ToolExecutionResultMessage.from("c1", "calculator", "4"),
        UserMessage.from(ReWooPrompts.STEP_RESULTS_HEADER + "\n- E1 calculator: 391\n- none (no step ran)"));
    assertEquals("b({})", RulesPrompts.actionLine(messages));
    assertEquals(4, RulesPrompts.planLength(messages));
    assertEquals(1, RulesPrompts.planLength(List.of(UserMessage.from("no plan here"))));
    assertEquals("task\n" + ReWooPrompts.PLAN_LENGTH_PREFIX + "4 steps", RulesPrompts.firstUserText(messages));
    assertEquals(List.of("4", "391"), RulesPrompts.toolResults(messages));
  }
}
