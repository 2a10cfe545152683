package io.durableagents.workflows.autonomous;

import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.llm.SpentBeforeFailure;
import io.durableagents.workflows.llm.TokenUsage;
import io.temporal.api.enums.v1.ParentClosePolicy;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.failure.TimeoutFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.ChildWorkflowCancellationType;
import io.temporal.workflow.ChildWorkflowOptions;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * An autonomous agent's sub-agents: the {@code spawn} tools' pool. Each sub-agent is a child workflow
 * of the agent's own type ({@code <parent id>/task-<n>}) in its own cancellation scope, started within
 * {@code max_concurrent}, {@code max_depth} and what is left of the token budget, then polled,
 * awaited and cancelled by task id. Where a task stands is read from its promise, whose result is in
 * history, so it replays. Workflow code.
 */
final class SubAgents {
  /** Extra run time a sub-agent's workflow gets beyond its own timeout, as a backstop. */
  static final Duration CHILD_TIMEOUT_GRACE = Duration.ofSeconds(60);

  private final AgentSpec spec;
  private final AutonomousAgentInput input;
  private final Map<String, SpawnedTask> tasks = new LinkedHashMap<>();
  // await_any prefers tasks whose result it has not given yet; order never matters here.
  private final Set<String> delivered = new LinkedHashSet<>();
  // Whether a failed sub-agent's failure is read for what it spent ({@link SpentBeforeFailure}).
  private boolean childFailuresCarryUsage;

  /** A sub-agent as its parent tracks it. */
  private static final class SpawnedTask {
    final String id;
    final String agent;
    final String prompt;
    Promise<AutonomousAgentResult> result;
    CancellationScope scope;
    boolean cancelled;

    SpawnedTask(String id, String agent, String prompt) {
      this.id = id;
      this.agent = agent;
      this.prompt = prompt;
    }
  }

  /** The sub-agents of the agent that runs {@code spec} on {@code input}. */
  SubAgents(AgentSpec spec, AutonomousAgentInput input) {
    this.spec = spec;
    this.input = input;
  }

