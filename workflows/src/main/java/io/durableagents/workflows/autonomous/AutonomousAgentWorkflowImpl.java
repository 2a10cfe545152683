package io.durableagents.workflows.autonomous;

import io.durableagents.api.Observation;
import io.durableagents.api.ScenarioPrompts;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentRuntime;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.react.ReactReasoning;
import io.durableagents.workflows.approval.ApprovalBook;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.SpentBeforeFailure;
import io.durableagents.workflows.llm.TokenUsage;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.tools.ToolPolicies;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The autonomous agent: a reasoning pattern over turns of {@link ReactReasoning#converse}, with
 * think, todo and spawn handled as workflow state.
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
 *
 * <p>This class runs the pattern, its turns and guardrails, and the judge; {@link WorkflowSideTools}
 * handles think, todo, finish and spawn calls, {@link SubAgents} keeps the sub-agents, and {@link
 * JudgeAnswer} reads the judge's verdicts.
 */
public class AutonomousAgentWorkflowImpl implements AutonomousAgentWorkflow {
  /** The agent id in idempotency keys. */
  static final String AGENT_ID = "autonomous";

  /** After this many judge failures in a row, the judge is off for the rest of the run. */
  static final int JUDGE_FAILURE_LIMIT = 2;

  private final ToolPolicies toolPolicies;
  private AutonomousAgentInput input;
  private AgentSpec spec;
  private ThoughtChain thoughts;
  private TodoList todos;
  private SubAgents subAgents;
  private WorkflowSideTools workflowTools;
  private final List<JudgeVerdict> verdicts = new ArrayList<>();

  private TokenUsage ownUsage = TokenUsage.ZERO;
  // The turn in progress: its calls count against the budget (and a sub-agent's) before it ends.
  private AgentRuntime currentTurn;
  private int llmCalls;
  private int toolCalls;
  private int deniedToolCalls;
  private int iterations;
  private int turnNumber;
  private int reflectionRounds;
  private String lastAnswer = "";
  private Guardrail endedBy;
  private String endedReason;
  private Long tokenBudget;

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
    this.subAgents = new SubAgents(spec, in);
    ReasoningPattern pattern = spec.reasoning().pattern();
    if (spec.todo() == null
        && (pattern == ReasoningPattern.TODO_DRIVEN || pattern == ReasoningPattern.PLAN_EXECUTE)) {
      throw ApplicationFailure.newNonRetryableFailure("reasoning.pattern " + pattern.label()
          + " needs the todo tool in tools", AutonomousFailureTypes.INVALID_SPEC);
    }
    this.thoughts = spec.think() == null ? null
        : new ThoughtChain(spec.think().maxThoughts(), spec.think().critique());
    this.todos = spec.todo() == null ? null : new TodoList(spec.todo().maxItems());
    this.workflowTools = new WorkflowSideTools(thoughts, todos, subAgents, this::budgetLeft);
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
    subAgents.cancelUnfinished();
    return result();
  }

  @Override
  public List<TodoItem> todos() {
    return todos == null ? List.of() : todos.items();
  }

  @Override
  public List<SubAgentReport> subAgents() {
    return subAgents == null ? List.of() : subAgents.reports();
  }

  private void runPattern() {
    ReasoningPattern pattern = spec.reasoning().pattern();
    List<String> tools = tools();
    List<ChatTurn> messages = new ArrayList<>();
    messages.add(ChatTurn.system(AutonomousPrompts.system(spec, tools)));
    String first = input.prompt().strip();
    if (pattern == ReasoningPattern.PLAN_EXECUTE) {
      workflowTools.startPlanning();
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
    while (endedBy == null && workflowTools.finishStatus() == null) {
      String next;
      if (workflowTools.planning()) {
        next = AutonomousPrompts.CONTINUE_PLANNING;
      } else if (todos.allTerminal()) {
        return;
      } else {
        next = AutonomousPrompts.CONTINUE_TODOS;
      }
      if (workflowTools.takeJustFinalized()) {
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
    workflowTools.startTurn();
    int left = spec.guardrails().maxIterations() - iterations;
    AgentOptions options = AgentOptions.newBuilder().setStrategy(Strategy.REACT).setModel(spec.model())
        .setTemperature(spec.temperature()).setMaxIterations(Math.max(1, left))
        .setTokenBudget(budgetLeft() == null ? null : Math.max(1, budgetLeft()))
        .setApproval(spec.approval()).setMaxOutputTokens(spec.maxOutputTokens()).build();
    AgentRuntime runtime = runtime(options);
    currentTurn = runtime;
    ReactReasoning.Conversation conversation;
    try {
      conversation = new ReactReasoning(runtime, ScenarioPrompts.GENERIC).converse(messages, tools, workflowTools);
    } finally {
      currentTurn = null;
      account(runtime);
    }
    iterations += conversation.turns().size();
    if (conversation.answer() != null && !WorkflowSideTools.FINALIZED.equals(conversation.answer())) {
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
    return JudgeAnswer.parse(round, response.text(), criteria);
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

  private TokenUsage totalUsage() {
    return ownUsage.plus(currentTurn == null ? TokenUsage.ZERO : currentTurn.usage()).plus(subAgents.usage());
  }

  private AutonomousAgentResult result() {
    String status;
    if (endedBy != null) {
      status = "stopped";
    } else if (workflowTools.finishStatus() != null) {
      status = workflowTools.finishStatus();
    } else {
      status = "completed";
    }
    return new AutonomousAgentResult(lastAnswer, spec.reasoning().pattern().label(), status, endedBy,
        endedReason, iterations, todos(), thoughts == null ? List.of() : thoughts.thoughts(), verdicts,
        reflectionRounds, subAgents(), ownUsage, totalUsage(), llmCalls, toolCalls,
        deniedToolCalls);
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
