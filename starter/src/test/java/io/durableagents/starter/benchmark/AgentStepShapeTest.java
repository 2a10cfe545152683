package io.durableagents.starter.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The benchmark's largest workflow task, checked on recorded histories against a second reading: the
 * events grouped by the {@code workflow_task_completed_event_id} their attributes name.
 */
class AgentStepShapeTest {

  @ParameterizedTest
  @ValueSource(strings = {"simulation-epstein-cot.json", "simulation-epstein-groups.json",
      "simulation-intervened.json", "agent-step-rewoo-reused.json", "agent-task-react.json"})
  void largestTaskIsTheCompletionWithTheMostBytesOfCommands(String file) throws IOException {
    List<HistoryEvent> events = WorkflowExecutionHistory.fromJson(
        Files.readString(Path.of("..", "scenarios", "src", "test", "resources", "histories", file))).getEvents();
    Map<Long, long[]> byTask = new HashMap<>(); // completed event id -> {commands, bytes}
    for (HistoryEvent e : events) {
      long task = completedEventId(e);
      if (task > 0) {
        long[] size = byTask.computeIfAbsent(task, t -> new long[2]);
        size[0]++;
        size[1] += e.getSerializedSize();
      }
    }
    long[] expected = byTask.values().stream().max((x, y) -> x[1] != y[1] ? Long.compare(x[1], y[1])
        : Long.compare(x[0], y[0])).orElseThrow();

    AgentStepShape.TaskSize largest = AgentStepShape.largestTask(events);

    assertTrue(largest.commands() > 0, file);
    assertEquals(expected[0], largest.commands(), file + ": commands");
    assertEquals(expected[1], largest.bytes(), file + ": bytes");
  }

  @ParameterizedTest
  @ValueSource(strings = {"simulation-epstein-cot.json"})
  void aSimulationsLargestTaskIsTheOneThatStartsAStepsAgents(String file) throws IOException {
    List<HistoryEvent> events = WorkflowExecutionHistory.fromJson(
        Files.readString(Path.of("..", "scenarios", "src", "test", "resources", "histories", file))).getEvents();
    long mostStarts = 0;
    long starts = 0;
    for (HistoryEvent e : events) {
      if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
        starts = 0;
      } else if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
        mostStarts = Math.max(mostStarts, ++starts);
      }
    }
    assertTrue(mostStarts > 1);
    assertTrue(AgentStepShape.largestTask(events).commands() >= mostStarts);
  }

  /** The workflow task completion an event's attributes name, or 0. */
  private static long completedEventId(HistoryEvent e) {
    for (Map.Entry<FieldDescriptor, Object> f : e.getAllFields().entrySet()) {
      if (f.getValue() instanceof Message attributes) {
        for (Map.Entry<FieldDescriptor, Object> a : attributes.getAllFields().entrySet()) {
          if (a.getKey().getName().equals("workflow_task_completed_event_id")) {
            return (Long) a.getValue();
          }
        }
      }
    }
    return 0;
  }
}