  /**
   * Starts a sub-agent as a child workflow, within {@code max_concurrent} and {@code max_depth}, with
   * what {@code budgetLeft} says is left of the token budget (null: no budget).
   *
   * @throws IllegalArgumentException (an observation for the agent) when it may not start
   */
  String spawn(String agentName, String prompt, Supplier<Long> budgetLeft) {
    AgentSpec.Spawn config = spec.spawn();
    AgentSpec.SubAgent agent = null;
    for (AgentSpec.SubAgent a : config.agents()) {
      if (a.name().equals(agentName)) {
        agent = a;
      }
    }
    if (agent == null) {
      throw new IllegalArgumentException("no sub-agent '" + agentName + "'; agents: "
          + config.agents().stream().map(AgentSpec.SubAgent::name).toList());
    }
    if (prompt == null || prompt.isBlank()) {
      throw new IllegalArgumentException("the prompt is empty");
    }
    int maxDepth = input.maxDepth() > 0 ? input.maxDepth() : config.maxDepth();
    if (input.depth() + 1 > maxDepth) {
      throw new IllegalArgumentException("max_depth (" + maxDepth + ") reached: this agent is at depth "
          + input.depth() + " and may not spawn");
    }
    long running = tasks.values().stream().filter(t -> !t.result.isCompleted()).count();
    if (running >= config.maxConcurrent()) {
      throw new IllegalArgumentException("max_concurrent (" + config.maxConcurrent() + ") tasks are "
          + "running: await one (await_any) before spawning another");
    }
    Long left = budgetLeft.get();
    if (left != null && left <= 0) {
      throw new IllegalArgumentException("the token budget is spent: no sub-agent can start");
    }
    SpawnedTask task = new SpawnedTask("task-" + (tasks.size() + 1), agent.name(), prompt.strip());
    String childId = Workflow.getInfo().getWorkflowId() + "/" + task.id;
    int timeout = config.timeoutSeconds();
    AutonomousAgentInput childInput = new AutonomousAgentInput(agent.spec(), task.prompt,
        input.depth() + 1, maxDepth, left, timeout);
    ChildWorkflowOptions options = ChildWorkflowOptions.newBuilder()
        .setWorkflowId(childId)
        .setTaskQueue(TaskQueues.AGENTS)
        .setWorkflowRunTimeout(Duration.ofSeconds(timeout).plus(CHILD_TIMEOUT_GRACE))
        .setCancellationType(ChildWorkflowCancellationType.TRY_CANCEL)
        .setParentClosePolicy(ParentClosePolicy.PARENT_CLOSE_POLICY_REQUEST_CANCEL)
        .setStaticSummary("sub-agent " + agent.name() + " (depth " + (input.depth() + 1) + ")")
        .build();
    // a sub-agent that fails says what it spent; runs recorded before that read nothing from its failure
    childFailuresCarryUsage =
        Workflow.getVersion(SpentBeforeFailure.CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1;
    task.scope = Workflow.newCancellationScope(() -> {
      AutonomousAgentWorkflow child = Workflow.newChildWorkflowStub(AutonomousAgentWorkflow.class, options);
      task.result = Async.function(child::run, childInput);
      Workflow.getWorkflowExecution(child).get();
    });
    tasks.put(task.id, task);
    task.scope.run();
    return "Spawned " + task.id + " (" + agent.name() + "). Use await_tasks or await_any for its result.";
  }

  /** {@code poll_tasks}: a table of the tasks {@code ids} (none: every task) and their status. */
  String poll(List<String> ids) {
    return table(selected(ids, false));
  }

  /** {@code await_tasks}: waits for each of the tasks {@code ids}, then gives their results. */
  String await(List<String> ids) {
    List<SpawnedTask> awaited = selected(ids, true);
    for (SpawnedTask t : awaited) {
      waitFor(t.result);
      delivered.add(t.id);
    }
    return results(awaited);
  }

  /**
   * {@code await_any}: waits for one of the tasks {@code ids} (none: any task), preferring those whose
   * result it has not given yet, and gives its result.
   */
  String awaitAny(List<String> ids) {
    List<SpawnedTask> among = selected(ids, false);
    if (among.isEmpty()) {
      throw new IllegalArgumentException("no task to await");
    }
    List<SpawnedTask> fresh = among.stream().filter(t -> !delivered.contains(t.id)).toList();
    List<SpawnedTask> candidates = fresh.isEmpty() ? among : fresh;
    List<Promise<AutonomousAgentResult>> promises = candidates.stream().map(t -> t.result).toList();
    waitFor(Promise.anyOf(promises));
    for (SpawnedTask t : candidates) {
      if (t.result.isCompleted()) {
        delivered.add(t.id);
        return results(List.of(t));
      }
    }
    throw new IllegalStateException("await_any returned with no task done");
  }

  /** {@code cancel_task}: cancels task {@code id} unless it has ended. */
  String cancel(String id) {
    SpawnedTask t = task(id);
    if (t.result.isCompleted()) {
      return t.id + " had already ended: " + report(t).status();
    }
    t.cancelled = true;
    t.scope.cancel();
    return t.id + " cancelled.";
  }

  /** The pool is cleaned up when the run ends: a sub-agent nobody awaited is cancelled. */
  void cancelUnfinished() {
    for (SpawnedTask t : tasks.values()) {
      if (!t.result.isCompleted()) {
        t.cancelled = true;
        t.scope.cancel();
      }
    }
  }

  /** Where each sub-agent stands, in the order spawned. */
  List<SubAgentReport> reports() {
    List<SubAgentReport> reports = new ArrayList<>();
    for (SpawnedTask t : tasks.values()) {
      reports.add(report(t));
    }
    return reports;
  }

  /** The tokens the sub-agents used, each with its own sub-agents', as far as they have reported. */
  TokenUsage usage() {
    TokenUsage sum = TokenUsage.ZERO;
    for (SpawnedTask t : tasks.values()) {
      sum = sum.plus(report(t).totalUsage());
    }
    return sum;
  }

  /** Blocks until {@code p} completes, whatever its outcome; a cancelled run still stops here. */
  private static void waitFor(Promise<?> p) {
    try {
      p.get();
    } catch (RuntimeException e) {
      if (CancellationScope.current().isCancelRequested()) {
        throw e;
      }
    }
  }

  private List<SpawnedTask> selected(List<String> ids, boolean required) {
    if (ids.isEmpty()) {
      if (required) {
        throw new IllegalArgumentException("task_ids is empty; tasks: " + tasks.keySet());
      }
      return List.copyOf(tasks.values());
    }
    List<SpawnedTask> out = new ArrayList<>();
    for (String id : ids) {
      out.add(task(id));
    }
    return out;
  }

  private SpawnedTask task(String id) {
    SpawnedTask t = tasks.get(id == null ? "" : id.strip());
    if (t == null) {
      throw new IllegalArgumentException("no task '" + id + "'; tasks: " + tasks.keySet());
    }
    return t;
  }

  private String table(List<SpawnedTask> shown) {
    StringBuilder sb = new StringBuilder("Tasks (").append(shown.size()).append("):");
    if (shown.isEmpty()) {
      sb.append("\n(none)");
    }
    for (SpawnedTask t : shown) {
      SubAgentReport r = report(t);
      sb.append('\n').append(t.id).append(" | ").append(t.agent).append(" | ").append(r.status());
    }
    return sb.toString();
  }

  private String results(List<SpawnedTask> shown) {
    StringBuilder sb = new StringBuilder();
    for (SpawnedTask t : shown) {
      SubAgentReport r = report(t);
      sb.append(sb.length() == 0 ? "" : "\n").append(t.id).append(" (").append(t.agent).append(") ")
          .append(r.status()).append(": ").append(r.answer() == null ? "" : r.answer());
    }
    return sb.toString();
  }

  /** Where a task stands, read from its promise: results are in history, so this replays. */
  private SubAgentReport report(SpawnedTask t) {
    if (t.result == null || !t.result.isCompleted()) {
      return new SubAgentReport(t.id, t.agent, t.prompt, t.cancelled ? "cancelled" : "running", null,
          null, null, null);
    }
    RuntimeException failure = t.result.getFailure();
    if (failure == null) {
      AutonomousAgentResult r = t.result.get();
      String status = r.endedBy() == Guardrail.TIMEOUT ? "timeout" : "completed";
      return new SubAgentReport(t.id, t.agent, t.prompt, status, r.answer(), r.usage(), r.totalUsage(),
          r.subAgents());
    }
    String status = t.cancelled || hasCause(failure, CanceledFailure.class) ? "cancelled"
        : hasCause(failure, TimeoutFailure.class) ? "timeout" : "failed";
    // its calls were paid for, and count in this agent's total (and token budget) like any sub-agent's
    TokenUsage spent = childFailuresCarryUsage
        ? SpentBeforeFailure.of(failure).map(SpentBeforeFailure::usage).orElse(null) : null;
    return new SubAgentReport(t.id, t.agent, t.prompt, status, rootMessage(failure), spent, spent, null);
  }

  private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t instanceof ChildWorkflowFailure && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof ApplicationFailure) {
      return ((ApplicationFailure) t).getOriginalMessage();
    }
    return t.getMessage();
  }
}
