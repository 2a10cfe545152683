package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Timestamp;
import io.durableagents.workflows.llm.LlmActivities;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.converter.DataConverter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An engine run of {@link EngineCostBenchmark} read back from its histories: its LLM requests by
 * simulation step and agent (what the direct side sends again), and where the engine's time went, from
 * the server's event times (which the machine's load does not hide the way it hides wall times).
 */
final class EngineCostHistory {
  private static final Pattern AGENT_STEP = Pattern.compile("/agent-(.+)/step-(\\d+)$");

  /** Requests by simulation step, then agent, in the order each agent sent them. */
  final TreeMap<Integer, Map<String, List<LlmRequest>>> steps = new TreeMap<>();
  long inputTokens;
  long outputTokens;
  int agentSteps;
  int retries;
  int otherActivities;
  /** Per call: scheduled to started (waiting for a worker's poll). */
  final List<Long> queued = new ArrayList<>();
  /** Per call: started to completed, less the model's latency and the wait for a slot (the worker around the call). */
  final List<Long> around = new ArrayList<>();
  /** Per call: the wait for one of the model's slots in the worker ({@code LlmResponse.slotWaitMillis}). */
  final List<Long> slotWait = new ArrayList<>();
  /** Per call: the model's latency as the worker measured it. */
  final List<Long> model = new ArrayList<>();
  /** Per agent step: the child's start asked for (in the simulation's history) to its first call scheduled. */
  final List<Long> toFirstCall = new ArrayList<>();
  /** Per agent step and call after its first: the previous call completed to this one scheduled (a workflow task). */
  final List<Long> betweenCalls = new ArrayList<>();
  /** Per agent step: its last call completed to the simulation told the child completed. */
  final List<Long> afterLastCall = new ArrayList<>();
  /** Time with no agent step running: from the run's start to the first, between steps, after the last. */
  long barrierMillis;
  long runMillis;

  static EngineCostHistory read(WorkflowClient client, String simulationId) {
    DataConverter data = client.getOptions().getDataConverter();
    EngineCostHistory r = new EngineCostHistory();
    List<HistoryEvent> simulation = client.fetchHistory(simulationId).getEvents();
    assertTrue(simulation.get(0).getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId().isEmpty(),
        "the benchmark's run must not continue as new (fewer steps)");
    Map<Long, Integer> stepOfInitiated = new HashMap<>();
    Map<Long, Long> lastCallOfInitiated = new HashMap<>();
    TreeMap<Integer, long[]> stepSpan = new TreeMap<>(); // first start, last end (ms)
    for (HistoryEvent e : simulation) {
      if (e.hasStartChildWorkflowExecutionInitiatedEventAttributes()) {
        String child = e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId();
        Matcher m = AGENT_STEP.matcher(child);
        if (!m.find()) {
          continue; // not an agent step
        }
        int step = Integer.parseInt(m.group(2));
        stepOfInitiated.put(e.getEventId(), step);
        long initiated = millis(e.getEventTime());
        stepSpan.computeIfAbsent(step, k -> new long[] {Long.MAX_VALUE, 0})[0] =
            Math.min(stepSpan.get(step)[0], initiated);
        r.agentSteps++;
        lastCallOfInitiated.put(e.getEventId(), r.readAgentStep(client, data, child, step, m.group(1), initiated));
      } else if (e.hasChildWorkflowExecutionCompletedEventAttributes()) {
        long initiatedId = e.getChildWorkflowExecutionCompletedEventAttributes().getInitiatedEventId();
        Integer step = stepOfInitiated.get(initiatedId);
        if (step == null) {
          continue;
        }
        long done = millis(e.getEventTime());
        stepSpan.get(step)[1] = Math.max(stepSpan.get(step)[1], done);
        Long lastCall = lastCallOfInitiated.get(initiatedId);
        if (lastCall != null) {
          r.afterLastCall.add(done - lastCall);
        }
      }
    }
    long runStart = millis(simulation.get(0).getEventTime());
    long runEnd = millis(simulation.get(simulation.size() - 1).getEventTime());
    r.runMillis = runEnd - runStart;
    long previousEnd = runStart;
    for (long[] span : stepSpan.values()) {
      r.barrierMillis += Math.max(0, span[0] - previousEnd);
      previousEnd = span[1];
    }
    r.barrierMillis += Math.max(0, runEnd - previousEnd);
    return r;
  }

