package io.durableagents.workflows.agent.rewoo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.api.Json;
import io.durableagents.workflows.llm.ToolCall;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every way a plan can be invalid, each reported in words the planner can act on. */
class ReWooPlanValidatorTest {
  private static final List<String> AGENT_TOOLS = List.of("calculator", "read_file", "search");
  private static final List<String> SELECTED = List.of("calculator", "read_file");

  private static ReWooPlanValidator.Result check(String plan) {
    return ReWooPlanValidator.validate(plan, List.of(), AGENT_TOOLS, SELECTED, 4);
  }

  private static String step(String id, String tool, String args) {
    return "{\"id\":\"" + id + "\",\"tool\":\"" + tool + "\",\"args\":" + args + "}";
  }

  private static void assertOneError(String plan, String expectedPart) {
    ReWooPlanValidator.Result r = check(plan);
    assertEquals(1, r.errors().size(), r.errors().toString());
    assertTrue(r.errors().get(0).contains(expectedPart), r.errors().get(0));
  }

  @Test
  void aValidPlanInEitherFormGivesItsStepsInOrder() {
    String steps = "[" + step("E1", "calculator", "{\"expression\":\"17*23\"}") + ","
        + step("E2", "read_file", "{\"path\":\"a.txt\"}") + ","
        + step("E3", "calculator", "{\"expression\":\"{{E1}} + {{E2.n}}\"}") + "]";
    for (String plan : List.of(steps, "{\"plan\":" + steps + "}", "```json\n" + steps + "\n```")) {
      ReWooPlanValidator.Result r = check(plan);
      assertTrue(r.valid(), r.errors().toString());
      assertEquals(List.of("E1", "E2", "E3"), r.steps().stream().map(ReWooStep::id).toList());
      assertEquals("calculator", r.steps().get(2).tool());
    }
  }

  @Test
  void aPlanWithNoStepsIsRejectedWithAReason() {
    assertOneError("[]", "the plan has no steps");
    assertOneError("{\"plan\": []}", "the plan has no steps");
  }

  @Test
  void aNumericIdIsTakenAsItsStringAndAnIdOfAnotherKindIsNamedAsSuch() {
    ReWooPlanValidator.Result r = check("[" + "{\"id\":1,\"tool\":\"calculator\",\"args\":{\"expression\":\"1+1\"}}]");
    assertTrue(r.valid(), r.errors().toString());
    assertEquals("1", r.steps().get(0).id());
    assertOneError("[{\"id\":{\"n\":1},\"tool\":\"calculator\",\"args\":{}}]", "\"id\" must be a string");
  }

  @Test
  void notJson() {
    assertOneError("I will use the calculator.", "the plan is not JSON");
  }

  @Test
  void notAnArrayNorAnObjectWithAPlan() {
    assertOneError("{\"steps\":[]}", "must be a JSON array of steps, or an object {\"plan\": [...]}");
    assertOneError("42", "must be a JSON array");
    assertOneError("[\"E1\"]", "step 1 is a JSON string, not an object");
  }

  @Test
  void missingIdOrTool() {
    assertOneError("[{\"tool\":\"calculator\",\"args\":{}}]", "step 1 has no \"id\"");
    assertOneError("[{\"id\":\"E1\",\"args\":{}}]", "step 1 (E1) has no \"tool\"");
  }

  @Test
  void duplicateId() {
    assertOneError("[" + step("E1", "calculator", "{}") + "," + step("E1", "read_file", "{}") + "]",
        "id E1 is used twice (also by step 1)");
  }

  @Test
  void unknownTool() {
    assertOneError("[" + step("E1", "teleport", "{}") + "]",
        "unknown tool 'teleport'; available tools: calculator, read_file");
  }

  @Test
  void aToolOutsideSelectedTools() {
    assertOneError("[" + step("E1", "search", "{}") + "]",
        "tool 'search' is not among the selected tools: calculator, read_file");
  }

  @Test
  void argsMustBeAnObject() {
    assertOneError("[" + step("E1", "calculator", "[1]") + "]", "\"args\" must be an object");
  }

  @Test
  void forwardReference() {
    ReWooPlanValidator.Result r = check("[" + step("E1", "calculator", "{\"expression\":\"{{E2}}\"}") + ","
        + step("E2", "calculator", "{\"expression\":\"1\"}") + "]");
    assertEquals(List.of("E1 references E2, which comes later in the plan: a step can only use the "
        + "outputs of earlier steps"), r.errors());
  }

