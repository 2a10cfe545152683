package io.durableagents.workflows.autonomous;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.workflows.Json;
import io.durableagents.workflows.TaskQueues;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentRuntime;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.Observation;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.agent.react.ReactReasoning;
import io.durableagents.workflows.approval.ApprovalBook;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.SpentBeforeFailure;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.scenario.ScenarioPrompts;
import io.durableagents.workflows.tools.ToolPolicies;
import io.temporal.api.enums.v1.ParentClosePolicy;
import io.temporal.failure.ActivityFailure;
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

/**
 * The autonomous agent: a reasoning pattern over turns of {@link ReactReasoning#converse}, with
 * think, todo and spawn handled here as workflow state.
 *
 * <p><b>Turns.</b> A turn is one ReAct loop that goes on the same conversation: it ends when the
 * agent answers (plain text or {@code finish}), calls {@code finish_task}, or calls {@code
 * finalize_plan} while planning. Between turns the pattern decides: {@code react} stops after the
 * first turn; {@code todo_driven} and {@code plan_execute} send a continuation prompt until every todo
 * item is terminal (auto-completion) or the agent called {@code finish_task}; {@code reflexion} sends
 * one critique round per dimension after the first turn, with the judge's verdict after each round.
 *
 * <p><b>Guardrails.</b> {@code max_iterations} counts the agent's LLM turns over the whole run: each
 * turn's loop gets what is left, and at the bound ReAct's forced finish asks once more, tools off,
 * for an answer. The token budget covers the run's own calls (the judge's too) and every finished
 * sub-agent's rolled-up total; a sub-agent gets what is left when it is spawned. The timeout is a
 * workflow timer raced against the run: when it fires first, the run's cancellation scope is
 * cancelled (the call in flight and the running sub-agents with it) and the result is what was done
 * so far. Each says in the result which guardrail ended the run ({@code endedBy}).
 *
 * <p><b>Sub-agents</b> are child workflows of this type, with ids {@code <parent id>/task-<n>}; their
 * depth rides in their input, so {@code max_depth} holds across nested spawns. Each runs in its own
 * cancellation scope (so {@code cancel_task} cancels only it) with its per-task timeout as its own
 * wall-clock guardrail (it ends cleanly and reports its tokens) and, as a backstop, a run timeout a
 * minute longer. A finished sub-agent's result is in this workflow's history: a worker that dies
 * loses none, and replay never starts it again.
 *
 * <p><b>External tools</b> ({@code tools:} of the spec: the built-in ones and those registered on the
 * worker) run as activities, each with its options from the worker's {@link ToolPolicies}.
 */
public class AutonomousAgentWorkflowImpl implements AutonomousAgentWorkflow {
  /** The agent id in idempotency keys. */
  static final String AGENT_ID = "autonomous";

  /** Extra run time a sub-agent's workflow gets beyond its own timeout, as a backstop. */
  static final Duration CHILD_TIMEOUT_GRACE = Duration.ofSeconds(60);

  /** After this many judge failures in a row, the judge is off for the rest of the run. */
  static final int JUDGE_FAILURE_LIMIT = 2;

  /** The answer of the turn that finalized the plan: not an answer to the task. */
  private static final String FINALIZED = "(plan finalized)";

  private final ToolPolicies toolPolicies;
  private AutonomousAgentInput input;
  private AgentSpec spec;
  private ThoughtChain thoughts;
  private TodoList todos;
  private final Map<String, SpawnedTask> tasks = new LinkedHashMap<>();
  // await_any prefers tasks whose result it has not given yet; order never matters here.
  private final Set<String> delivered = new LinkedHashSet<>();
  private final List<JudgeVerdict> verdicts = new ArrayList<>();