  /** Reads one agent step's calls; returns when its last call completed (ms), or null when it made none. */
  private Long readAgentStep(WorkflowClient client, DataConverter data, String workflowId, int step, String agent,
      long initiated) {
    List<LlmRequest> calls = steps.computeIfAbsent(step, k -> new TreeMap<>()).computeIfAbsent(agent, k -> new ArrayList<>());
    Map<Long, LlmRequest> scheduled = new LinkedHashMap<>();
    Map<Long, Long> scheduledAt = new HashMap<>();
    Map<Long, Long> startedAt = new HashMap<>();
    Long lastCompleted = null;
    for (HistoryEvent e : client.fetchHistory(workflowId).getEvents()) {
      if (e.hasActivityTaskScheduledEventAttributes()) {
        var a = e.getActivityTaskScheduledEventAttributes();
        if (a.getActivityType().getName().equals(LlmActivities.CHAT_ACTIVITY_TYPE)) {
          LlmRequest request = data.fromPayloads(0, Optional.of(a.getInput()), LlmRequest.class, LlmRequest.class);
          long at = millis(e.getEventTime());
          if (scheduled.isEmpty()) {
            toFirstCall.add(at - initiated);
          } else if (lastCompleted != null) {
            betweenCalls.add(at - lastCompleted);
          }
          scheduled.put(e.getEventId(), request);
          scheduledAt.put(e.getEventId(), at);
        } else {
          otherActivities++;
        }
      } else if (e.hasActivityTaskStartedEventAttributes()) {
        var a = e.getActivityTaskStartedEventAttributes();
        startedAt.put(a.getScheduledEventId(), millis(e.getEventTime()));
        if (a.getAttempt() > 1) {
          retries++;
        }
      } else if (e.hasActivityTaskCompletedEventAttributes()) {
        var a = e.getActivityTaskCompletedEventAttributes();
        LlmRequest request = scheduled.get(a.getScheduledEventId());
        if (request == null) {
          continue;
        }
        LlmResponse response = data.fromPayloads(0, Optional.of(a.getResult()), LlmResponse.class, LlmResponse.class);
        calls.add(request);
        inputTokens += response.usage().input();
        outputTokens += response.usage().output();
        long done = millis(e.getEventTime());
        long started = startedAt.get(a.getScheduledEventId());
        long waited = response.slotWaitMillis() == null ? 0 : response.slotWaitMillis();
        queued.add(started - scheduledAt.get(a.getScheduledEventId()));
        around.add(done - started - response.latencyMillis() - waited);
        slotWait.add(waited);
        model.add(response.latencyMillis());
        lastCompleted = done;
      }
    }
    return lastCompleted;
  }

  int llmCalls() {
    return steps.values().stream().flatMap(s -> s.values().stream()).mapToInt(List::size).sum();
  }

  /** One line: where the engine's time went in this run. */
  String timing() {
    return String.format("run %.1f s; per LLM call: model %s, slot wait %s, scheduled->started %s, the worker "
            + "around the call (started->completed less model and slot wait) %s; per agent step: start asked->first "
            + "call scheduled %s, between its calls (a workflow task) %s, last call->simulation told %s; no agent "
            + "step running %.2f s; other activities %d, retried attempts %d", runMillis / 1e3, stats(model),
        stats(slotWait), stats(queued), stats(around), stats(toFirstCall), stats(betweenCalls), stats(afterLastCall),
        barrierMillis / 1e3, otherActivities, retries);
  }

  /** {@code mean / median / max ms}. */
  static String stats(List<Long> values) {
    if (values.isEmpty()) {
      return "-";
    }
    List<Long> sorted = values.stream().sorted().toList();
    return String.format("%.0f/%d/%d ms", sorted.stream().mapToLong(Long::longValue).average().orElse(0),
        sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1));
  }

  double meanMillis(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).average().orElse(0);
  }

  private static long millis(Timestamp t) {
    return t.getSeconds() * 1000 + t.getNanos() / 1_000_000;
  }
}
