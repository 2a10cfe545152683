package io.durableagents.workflows.simulation;

import io.durableagents.workflows.agent.AgentStepFailures;
import io.durableagents.workflows.SearchAttributes;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentGroupInputParts;
import io.durableagents.workflows.agent.AgentGroupStepInput;
import io.durableagents.workflows.agent.AgentGroupStepWorkflow;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.AgentStepWorkflow;
import io.temporal.common.converter.RawValue;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.ChildWorkflowOptions;
import io.temporal.workflow.ChildWorkflowStub;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the agents' steps of one simulation step as child workflows and collects their results: a
 * child workflow per agent step ({@code <simulation>/agent-<id>/step-<n>}), or per group of {@code
 * agentsPerWorkflow} agents of one role ({@code <simulation>/step-<n>/group-<g>}, cut short where a
 * group's input would pass what one payload may carry), at most {@code maxConcurrentAgents} agents
 * running at once ({@link StepWindow}), started in waves that keep each workflow task within a {@link
 * TaskBudget}. It measures the inputs it starts ({@link #bytesOf}) and knows which children are
 * running ({@link #running()}). Workflow code.
 */
final class AgentStepDispatcher {
  /**
   * The change id of the agent (and group) steps' own task queue: a simulation on {@link
   * TaskQueues#SIMULATIONS} starts them on {@link TaskQueues#AGENTS} (from version 1 of this change); one
   * on another queue (every run recorded before) starts them on its own, a child's default.
   */
  static final String AGENT_STEPS_QUEUE_CHANGE_ID = "agent-steps-queue";

  /** The generic type of a group step's result, {@code List<AgentStepResult>}, for an untyped stub. */
  private static final java.lang.reflect.Type GROUP_RESULTS = groupResults();

  // The agent (or group) step workflows of the step in progress, for the runningAgentSteps query.
  private final Map<String, Promise<?>> runningChildren = new LinkedHashMap<>();
  /** The input bytes of the agent steps started in the running simulation step, by agent id. */
  private final Map<String, Long> startedInputBytes = new HashMap<>();
  /** The task queue of the agent (or group) steps: null for the simulation's own. */
  private String stepsQueue;

  /**
   * Runs the agents' steps of step {@code current}, at most {@code maxConcurrentAgents} at once: a
   * child workflow per agent step, or per group of {@code agentsPerWorkflow} agents of one role.
   * A failed step that the run can recover from comes back as a failed result ({@link
   * AgentStepFailures}).
   */
  Map<String, AgentStepResult> run(
      SimulationInput input, String simulationId, int current, Map<String, AgentStepInput> inputs) {
    int perWorkflow = Math.min(input.agentsPerWorkflow(), input.maxConcurrentAgents());
    startedInputBytes.clear();
    stepsQueue = TaskQueues.SIMULATIONS.equals(Workflow.getInfo().getTaskQueue())
        && Workflow.getVersion(AGENT_STEPS_QUEUE_CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1
        ? TaskQueues.AGENTS : null;
    return perWorkflow <= 1
        ? runEachAgentStep(input, simulationId, current, inputs)
        : runGroupSteps(input, simulationId, current, inputs, perWorkflow);
  }

  /**
   * The bytes the agent steps of the last {@link #run} carried: their inputs as measured when they
   * started, their {@code results} as JSON; null when nothing was measured (runs recorded before inputs
   * were measured).
   */
  AgentStepBytes bytesOf(Map<String, AgentStepResult> results) {
    if (startedInputBytes.isEmpty()) {
      return null;
    }
    long in = 0;
    long out = 0;
    for (Map.Entry<String, Long> e : startedInputBytes.entrySet()) {
      in += e.getValue();
      AgentStepResult r = results.get(e.getKey());
      out += r == null ? 0 : TaskBudget.sizeOf(r);
    }
    return new AgentStepBytes(startedInputBytes.size(), in, out);
  }

  /** The workflow ids of the agent (or group) steps of the step in progress that have not completed. */
  List<String> running() {
    List<String> ids = new ArrayList<>();
    runningChildren.forEach((id, p) -> {
      if (!p.isCompleted()) {
        ids.add(id);
      }
    });
    return ids;
  }

  /**
   * Counts the bytes a group step's input carries (what its agents share written once), spread over its
   * agents, in place of their inputs' own sizes.
   */
  private void countGroupInput(List<AgentStepInput> group, long bytes) {
    for (int i = 0; i < group.size(); i++) {
      startedInputBytes.put(group.get(i).agentId(), bytes / group.size() + (i < bytes % group.size() ? 1 : 0));
    }
  }

  /** A child workflow per agent step: {@code <simulation>/agent-<id>/step-<n>}. */
  private Map<String, AgentStepResult> runEachAgentStep(
      SimulationInput input, String simulationId, int current, Map<String, AgentStepInput> inputs) {
    runningChildren.clear();
    Map<String, Promise<AgentStepResult>> running = new LinkedHashMap<>();
    List<Promise<AgentStepResult>> window = new ArrayList<>();
    boolean budgeted = StepWindow.budgeted();
    int windowCap = StepWindow.cap(input.maxConcurrentAgents(), budgeted);
    TaskBudget budget = new TaskBudget();
    EventsInFlight events = budgeted && EventsInFlight.bounded() ? new EventsInFlight() : null;
    for (Map.Entry<String, AgentStepInput> e : inputs.entrySet()) {
      if (window.size() >= windowCap) {
        StepWindow.awaitAny(window, budget, budgeted);
        window.removeIf(Promise::isCompleted);
      }
      if (events != null && events.awaitRoom()) {
        budget.newTask();
        window.removeIf(Promise::isCompleted);
      }
      String agentId = e.getKey();
      long size = 0;
      RawValue payload = null;
      if (budgeted) {
        // written once: measured here, sent as it is
        payload = JsonPayload.of(e.getValue());
        size = checkedSize(JsonPayload.size(payload), "agent " + agentId + "'s step input");
        startedInputBytes.put(agentId, size);
        budget.beforeStart(size, window);
      }
      ChildWorkflowOptions options = childOptions(input,
          simulationId + "/agent-" + agentId + "/step-" + current,
          agentId + " (" + e.getValue().role() + "), step " + current,
          e.getValue().options(), current, events != null, stepsQueue);
      Promise<AgentStepResult> p;
      if (payload != null) {
        ChildWorkflowStub child = Workflow.newUntypedChildWorkflowStub(AgentStepWorkflow.TYPE, options);
        p = child.executeAsync(AgentStepResult.class, payload);
        budget.started(size, child.getExecution());
        if (events != null) {
          events.child(child.getExecution(), p);
        }
      } else {
        AgentStepWorkflow child = Workflow.newChildWorkflowStub(AgentStepWorkflow.class, options);
        p = Async.function(child::step, e.getValue());
        budget.started(size, null);
      }
      runningChildren.put(options.getWorkflowId(), p);
      running.put(agentId, p);
      window.add(p);
    }
    Map<String, AgentStepResult> results = new HashMap<>();
    for (Map.Entry<String, Promise<AgentStepResult>> e : running.entrySet()) {
      try {
        results.put(e.getKey(), e.getValue().get());
      } catch (ChildWorkflowFailure failed) {
        if (failed.getCause() instanceof CanceledFailure || !AgentStepFailures.recoverable()) {
          throw failed;
        }
        results.put(e.getKey(), AgentStepFailures.failed(inputs.get(e.getKey()), failed));
      }
    }
    return results;
  }

  /**
   * A child workflow per group of at most {@code perWorkflow} agents of one role: {@code
   * <simulation>/step-<n>/group-<g>}, at most {@code maxConcurrentAgents} agents running at once.
   */
  private Map<String, AgentStepResult> runGroupSteps(SimulationInput input,
      String simulationId, int current, Map<String, AgentStepInput> inputs, int perWorkflow) {
    runningChildren.clear();
    Map<String, List<AgentStepInput>> byRole = new LinkedHashMap<>();
    for (AgentStepInput in : inputs.values()) {
      byRole.computeIfAbsent(in.role(), r -> new ArrayList<>()).add(in);
    }
    boolean budgeted = StepWindow.budgeted();
    List<List<AgentStepInput>> groups = new ArrayList<>();
    List<Long> groupSizes = new ArrayList<>();
    // each group's input, written from its agents' parts (each agent written to JSON once), or null
    List<byte[]> groupJson = new ArrayList<>();
    for (List<AgentStepInput> ofRole : byRole.values()) {
      if (!budgeted) {
        for (int i = 0; i < ofRole.size(); i += perWorkflow) {
          groups.add(ofRole.subList(i, Math.min(ofRole.size(), i + perWorkflow)));
          groupSizes.add(0L);
          groupJson.add(null);
        }
        continue;
      }
      // groups of at most perWorkflow agents, and at most a payload's bytes of input
      AgentGroupInputParts parts = AgentGroupInputParts.of(ofRole);
      int from = 0;
      long bytes = 0;
      for (int i = 0; i < ofRole.size(); i++) {
        String what = "agent " + ofRole.get(i).agentId() + "'s step input";
        long size = parts != null ? checkedSize(parts.inputSize(i), what) : checkedSize(ofRole.get(i), what);
        startedInputBytes.put(ofRole.get(i).agentId(), size);
        if (i > from && (i - from >= perWorkflow || bytes + size > TaskBudget.MAX_PAYLOAD_BYTES)) {
          groups.add(ofRole.subList(from, i));
          groupSizes.add(bytes);
          groupJson.add(parts == null ? null : parts.group(from, i));
          from = i;
          bytes = 0;
        }
        bytes += size;
      }
      if (from < ofRole.size()) {
        groups.add(ofRole.subList(from, ofRole.size()));
        groupSizes.add(bytes);
        groupJson.add(parts == null ? null : parts.group(from, ofRole.size()));
      }
    }
    int windowCap = input.maxConcurrentAgents();
    TaskBudget budget = new TaskBudget();
    EventsInFlight events = budgeted && EventsInFlight.bounded() ? new EventsInFlight() : null;
    List<Promise<List<AgentStepResult>>> running = new ArrayList<>();
    List<Promise<List<AgentStepResult>>> window = new ArrayList<>();
    int inWindow = 0;
    for (int g = 0; g < groups.size(); g++) {
      List<AgentStepInput> group = groups.get(g);
      while (!window.isEmpty() && (inWindow + group.size() > windowCap
          || (budgeted && window.size() >= TaskBudget.MAX_PENDING))) {
        StepWindow.awaitAny(window, budget, budgeted);
        for (int i = 0; i < window.size(); i++) {
          if (window.get(i).isCompleted()) {
            inWindow -= window.get(i).get().size();
          }
        }
        window.removeIf(Promise::isCompleted);
      }
      if (events != null && events.awaitRoom()) {
        budget.newTask();
      }
      RawValue payload = null;
      if (budgeted) {
        budget.beforeStart(groupSizes.get(g), window);
        payload = groupJson.get(g) != null ? JsonPayload.ofJson(groupJson.get(g))
            : JsonPayload.of(new AgentGroupStepInput(group));
        groupJson.set(g, null);
        countGroupInput(group, JsonPayload.size(payload));
      }
      AgentStepInput first = group.get(0);
      String agents = group.size() == 1 ? first.agentId()
          : first.agentId() + " .. " + group.get(group.size() - 1).agentId();
      ChildWorkflowOptions options = childOptions(input,
          simulationId + "/step-" + current + "/group-" + (g + 1),
          agents + " (" + group.size() + " " + first.role() + "s), step " + current,
          first.options(), current, events != null, stepsQueue);
      Promise<List<AgentStepResult>> p;
      if (payload != null) {
        ChildWorkflowStub child = Workflow.newUntypedChildWorkflowStub(AgentGroupStepWorkflow.TYPE, options);
        p = child.executeAsync(listOfResults(), GROUP_RESULTS, payload);
        budget.started(groupSizes.get(g), child.getExecution());
        if (events != null) {
          events.child(child.getExecution(), p);
        }
      } else {
        AgentGroupStepWorkflow child = Workflow.newChildWorkflowStub(AgentGroupStepWorkflow.class, options);
        p = Async.function(child::steps, new AgentGroupStepInput(group));
        budget.started(groupSizes.get(g), null);
      }
      runningChildren.put(options.getWorkflowId(), p);
      running.add(p);
      window.add(p);
      inWindow += group.size();
    }
    Map<String, AgentStepResult> results = new HashMap<>();
    for (int g = 0; g < groups.size(); g++) {
      List<AgentStepResult> done = running.get(g).get();
      for (int i = 0; i < done.size(); i++) {
        results.put(groups.get(g).get(i).agentId(), done.get(i));
      }
    }
    return results;
  }

  private static java.lang.reflect.Type groupResults() {
    try {
      return AgentGroupStepWorkflow.class.getMethod("steps", AgentGroupStepInput.class).getGenericReturnType();
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Class<List<AgentStepResult>> listOfResults() {
    return (Class) List.class;
  }

  /**
   * The bytes of {@code value}, an input that crosses into history; an input no Temporal server would
   * accept ends the run with a failure that names it.
   */
  private static long checkedSize(Object value, String what) {
    return checkedSize(TaskBudget.sizeOf(value), what);
  }

  /** {@code size}, the bytes of an input; over what a server accepts, the run ends naming it. */
  static long checkedSize(long size, String what) {
    if (size > TaskBudget.MAX_PAYLOAD_BYTES) {
      throw ApplicationFailure.newNonRetryableFailure(
          what + " is " + size + " bytes, over the " + TaskBudget.MAX_PAYLOAD_BYTES
              + " bytes one input may carry (Temporal refuses payloads over 2 MB): make the"
              + " observation, memory or selected tools smaller",
          SimulationFailureTypes.INPUT_TOO_LARGE);
    }
    return size;
  }

  /**
   * The options of an agent (or group) step's workflow; {@code behindTheSimulation}: its tasks (and its
   * calls') have a lower priority than the simulation's own ({@link EventsInFlight#CHILD_PRIORITY});
   * {@code taskQueue}: where it runs, null for the simulation's own queue.
   */
  private static ChildWorkflowOptions childOptions(SimulationInput input, String workflowId, String summary,
      AgentOptions agentOptions, int current, boolean behindTheSimulation, String taskQueue) {
    ChildWorkflowOptions.Builder options =
        ChildWorkflowOptions.newBuilder().setWorkflowId(workflowId).setStaticSummary(summary);
    if (taskQueue != null) {
      options.setTaskQueue(taskQueue);
    }
    if (behindTheSimulation) {
      options.setPriority(EventsInFlight.CHILD_PRIORITY);
    }
    if (input.searchAttributes()) {
      options.setTypedSearchAttributes(io.temporal.common.SearchAttributes.newBuilder()
          .set(SearchAttributes.SCENARIO, input.scenario())
          .set(SearchAttributes.STRATEGY, SimulationWorkflowImpl.strategyName(agentOptions))
          .set(SearchAttributes.SIM_STEP, (long) current)
          .build());
    }
    return options.build();
  }
}