  private TokenUsage ownUsage = TokenUsage.ZERO;
  // Whether a failed sub-agent's failure is read for what it spent ({@link SpentBeforeFailure}).
  private boolean childFailuresCarryUsage;
  // The turn in progress: its calls count against the budget (and a sub-agent's) before it ends.
  private AgentRuntime currentTurn;
  private int llmCalls;
  private int toolCalls;
  private int deniedToolCalls;
  private int iterations;
  private int turnNumber;
  private int reflectionRounds;
  private boolean planning;
  private boolean justFinalized;
  private String turnEnd;
  private String finishStatus;
  private String lastAnswer = "";
  private Guardrail endedBy;
  private String endedReason;
  private Long tokenBudget;

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

  /** An autonomous agent that runs every tool with the default options. */
  public AutonomousAgentWorkflowImpl() {
    this(ToolPolicies.defaults());
  }

  /**
   * An autonomous agent that runs each tool with its options from {@code toolPolicies} (the worker's);
   * its sub-agents, child workflows of this type, get the worker's own through its factory.
   */
  public AutonomousAgentWorkflowImpl(ToolPolicies toolPolicies) {
    this.toolPolicies = toolPolicies;
  }

  @Override
  public AutonomousAgentResult run(AutonomousAgentInput in) {
    ApprovalBook.current(toolPolicies);
    if (in == null || in.spec() == null) {
      throw ApplicationFailure.newNonRetryableFailure("no agent spec", AutonomousFailureTypes.INVALID_SPEC);
    }
    if (in.prompt() == null || in.prompt().isBlank()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "the prompt is empty: say what the agent should do", AutonomousFailureTypes.INVALID_SPEC);
    }
    this.input = in;
    this.spec = in.spec();
    ReasoningPattern pattern = spec.reasoning().pattern();
    if (spec.todo() == null
        && (pattern == ReasoningPattern.TODO_DRIVEN || pattern == ReasoningPattern.PLAN_EXECUTE)) {
      throw ApplicationFailure.newNonRetryableFailure("reasoning.pattern " + pattern.label()
          + " needs the todo tool in tools", AutonomousFailureTypes.INVALID_SPEC);
    }
    this.thoughts = spec.think() == null ? null
        : new ThoughtChain(spec.think().maxThoughts(), spec.think().critique());
    this.todos = spec.todo() == null ? null : new TodoList(spec.todo().maxItems());
    this.tokenBudget = min(spec.guardrails().tokenBudget(), in.tokenBudget());
    Integer timeout = minInt(spec.guardrails().timeoutSeconds(), in.timeoutSeconds());

