package io.durableagents.starter.view.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The agent-step ids of an experiment's run, whose own id holds a slash ({@code exp-x/run-003}). */
class AgentStepIdsTest {
  @Test
  void anExperimentRunsAgentStepsAreItsOwn() {
    String run = "exp-epstein-1a2b3c4d/run-003";
    assertEquals(7, AgentStepIds.stepOf(run, AgentStepIds.agentStep(run, "citizen-3", 7)));
    assertEquals(7, AgentStepIds.stepOf(run, run + "/step-7/group-2"));
    assertTrue(AgentStepIds.isGroupStep(run, run + "/step-7/group-2", 7));
    // another run's, or a retry's, are not
    assertNull(AgentStepIds.stepOf(run, "exp-epstein-1a2b3c4d/run-004/agent-citizen-3/step-7"));
    assertNull(AgentStepIds.stepOf(run, run + "-retry-1/agent-citizen-3/step-7"));
  }
}
