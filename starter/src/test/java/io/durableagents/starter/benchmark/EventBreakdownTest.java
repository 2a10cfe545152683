package io.durableagents.starter.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.temporal.api.enums.v1.EventType;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class EventBreakdownTest {
  private static AgentStepShape shape(long agentSteps, Map<EventBreakdown.Key, Long> types) {
    long events = types.values().stream().mapToLong(Long::longValue).sum();
    return new AgentStepShape(agentSteps, 1, 1, events, 0, 0, 0, 0, 0, 0, AgentStepShape.TaskSize.NONE, 0, 0, 0,
        new TreeMap<>(types));
  }

  private static EventBreakdown.Key step(EventType type) {
    return new EventBreakdown.Key(AgentStepShape.STEP, type);
  }

  private static EventBreakdown.Key simulation(EventType type) {
    return new EventBreakdown.Key(AgentStepShape.SIMULATION, type);
  }

  @Test
  void namesEveryEventTypeEitherWroteWithTheDifferencePerAgentStep() {
    AgentStepShape ours = shape(10, Map.of(
        simulation(EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED), 12L,
        step(EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED), 30L,
        step(EventType.EVENT_TYPE_MARKER_RECORDED), 5L));
    AgentStepShape yardstick = shape(20, Map.of(
        simulation(EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED), 20L,
        step(EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED), 60L));

    List<String> table = EventBreakdown.table(ours, yardstick);

    assertEquals(List.of(
        "| workflow | event | ours per agent step | the yardstick's per agent step | ours - the yardstick's |",
        "| --- | --- | ---: | ---: | ---: |",
        "| the agent step | WorkflowTaskScheduled | 3.00 | 3.00 | 0 |",
        "| the agent step | MarkerRecorded | 0.50 | 0.00 | +0.50 |",
        "| the simulation | WorkflowTaskScheduled | 1.20 | 1.00 | +0.20 |",
        "| every workflow | all events | **4.70** | **4.00** | **+0.70** |"), table);
  }

  @Test
  void theAgentStepsRowsComeFirstInTheOrderOfTheEventTypesNumbers() {
    TreeMap<EventBreakdown.Key, Long> keys = new TreeMap<>(Map.of(
        simulation(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED), 1L,
        step(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED), 1L,
        step(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED), 1L));

    assertEquals(List.of("WorkflowExecutionStarted", "WorkflowExecutionCompleted", "WorkflowExecutionStarted"),
        keys.keySet().stream().map(EventBreakdown.Key::eventName).toList());
    assertEquals(AgentStepShape.SIMULATION, keys.lastKey().workflow());
  }
}
