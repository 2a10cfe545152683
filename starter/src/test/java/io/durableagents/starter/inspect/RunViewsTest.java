package io.durableagents.starter.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.Timestamp;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.failure.v1.Failure;
import io.temporal.api.history.v1.ActivityTaskStartedEventAttributes;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How list groups the runs of a continued simulation, and how show tells a retried call. */
class RunViewsTest {
  private static WorkflowExecutionInfo run(String id, long start, WorkflowExecutionStatus status) {
    return WorkflowExecutionInfo.newBuilder()
        .setExecution(WorkflowExecution.newBuilder().setWorkflowId(id).setRunId(id + "-" + start))
        .setStartTime(Timestamp.newBuilder().setSeconds(start))
        .setCloseTime(Timestamp.newBuilder().setSeconds(start + 5))
        .setStatus(status).build();
  }

  @Test
  void aSimulationThatContinuedAsNewIsOneRowWithItsFirstStartAndItsLatestStatus() {
    var can = WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW;
    List<ListCommand.Simulation> sims = ListCommand.bySimulation(List.of(
        run("a", 30, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED), run("a", 20, can),
        run("a", 10, can), run("b", 25, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING),
        // an earlier, separate simulation under the same id: not part of the chain
        run("a", 1, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED)));
    assertEquals(2, sims.size());
    assertEquals("a", sims.get(0).latest().getExecution().getWorkflowId());
    assertEquals(3, sims.get(0).runs());
    assertEquals(10, sims.get(0).first().getStartTime().getSeconds());
    assertEquals(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED, sims.get(0).latest().getStatus());
    assertEquals(1, sims.get(1).runs());
  }

  private static HistoryEvent at(long millis, EventType type) {
    return HistoryEvent.newBuilder().setEventType(type)
        .setEventTime(Timestamp.newBuilder().setSeconds(millis / 1000).setNanos((int) (millis % 1000) * 1_000_000))
        .build();
  }

  @Test
  void aRetriedCallShowsItsAttemptThePreviousFailureAndItsWait() {
    HistoryEvent scheduled = at(1_000, EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
    HistoryEvent started = at(12_000, EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED).toBuilder()
        .setActivityTaskStartedEventAttributes(ActivityTaskStartedEventAttributes.newBuilder().setAttempt(2)
            .setLastFailure(Failure.newBuilder().setMessage("activity Heartbeat timeout\nmore"))).build();
    HistoryEvent completed = at(12_300, EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED);
    assertEquals(" · attempt 2 (the one before: activity Heartbeat timeout) · completed 11.3 s after it was scheduled",
        ShowCommand.retries(scheduled, started, completed));
    HistoryEvent firstTry = at(1_010, EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED).toBuilder()
        .setActivityTaskStartedEventAttributes(ActivityTaskStartedEventAttributes.newBuilder().setAttempt(1)).build();
    assertEquals("", ShowCommand.retries(scheduled, firstTry, at(1_400, EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)));
    assertEquals(" · completed 3.0 s after it was scheduled",
        ShowCommand.retries(scheduled, at(3_900, EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED).toBuilder()
            .setActivityTaskStartedEventAttributes(ActivityTaskStartedEventAttributes.newBuilder().setAttempt(1)).build(),
            at(4_000, EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)));
  }
}