    List<Promise<Void>> work = new ArrayList<>();
    CancellationScope scope = Workflow.newCancellationScope(() -> work.add(Async.procedure(this::runPattern)));
    scope.run();
    try {
      if (timeout != null) {
        Promise<Void> timer = Workflow.newTimer(Duration.ofSeconds(timeout));
        Promise.anyOf(work.get(0), timer).get();
        if (!work.get(0).isCompleted()) {
          endedBy = Guardrail.TIMEOUT;
          endedReason = "timeout (" + timeout + " s) reached";
          scope.cancel();
        }
      }
      work.get(0).get();
    } catch (RuntimeException e) {
      if (endedBy != Guardrail.TIMEOUT) {
        // the calls it made were paid for: its parent (or the command line) reads them from the failure
        throw SpentBeforeFailure.carriedBy(e, new SpentBeforeFailure(llmCalls, totalUsage(), toolCalls));
      }
    }
    // The pool is cleaned up when the run ends: a sub-agent nobody awaited is cancelled.
    for (SpawnedTask t : tasks.values()) {
      if (!t.result.isCompleted()) {
        t.cancelled = true;
        t.scope.cancel();
      }
    }
    return result();
  }

  @Override
  public List<TodoItem> todos() {
    return todos == null ? List.of() : todos.items();
  }

  @Override
  public List<SubAgentReport> subAgents() {
    List<SubAgentReport> reports = new ArrayList<>();
    for (SpawnedTask t : tasks.values()) {
      reports.add(report(t));
    }
    return reports;
  }

  private void runPattern() {
    ReasoningPattern pattern = spec.reasoning().pattern();
    List<String> tools = tools();
    List<ChatTurn> messages = new ArrayList<>();
    messages.add(ChatTurn.system(AutonomousPrompts.system(spec, tools)));
    String first = input.prompt().strip();
    if (pattern == ReasoningPattern.PLAN_EXECUTE) {
      planning = true;
      first = AutonomousPrompts.PHASE_1 + "\n\n" + first;
    } else if (pattern == ReasoningPattern.TODO_DRIVEN
        || (spec.reasoning().autoPlan() && todos != null)) {
      first = AutonomousPrompts.PLAN_FIRST + "\n\n" + first;
    }
    messages.add(ChatTurn.user(first));
    messages = turn(messages, tools);
    if (pattern == ReasoningPattern.REACT) {
      return;
    }
    if (pattern == ReasoningPattern.REFLEXION) {
      reflect(messages, tools);
      return;
    }
    while (endedBy == null && finishStatus == null) {
      String next;
      if (planning) {
        next = AutonomousPrompts.CONTINUE_PLANNING;
      } else if (todos.allTerminal()) {
        return;
      } else {
        next = AutonomousPrompts.CONTINUE_TODOS;
      }
      if (justFinalized) {
        justFinalized = false;
        next = AutonomousPrompts.PHASE_2;
      }
      if (guardrailBeforeTurn()) {
        return;
      }
      messages.add(ChatTurn.user(next));
      messages = turn(messages, tools);
    }
  }

  /** Reflexion's rounds after the first turn, each judged when there are success criteria. */
  private void reflect(List<ChatTurn> messages, List<String> tools) {
    AgentSpec.Reasoning r = spec.reasoning();
    int rounds = r.reflectionRounds();
    boolean judging = !r.successCriteria().isEmpty();
    int judgeFailures = 0;
    JudgeVerdict previous = null;
    for (int round = 1; round <= rounds && endedBy == null; round++) {
      if (guardrailBeforeTurn()) {
        return;
      }
      AgentSpec.Dimension dimension = r.dimensions().get((round - 1) % r.dimensions().size());
      boolean verified = previous != null && previous.allPassed();
      messages.add(ChatTurn.user(AutonomousPrompts.reflection(round, rounds, dimension, verified,
          previous != null && !previous.allPassed() ? previous : null)));
      messages = turn(messages, tools);
      reflectionRounds = round;
      previous = null;
      if (judging && endedBy == null) {
        JudgeVerdict verdict = judge(round);
        if (verdict == null) {
          judgeFailures++;
          if (judgeFailures >= JUDGE_FAILURE_LIMIT) {
            judging = false;
          }
        } else {
          judgeFailures = 0;
          verdicts.add(verdict);
          previous = verdict;
        }
      }
    }
  }

  /** True (and the run's end recorded) when a guardrail forbids another turn. */
  private boolean guardrailBeforeTurn() {
    if (iterations >= spec.guardrails().maxIterations()) {
      endedBy = Guardrail.MAX_ITERATIONS;
      endedReason = "max iterations (" + spec.guardrails().maxIterations() + ") reached";
      return true;
    }
    Long left = budgetLeft();
    if (left != null && left <= 0) {
      endedBy = Guardrail.TOKEN_BUDGET;
      endedReason = "token budget (" + tokenBudget + " tokens) reached: " + totalUsage().total() + " used";
      return true;
    }
    return false;
  }

  /** One turn: a ReAct loop over the conversation, bounded by what is left of the guardrails. */
  private List<ChatTurn> turn(List<ChatTurn> messages, List<String> tools) {
    turnNumber++;
    turnEnd = null;
    int left = spec.guardrails().maxIterations() - iterations;
    AgentOptions options = AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel(spec.model())
        .setTemperature(spec.temperature()).setMaxIterations(Math.max(1, left))
        .setTokenBudget(budgetLeft() == null ? null : Math.max(1, budgetLeft()))
        .setApproval(spec.approval()).build();
    AgentRuntime runtime = runtime(options);
    currentTurn = runtime;
    ReactReasoning.Conversation conversation;
    try {
      conversation = new ReactReasoning(runtime, ScenarioPrompts.GENERIC).converse(messages, tools, new Handler());
    } finally {
      currentTurn = null;
      account(runtime);
    }
    iterations += conversation.turns().size();
    if (conversation.answer() != null && !FINALIZED.equals(conversation.answer())) {
      lastAnswer = conversation.answer();
    }
    String forced = conversation.forcedFinish();
    if (forced != null && forced.startsWith("token budget")) {
      endedBy = Guardrail.TOKEN_BUDGET;
      endedReason = forced;
    } else if (forced != null && forced.startsWith("max iterations")) {
      endedBy = Guardrail.MAX_ITERATIONS;
      endedReason = "max iterations (" + spec.guardrails().maxIterations() + ") reached";
    }
    return new ArrayList<>(conversation.messages());
  }

  private AgentRuntime runtime(AgentOptions options) {
    // The turn number is the step of the tool calls' idempotency keys: call ids repeat across turns.
    AgentStepInput context = new AgentStepInput(Workflow.getInfo().getWorkflowId(), null, AGENT_ID,
        null, new Observation(turnNumber, Map.of(), Map.of()), null, spec.tools(), List.of(), options);
    return new AgentRuntime(context, false, toolPolicies);
  }

  private void account(AgentRuntime runtime) {
    ownUsage = ownUsage.plus(runtime.usage());
    llmCalls += runtime.llmCalls();
    toolCalls += runtime.toolCalls();
    deniedToolCalls += runtime.deniedToolCalls();
  }

  /**
   * The judge: one LLM call at temperature 0 asking for JSON, one result per criterion. Null when the
   * call failed or its answer could not be read (a judge failure).
   */
  private JudgeVerdict judge(int round) {
    List<String> criteria = spec.reasoning().successCriteria();
    AgentRuntime runtime = runtime(AgentOptions.newBuilder().setStrategy(Strategy.REACT)
        .setModel(spec.model()).setTemperature(0.0).build());
    LlmResponse response;
    try {
      response = runtime.chat(List.of(ChatTurn.user(
              AutonomousPrompts.judge(input.prompt(), lastAnswer, criteria))),
          List.of(), ToolChoice.NONE, AutonomousPrompts.JUDGE_PURPOSE, LlmRequest.ResponseFormat.JSON);
    } catch (ActivityFailure failure) {
      if (CancellationScope.current().isCancelRequested()) {
        throw failure;
      }
      return null;
    } finally {
      account(runtime);
    }
    return parseVerdict(round, response.text(), criteria);
  }

  /** The verdict in a judge's answer, or null when it lacks a criterion or is not JSON. */
  static JudgeVerdict parseVerdict(int round, String text, List<String> criteria) {
    JsonNode root = Json.tryParse(text == null ? "" : stripFence(text));
    if (root == null) {
      return null;
    }
    JsonNode results = root.isArray() ? root : root.path("results");
    if (!results.isArray()) {
      return null;
    }
    List<JudgeVerdict.CriterionResult> out = new ArrayList<>();
    boolean all = true;
    for (String criterion : criteria) {
      JudgeVerdict.CriterionResult found = null;
      for (JsonNode r : results) {
        if (criterion.equalsIgnoreCase(r.path("criterion").asText()) && r.path("passed").isBoolean()) {
          found = new JudgeVerdict.CriterionResult(criterion, r.path("passed").asBoolean(),
              r.path("reason").asText(""));
          break;
        }
      }
      if (found == null) {
        return null;
      }
      all &= found.passed();
      out.add(found);
    }
    return new JudgeVerdict(round, all, out);
  }

  private static String stripFence(String text) {
    String t = text.strip();
    int start = t.indexOf('{');
    int arrayStart = t.indexOf('[');
    if (start < 0 || (arrayStart >= 0 && arrayStart < start)) {
      start = arrayStart;
    }
    int end = Math.max(t.lastIndexOf('}'), t.lastIndexOf(']'));
    return start >= 0 && end > start ? t.substring(start, end + 1) : t;
  }

  /** The tools the agent is offered: its external tools, then think, todo and spawn. */
  private List<String> tools() {
    List<String> tools = new ArrayList<>(spec.tools());
    if (spec.think() != null) {
      tools.add(ControlTools.THINK);
    }
    if (todos != null) {
      tools.addAll(ControlTools.TODO);
      if (spec.reasoning().pattern() == ReasoningPattern.PLAN_EXECUTE) {
        tools.add(ControlTools.FINALIZE_PLAN);
      }
    }
    if (spec.spawn() != null) {
      tools.addAll(ControlTools.SPAWN);
    }
    return tools;
  }

  private Long budgetLeft() {
    return tokenBudget == null ? null : tokenBudget - totalUsage().total();
  }

  private TokenUsage childUsage() {
    TokenUsage sum = TokenUsage.ZERO;
    for (SpawnedTask t : tasks.values()) {
      sum = sum.plus(report(t).totalUsage());
    }
    return sum;
  }

  private TokenUsage totalUsage() {
    return ownUsage.plus(currentTurn == null ? TokenUsage.ZERO : currentTurn.usage()).plus(childUsage());
  }

  private AutonomousAgentResult result() {
    String status;
    if (endedBy != null) {
      status = "stopped";
    } else if (finishStatus != null) {
      status = finishStatus;
    } else {
      status = "completed";
    }
    return new AutonomousAgentResult(lastAnswer, spec.reasoning().pattern().label(), status, endedBy,
        endedReason, iterations, todos(), thoughts == null ? List.of() : thoughts.thoughts(), verdicts,
        reflectionRounds, subAgents(), ownUsage, totalUsage(), llmCalls, toolCalls,
        deniedToolCalls);
  }

  // ---------------------------------------------------------------- the workflow-side tools

  /** Handles think, todo and spawn calls for the ReAct loop. */
  private final class Handler implements ReactReasoning.ControlToolHandler {
    @Override
    public boolean handles(String tool) {
      return ControlTools.THINK.equals(tool) || ControlTools.TODO.contains(tool)
          || ControlTools.SPAWN.contains(tool) || ControlTools.FINALIZE_PLAN.equals(tool);
    }

    @Override
    public String turnEnd() {
      return turnEnd;
    }

    @Override
    public ToolOutcome handle(ToolCall call) {
      JsonNode args = call.arguments() == null ? Json.object() : call.arguments();
      try {
        return new ToolOutcome(call.id(), call.name(), dispatch(call.name(), args), false);
      } catch (IllegalArgumentException refused) {
        return new ToolOutcome(call.id(), call.name(), "error: " + refused.getMessage(), true);
      }
    }
  }

  private String dispatch(String tool, JsonNode args) {
    switch (tool) {
      case ControlTools.THINK:
        return thoughts.add(text(args, "thought"));
      case ControlTools.ADD_TODO: {
        String id = todos.add(text(args, "description"), text(args, "priority"), strings(args, "depends_on"));
        return "Added " + id + ".\n" + todos.format();
      }
      case ControlTools.BATCH_ADD_TODOS: {
        List<TodoList.NewTodo> batch = new ArrayList<>();
        for (JsonNode item : args.path("items")) {
          batch.add(new TodoList.NewTodo(text(item, "description"), text(item, "priority"),
              strings(item, "depends_on")));
        }
        List<String> ids = todos.batchAdd(batch);
        return "Added " + String.join(", ", ids) + ".\n" + todos.format();
      }
      case ControlTools.UPDATE_TODO: {
        todos.update(text(args, "id"), text(args, "status"), text(args, "notes"), text(args, "priority"));
        String done = todos.allTerminal() ? "\nEvery item is done: the task completes on its own." : "";
        return todos.format() + done;
      }
      case ControlTools.REMOVE_TODO: {
        TodoItem removed = todos.remove(text(args, "id"));
        return "Removed " + removed.id() + ".\n" + todos.format();
      }
      case ControlTools.LIST_TODOS: {
        String filter = text(args, "status_filter");
        return todos.format(filter == null || filter.isBlank() ? null : TodoStatus.parse(filter));
      }
      case ControlTools.GET_NEXT_TODO:
        return todos.next().map(i -> "Next: " + TodoList.line(i))
            .orElse(todos.allTerminal() ? "No item left: every item is done."
                : "No item is ready: the pending items wait on unfinished ones.\n" + todos.format());
      case ControlTools.FINISH_TASK: {
        String status = text(args, "status");
        status = status == null || status.isBlank() ? "completed" : status.strip().toLowerCase();
        if (!List.of("completed", "blocked", "failed").contains(status)) {
          throw new IllegalArgumentException("status '" + status + "' is not one of: completed, blocked, failed");
        }
        finishStatus = status;
        String summary = text(args, "summary");
        turnEnd = summary == null ? "" : summary;
        return "Task marked " + status + ".";
      }
      case ControlTools.FINALIZE_PLAN: {
        if (!planning) {
          throw new IllegalArgumentException("the plan was finalized already: work through it");
        }
        if (todos.isEmpty()) {
          throw new IllegalArgumentException("the plan is empty: add todo items before finalize_plan");
        }
        planning = false;
        justFinalized = true;
        turnEnd = FINALIZED;
        return "Plan finalized with " + todos.items().size() + " items. Moving to PHASE 2 - EXECUTION.";
      }
      case ControlTools.SPAWN_AGENT:
        return spawn(text(args, "agent_name"), text(args, "prompt"));
      case ControlTools.POLL_TASKS:
        return table(selected(args, false));
      case ControlTools.AWAIT_TASKS: {
        List<SpawnedTask> awaited = selected(args, true);
        for (SpawnedTask t : awaited) {
          waitFor(t.result);
          delivered.add(t.id);
        }
        return results(awaited);
      }
      case ControlTools.AWAIT_ANY:
        return awaitAny(selected(args, false));
      case ControlTools.CANCEL_TASK: {
        SpawnedTask t = task(text(args, "task_id"));
        if (t.result.isCompleted()) {
          return t.id + " had already ended: " + report(t).status();
        }
        t.cancelled = true;
        t.scope.cancel();
        return t.id + " cancelled.";
      }
      default:
        throw new IllegalArgumentException("not a workflow-side tool: " + tool);
    }
  }

  /** Starts a sub-agent as a child workflow, within {@code max_concurrent} and {@code max_depth}. */
  private String spawn(String agentName, String prompt) {
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
    Long left = budgetLeft();
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

  private String awaitAny(List<SpawnedTask> among) {
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

  /** Blocks until {@code p} completes, whatever its outcome; a cancelled run still stops here. */
  private void waitFor(Promise<?> p) {
    try {
      p.get();
    } catch (RuntimeException e) {
      if (CancellationScope.current().isCancelRequested()) {
        throw e;
      }
    }
  }

  private List<SpawnedTask> selected(JsonNode args, boolean required) {
    List<String> ids = strings(args, "task_ids");
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

  private static String text(JsonNode args, String field) {
    JsonNode v = args.get(field);
    return v == null || v.isNull() ? null : v.isTextual() ? v.asText() : v.toString();
  }

  private static List<String> strings(JsonNode args, String field) {
    JsonNode v = args.get(field);
    List<String> out = new ArrayList<>();
    if (v == null || v.isNull()) {
      return out;
    }
    if (v.isArray()) {
      v.forEach(e -> out.add(e.asText()));
    } else if (!v.asText().isBlank()) {
      out.add(v.asText());
    }
    return out;
  }

  private static Long min(Long a, Long b) {
    // No conditional expression here: it would unbox a null.
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return Math.min(a, b);
  }

  private static Integer minInt(Integer a, Integer b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return Math.min(a, b);
  }
}
