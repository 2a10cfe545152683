package io.durableagents.workflows.autonomous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.durableagents.api.Json;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.llm.ToolCall;
import org.junit.jupiter.api.Test;

/**
 * The workflow-side tools that need no workflow: think, todo, finish_task and finalize_plan, and what
 * they tell the pattern between turns.
 */
class WorkflowSideToolsTest {
  private final ThoughtChain thoughts = new ThoughtChain(10, false);
  private final TodoList todos = new TodoList(10);
  private final WorkflowSideTools tools = new WorkflowSideTools(thoughts, todos, null, () -> null);

  private ToolOutcome call(String tool, String argumentsJson) {
    return tools.handle(new ToolCall("call-1", tool, Json.tryParse(argumentsJson), argumentsJson, null));
  }

  @Test
  void itTakesTheControlToolsAndLeavesExternalOnesToActivities() {
    assertTrue(tools.handles(ControlTools.THINK));
    assertTrue(tools.handles(ControlTools.ADD_TODO));
    assertTrue(tools.handles(ControlTools.FINALIZE_PLAN));
    assertTrue(tools.handles(ControlTools.AWAIT_ANY));
    assertFalse(tools.handles("calculator"));
  }

  @Test
  void finishTaskEndsTheTurnWithItsSummaryAndABadStatusIsAnObservation() {
    ToolOutcome refused = call(ControlTools.FINISH_TASK, "{\"status\": \"abandoned\"}");
    assertTrue(refused.error());
    assertEquals("error: status 'abandoned' is not one of: completed, blocked, failed", refused.output());
    assertNull(tools.turnEnd());
    assertNull(tools.finishStatus());

    ToolOutcome done = call(ControlTools.FINISH_TASK, "{\"status\": \" Blocked \", \"summary\": \"no access\"}");
    assertEquals("Task marked blocked.", done.output());
    assertEquals("blocked", tools.finishStatus());
    assertEquals("no access", tools.turnEnd());
    tools.startTurn();
    assertNull(tools.turnEnd(), "a new turn has not ended");
  }

  @Test
  void finalizePlanNeedsThePlanningPhaseAndATodoAndEndsTheTurn() {
    assertEquals("error: the plan was finalized already: work through it",
        call(ControlTools.FINALIZE_PLAN, "{}").output());
    tools.startPlanning();
    assertEquals("error: the plan is empty: add todo items before finalize_plan",
        call(ControlTools.FINALIZE_PLAN, "{}").output());
    assertTrue(call(ControlTools.ADD_TODO, "{\"description\": \"read the brief\"}").output().startsWith("Added "));

    ToolOutcome finalized = call(ControlTools.FINALIZE_PLAN, "{}");
    assertEquals("Plan finalized with 1 items. Moving to PHASE 2 - EXECUTION.", finalized.output());
    assertFalse(tools.planning());
    assertEquals(WorkflowSideTools.FINALIZED, tools.turnEnd());
    assertTrue(tools.takeJustFinalized());
    assertFalse(tools.takeJustFinalized(), "told once");
  }

  @Test
  void aThoughtGoesOnTheChain() {
    call(ControlTools.THINK, "{\"thought\": \"the cops are near\"}");
    assertEquals(1, thoughts.thoughts().size());
  }
}