  @Test
  void referenceToAMissingId() {
    assertOneError("[" + step("E1", "calculator", "{\"expression\":\"{{E9}} + 1\"}") + "]",
        "E1 references E9, which is not a step of the plan");
  }

  @Test
  void selfReferenceAndCycle() {
    assertOneError("[" + step("E1", "calculator", "{\"expression\":\"{{E1}}\"}") + "]",
        "E1 references itself");
    ReWooPlanValidator.Result cycle = check("[" + step("E1", "calculator", "{\"expression\":\"{{E2}}\"}") + ","
        + step("E2", "calculator", "{\"expression\":\"{{E1}}\"}") + "]");
    assertTrue(cycle.errors().contains("the steps E1 -> E2 -> E1 form a cycle"), cycle.errors().toString());
    assertEquals(2, cycle.errors().size(), "the forward reference and the cycle, once: " + cycle.errors());
  }

  @Test
  void tooManySteps() {
    StringBuilder plan = new StringBuilder("[");
    for (int i = 1; i <= 5; i++) {
      plan.append(i > 1 ? "," : "").append(step("E" + i, "calculator", "{\"expression\":\"1\"}"));
    }
    assertOneError(plan.append("]").toString(), "the plan has 5 steps; at most 4 are allowed");
  }

  @Test
  void everyErrorIsListedAndSchemaErrorsComeFromTheActivitysCheckedCalls() {
    String plan = "[" + step("E1", "calculator", "{\"expression\":7}") + ","
        + step("E1", "teleport", "{}") + "," + step("E3", "calculator", "{\"expression\":\"{{E4}}\"}") + "]";
    List<ToolCall> checked = List.of(
        new ToolCall("E1", "calculator", Json.tryParse("{\"expression\":7}"), null,
            "the arguments of calculator do not fit its schema: expression: expected a string, got number 7"),
        new ToolCall("E1", "teleport", Json.object(), null, "unknown tool 'teleport'"),
        ToolCall.of("E3", "calculator", Json.tryParse("{\"expression\":\"{{E4}}\"}")));
    ReWooPlanValidator.Result r = ReWooPlanValidator.validate(plan, checked, AGENT_TOOLS, SELECTED, 8);
    assertEquals(4, r.errors().size(), r.errors().toString());
    assertTrue(r.errors().get(0).startsWith("step 1 (E1): the arguments of calculator do not fit its schema"));
    assertTrue(r.errors().get(1).contains("id E1 is used twice"));
    assertTrue(r.errors().get(2).contains("unknown tool 'teleport'"));
    assertTrue(r.errors().get(3).contains("E3 references E4"));
  }

  @Test
  void theActivitysTextMarkedArgumentsAreTheOnesThatRun() {
    String plan = "[" + step("E1", "calculator", "{\"expression\":\"2\"}") + ","
        + step("E2", "calculator", "{\"expression\":\"{{E1}}\"}") + "]";
    List<ToolCall> checked = List.of(ToolCall.of("E1", "calculator", Json.tryParse("{\"expression\":\"2\"}")),
        ToolCall.of("E2", "calculator", Json.tryParse("{\"expression\":\"{{E1|text}}\"}")));
    ReWooPlanValidator.Result r = ReWooPlanValidator.validate(plan, checked, AGENT_TOOLS, SELECTED, 8);
    assertTrue(r.valid(), r.errors().toString());
    assertEquals("{{E1|text}}", r.steps().get(1).args().get("expression").asText());
  }

  @Test
  void levelsGroupIndependentStepsInPlanOrder() {
    ReWooPlanValidator.Result r = check("[" + step("E1", "calculator", "{\"expression\":\"1\"}") + ","
        + step("E2", "read_file", "{\"path\":\"a\"}") + ","
        + step("E3", "calculator", "{\"expression\":\"{{E1}}+{{E2}}\"}") + ","
        + step("E4", "calculator", "{\"expression\":\"{{E1}}\"}") + "]");
    List<List<String>> levels = ReWooPlanValidator.levels(r.steps()).stream()
        .map(l -> l.stream().map(ReWooStep::id).toList()).toList();
    assertEquals(List.of(List.of("E1", "E2"), List.of("E3", "E4")), levels);
  }
}
