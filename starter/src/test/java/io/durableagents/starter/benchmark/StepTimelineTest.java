package io.durableagents.starter.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.ActivityTaskCompletedEventAttributes;
import io.temporal.api.history.v1.ActivityTaskScheduledEventAttributes;
import io.temporal.api.history.v1.HistoryEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A step's wall split into its parts from its groups' histories: the boundary from the step before's last
 * group, each wave of calls in flight (an agent's first call, its second), the results between waves and
 * the groups' ends; calls placed in their agent's sequence by their input's {@code agent} field, or by the
 * workflow task that scheduled them when the input is not JSON.
 */
class StepTimelineTest {
  @Test
  void splitsTheStepAtTheLastCallOutAndTheFirstResultBackOfEachWave() {
    // group 1: agents a and b; group 2: agent c whose calls go out later and come back later
    List<HistoryEvent> g1 = new History(10_000)
        .task().call(10_100, "a").call(10_120, "b")
        .result(11_100, 0).result(11_200, 1)
        .task().call(11_300, "a").call(11_310, "b")
        .result(12_300, 2).result(12_350, 3).end(12_400);
    List<HistoryEvent> g2 = new History(10_050)
        .task().call(10_400, "c")
        .result(11_450, 0)
        .task().call(11_500, "c")
        .result(12_600, 1).end(12_700);
    List<HistoryEvent> before = new History(8_000).end(9_800);

    List<StepTimeline.Part> parts = StepTimeline.parts(List.of(g1, g2), List.of(before), null);

    assertEquals(List.of(
        "the step's boundary: the step before's last group ended -> the last group's first calls out 0.60",
        "calls 1 in flight, none back yet 0.70",
        "results of calls 1 back -> the last calls 2 out 0.40",
        "calls 2 in flight, none back yet 0.80",
        "results of calls 2 back -> the last group ended 0.40",
        "the whole step 2.90"),
        parts.stream().map(p -> p.name() + String.format(" %.2f", p.seconds())).toList());
    assertNull(parts.get(0).cores(), "no sampler, no cores");
  }

  @Test
  void callsWithoutAnAgentInTheirInputAreWavesByTheTaskThatScheduledThem() {
    List<HistoryEvent> g = new History(0)
        .task().raw(100).raw(110)
        .result(1_100, 0).result(1_150, 1)
        .task().raw(1_200).raw(1_210)
        .result(2_250, 2).result(2_300, 3).end(2_400);

    List<StepTimeline.Part> parts = StepTimeline.parts(List.of(g), List.of(), null);

    // a first step starts as its first group does
    assertEquals(List.of(0.11, 0.99, 0.11, 1.04, 0.15, 2.40),
        parts.stream().map(p -> Math.round(p.seconds() * 100) / 100.0).toList());
  }

  @Test
  void noGroupsNoParts() {
    assertEquals(List.of(), StepTimeline.parts(List.of(), List.of(), null));
  }

  /** A group's history, built event by event (ids from 1; results name their call by its index among the calls). */
  private static final class History {
    private final List<HistoryEvent> events = new ArrayList<>();
    private final List<Long> calls = new ArrayList<>();

    History(long startedAt) {
      add(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, startedAt);
    }

    History task() {
      return add(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, last());
    }

    History call(long at, String agent) {
      return schedule(at, ByteString.copyFrom("{\"model\":\"rules\",\"agent\":\"" + agent + "\"}",
          StandardCharsets.UTF_8));
    }

    History raw(long at) {
      return schedule(at, ByteString.copyFrom(new byte[] {1, 2, 3}));
    }

    History result(long at, int call) {
      events.add(HistoryEvent.newBuilder().setEventId(events.size() + 1).setEventTime(time(at))
          .setEventType(EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)
          .setActivityTaskCompletedEventAttributes(ActivityTaskCompletedEventAttributes.newBuilder()
              .setScheduledEventId(calls.get(call)))
          .build());
      return this;
    }

    List<HistoryEvent> end(long at) {
      add(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, at);
      return events;
    }

    private History schedule(long at, ByteString input) {
      events.add(HistoryEvent.newBuilder().setEventId(events.size() + 1).setEventTime(time(at))
          .setEventType(EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
          .setActivityTaskScheduledEventAttributes(ActivityTaskScheduledEventAttributes.newBuilder()
              .setInput(Payloads.newBuilder().addPayloads(Payload.newBuilder().setData(input))))
          .build());
      calls.add((long) events.size());
      return this;
    }

    private History add(EventType type, long at) {
      events.add(HistoryEvent.newBuilder().setEventId(events.size() + 1).setEventTime(time(at)).setEventType(type)
          .build());
      return this;
    }

    private long last() {
      HistoryEvent e = events.get(events.size() - 1);
      return e.getEventTime().getSeconds() * 1000 + e.getEventTime().getNanos() / 1_000_000;
    }

    private static Timestamp time(long millis) {
      return Timestamp.newBuilder().setSeconds(millis / 1000).setNanos((int) (millis % 1000) * 1_000_000).build();
    }
  }
}
