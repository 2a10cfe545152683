package io.durableagents.starter.inspect;

import io.durableagents.workflows.agent.AgentGroupStepInput;
import io.durableagents.workflows.agent.AgentStepInput;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every run of a simulation (one per continue-as-new), read from its recorded histories, with the agent
 * steps each step started: who took a step when, and in which workflow (its own agent step, {@code
 * <simulation id>/agent-<agent id>/step-<n>}, or a group step, {@code <simulation id>/step-<n>/group-<g>}).
 * {@code show} reads a simulation's steps from it, and says of an agent that took no step at a step when it
 * last and next did.
 */
final class SimulationHistories {
  /** Where an agent's step ran: its own workflow, or the group step holding it. */
  record StepOf(int step, String workflowId, boolean group) {}

  private final String simulationId;
  private final List<WorkflowExecutionHistory> runs;
  private final NavigableMap<Integer, Integer> agentStepsAt = new TreeMap<>();
  private final Map<Integer, Integer> failedAt = new HashMap<>();
  private final Map<String, NavigableMap<Integer, StepOf>> stepsOfAgent = new HashMap<>();

  private SimulationHistories(String simulationId, List<WorkflowExecutionHistory> runs, WorkflowClient client) {
    this.simulationId = simulationId;
    this.runs = runs;
    Pattern own = Pattern.compile(Pattern.quote(simulationId) + "/agent-(.+)/step-(\\d+)");
    Pattern group = Pattern.compile(Pattern.quote(simulationId) + "/step-(\\d+)/group-\\d+");
    Map<String, Integer> stepOfChild = new HashMap<>();
    for (WorkflowExecutionHistory run : runs) {
      for (HistoryEvent e : run.getEvents()) {
        if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
          var started = e.getStartChildWorkflowExecutionInitiatedEventAttributes();
          String id = started.getWorkflowId();
          Matcher m = own.matcher(id);
          Matcher g = group.matcher(id);
          if (m.matches()) {
            add(m.group(1), new StepOf(Integer.parseInt(m.group(2)), id, false));
            stepOfChild.put(id, Integer.parseInt(m.group(2)));
          } else if (g.matches()) {
            int step = Integer.parseInt(g.group(1));
            stepOfChild.put(id, step);
            for (AgentStepInput a : client.getOptions().getDataConverter().fromPayloads(0,
                Optional.of(started.getInput()), AgentGroupStepInput.class, AgentGroupStepInput.class).agents()) {
              add(a.agentId(), new StepOf(step, id, true));
            }
          }
        } else if (e.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED
            || e.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TIMED_OUT) {
          String id = e.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED
              ? e.getChildWorkflowExecutionFailedEventAttributes().getWorkflowExecution().getWorkflowId()
              : e.getChildWorkflowExecutionTimedOutEventAttributes().getWorkflowExecution().getWorkflowId();
          Integer step = stepOfChild.get(id);
          if (step != null) {
            failedAt.merge(step, 1, Integer::sum);
          }
        }
      }
    }
  }

  private void add(String agentId, StepOf step) {
    // a step retried after a failed child start is one step: the agent's map keeps one entry a step
    if (stepsOfAgent.computeIfAbsent(agentId, k -> new TreeMap<>()).put(step.step(), step) == null) {
      agentStepsAt.merge(step.step(), 1, Integer::sum);
    }
  }

  /** Reads every run of {@code simulationId}, from the latest back to its first. */
  static SimulationHistories read(WorkflowClient client, String simulationId) {
    List<WorkflowExecutionHistory> runs = new ArrayList<>();
    WorkflowExecutionHistory run = client.fetchHistory(simulationId);
    while (run != null) {
      runs.add(0, run);
      String previous = run.getEvents().get(0).getWorkflowExecutionStartedEventAttributes()
          .getContinuedExecutionRunId();
      run = previous.isEmpty() ? null : client.fetchHistory(simulationId, previous);
    }
    return new SimulationHistories(simulationId, runs, client);
  }

  String simulationId() {
    return simulationId;
  }

  /** The runs, first to latest. */
  List<WorkflowExecutionHistory> runs() {
    return runs;
  }

  /** How many agent steps each step started, by step, for the steps that started any. */
  NavigableMap<Integer, Integer> agentStepsAt() {
    return agentStepsAt;
  }

  /** How many agent steps (or group steps) of {@code step} failed. */
  int failedAt(int step) {
    return failedAt.getOrDefault(step, 0);
  }

  /** The latest step whose agent steps were started (0 when none was). */
  int latestStartedStep() {
    return agentStepsAt.isEmpty() ? 0 : agentStepsAt.lastKey();
  }

  /** Whether {@code agentId} took a step at any step recorded here. */
  boolean tookAnyStep(String agentId) {
    return stepsOfAgent.containsKey(agentId);
  }

  /** The agent's step at {@code step}, if it took one. */
  Optional<StepOf> stepOf(String agentId, int step) {
    return Optional.ofNullable(stepsOfAgent.getOrDefault(agentId, new TreeMap<>()).get(step));
  }

  /** The agent's last step before {@code step}, if any. */
  Optional<StepOf> lastStepBefore(String agentId, int step) {
    var before = stepsOfAgent.getOrDefault(agentId, new TreeMap<>()).lowerEntry(step);
    return before == null ? Optional.empty() : Optional.of(before.getValue());
  }

  /** The agent's next step after {@code step}, if any. */
  Optional<StepOf> nextStepAfter(String agentId, int step) {
    var after = stepsOfAgent.getOrDefault(agentId, new TreeMap<>()).higherEntry(step);
    return after == null ? Optional.empty() : Optional.of(after.getValue());
  }
}
