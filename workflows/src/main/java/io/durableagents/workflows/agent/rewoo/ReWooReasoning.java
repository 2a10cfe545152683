package io.durableagents.workflows.agent.rewoo;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Observation;
import io.durableagents.api.ScenarioPrompts;
import io.durableagents.api.WorldAction;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.agent.AgentRuntime;
import io.durableagents.workflows.agent.AgentStepInput;
import io.durableagents.workflows.agent.AgentStepResult;
import io.durableagents.workflows.agent.Plan;
import io.durableagents.workflows.agent.SelectedTools;
import io.durableagents.workflows.agent.Strategy;
import io.durableagents.workflows.agent.StrategyFailureTypes;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.llm.ChatTurn;
import io.durableagents.workflows.llm.LlmRequest;
import io.durableagents.workflows.llm.LlmResponse;
import io.durableagents.workflows.llm.ToolCall;
import io.durableagents.workflows.llm.ToolChoice;
import io.durableagents.workflows.agent.AgentTaskResult;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ReWOO (Reasoning WithOut Observation): a planner call writes the whole plan of tool calls up
 * front, a worker runs it, a solver call writes the answer, after jeevesagent's {@code ReWOO} and
 * Mesa-LLM's {@code ReWOOReasoning}, with what both lack.
 *
 * <p><b>A task</b> ({@link #task}):
 *
 * <ol>
 *   <li>Planner: one LLM call ({@link ReWooPrompts#PLAN_PURPOSE}) that sees the tools with tool choice
 *       {@code none} (their schemas reach the model natively) and answers in the provider's JSON mode
 *       with {@code {"plan": [{"id":"E1","tool":...,"args":{...}}, ...]}}. The plan is checked by
 *       {@link ReWooPlanValidator} before any tool runs; an invalid plan goes back to the planner once
 *       with the errors, and a second invalid plan ends the run with a non-retryable failure of type
 *       {@link StrategyFailureTypes#INVALID_PLAN} listing them.
 *   <li>Worker: the steps run by topological level, each level's tools as parallel activities, with
 *       {@link Placeholders} substituted typed. Results are merged in plan order, so the history is
 *       the same on every replay. A failed step keeps its error; steps that depend on it are skipped
 *       with the reason.
 *   <li>Re-plan: when a step failed, the planner is called again with the results so far, up to {@code
 *       replanOnFailure} times (jeevesagent never re-plans). Every plan's calls get ids of their own,
 *       {@code p1-E1}, {@code p2-E1}, as tool call ids and idempotency keys.
 *   <li>Solver: one LLM call ({@link ReWooPrompts#SOLVE_PURPOSE}, no tools) with the task and every
 *       step's output, error or skip reason.
 * </ol>
 *
 * A task whose N steps all succeed costs exactly 2 LLM calls and N tool calls.
 *
 * <p><b>A simulation step</b> ({@link #step}): the plan's TTL is honoured (Mesa-LLM stores it and
 * never reads it). A plan made at step s with TTL t runs one planned step per simulation step, at
 * steps s to s+t-1; only its first t steps ever run. A step served from a held plan makes no LLM call,
 * and each planned call runs exactly once: the plan, with the index of its next step and the results
 * so far, is returned to the simulation, which keeps it as workflow state. World actions are returned
 * for the simulation to apply (tool call id {@code <plan step>-<id>}, e.g. {@code 4-E2}); external
 * tools run as activities when their step comes. There is no solver call: the world is the solver.
 *
 * <p>Placeholders in a simulation plan resolve from the results kept in the plan. An external tool's
 * output is known when it ran. A world action's outcome is known one step later, from the {@code
 * last_action_results} of the next observation, and is then kept in the plan; a placeholder naming a
 * world action whose outcome was not seen makes its step skipped (never a guessed value).
 *
 * <p>Before a held plan's next step runs, it is checked: a step that depends on a failed one, whose
 * placeholders cannot be filled, or whose world action the scenario says can no longer succeed
 * ({@link ScenarioPrompts#plannedActionProblem}, e.g. a cell now taken) is not taken; instead the
 * agent re-plans from its current observation (1 LLM call, {@code replans = 1}, {@code planMade}). With
 * {@code replanOnFailure = 0} such a step is skipped and reported instead.
 *
 * <pre>{@code
 * AgentTaskResult result = new ReWooReasoning(runtime, ScenarioPrompts.GENERIC).task("What is 17 * 23 + 9?");
 * AgentStepResult step = new ReWooReasoning(runtime, new EpsteinScenario()).step();
 * }</pre>
 */
public final class ReWooReasoning {
  /** The change id of asking the solver once more after an empty or cut answer. */
  static final String SOLVER_CORRECTION_CHANGE = "rewoo-solver-correction";

  private final AgentRuntime runtime;
  private final ScenarioPrompts prompts;

  public ReWooReasoning(AgentRuntime runtime, ScenarioPrompts prompts) {
    this.runtime = runtime;
    this.prompts = prompts;
  }

  /** A valid plan and the planner text it came from. */
  private record MadePlan(String text, List<ReWooStep> steps) {}

  // ---------------------------------------------------------------- single task

  /** One task outside simulations: plan, run the plan level by level, re-plan on failure, solve. */
  public AgentTaskResult task(String task) {
    AgentStepInput in = runtime.input();
    AgentOptions options = in.options();
    List<String> tools = SelectedTools.resolve(in.tools(), options.selectedTools());
    String system = ReWooPrompts.taskPlannerSystem(
        prompts.roleDescription(in.role()), tools, options.maxPlanSteps());

    MadePlan plan = makePlan(List.of(ChatTurn.system(system), ChatTurn.user(task)), tools);
    List<ReWooStepResult> last = runPlan(plan, 1);
    List<ReWooStepResult> all = new ArrayList<>(last);
    int replans = 0;
    while (replans < options.replanOnFailure() && failures(last) != null) {
      replans++;
      List<ChatTurn> again = List.of(ChatTurn.system(system), ChatTurn.user(task),
          ChatTurn.assistant(plan.text(), List.of()),
          ChatTurn.user(ReWooPrompts.replanRequest(failures(last), all)));
      plan = makePlan(again, tools);
      last = runPlan(plan, replans + 1);
      all.addAll(last);
    }

    List<ChatTurn> solver = List.of(ChatTurn.system(ReWooPrompts.solverSystem()),
        ChatTurn.user(ReWooPrompts.solverUser(task, all)));
    LlmResponse solved = runtime.chat(solver, List.of(), ToolChoice.NONE, ReWooPrompts.SOLVE_PURPOSE);
    if ((solved.answeredNothing() || solved.wasCut())
        && Workflow.getVersion(SOLVER_CORRECTION_CHANGE, Workflow.DEFAULT_VERSION, 1) >= 1) {
      // An empty or cut answer is shown to the solver once; the second answer stands.
      List<ChatTurn> again = new ArrayList<>(solver);
      again.add(ChatTurn.assistant(solved.text() == null || solved.text().isBlank()
          ? "(no answer)" : solved.text(), List.of()));
      again.add(ChatTurn.user(solved.answeredNothing()
          ? "Your answer was empty. Answer the task from the evidence."
          : "Your answer was cut off at the output limit. Give a shorter, complete answer."));
      solved = runtime.chat(again, List.of(), ToolChoice.NONE, ReWooPrompts.SOLVE_PURPOSE);
    }
    String answer = solved.text() == null ? "" : solved.text();
    Plan lastPlan = new Plan(in.observation().step(), plan.text(), 1, plan.steps(),
        plan.steps().size(), last);
    return new AgentTaskResult(answer, Strategy.REWOO.label(), null, List.of(), lastPlan, all, replans,
        runtime.usage(), runtime.llmCalls(), runtime.toolCalls());
  }

  /**
   * Runs a plan level by level: a level's calls start together and are awaited together. Returns one
   * result per step, in plan order.
   */
  private List<ReWooStepResult> runPlan(MadePlan plan, int planNumber) {
    List<List<ReWooStep>> levels = ReWooPlanValidator.levels(plan.steps());
    // Lookups only: nothing iterates these maps, so their order cannot reach the history.
    Map<String, ReWooStepResult> byId = new HashMap<>();
    Map<String, String> outputs = new HashMap<>();
    String prefix = "p" + planNumber + "-";
    for (int level = 0; level < levels.size(); level++) {
      Map<ReWooStep, Promise<ToolOutcome>> running = new LinkedHashMap<>();
      for (ReWooStep step : levels.get(level)) {
        String callId = prefix + step.id();
        String skip = skipReason(step, byId);
        if (skip != null) {
          byId.put(step.id(), new ReWooStepResult(callId, step.tool(), null, skip, true));
          continue;
        }
        Placeholders.Resolved args = Placeholders.resolve(step.args(), outputs);
        if (args.error() != null) {
          byId.put(step.id(), new ReWooStepResult(callId, step.tool(), null, args.error(), false));
          continue;
        }
        String summary = runtime.toolSummary(step.tool()) + " (plan " + planNumber + " level "
            + (level + 1) + "/" + levels.size() + ", " + step.id() + ")";
        running.put(step, runtime.runTool(ToolCall.of(callId, step.tool(), args.arguments()), summary));
      }
      if (!running.isEmpty()) {
        Promise.allOf(new ArrayList<>(running.values())).get();
      }
      for (Map.Entry<ReWooStep, Promise<ToolOutcome>> e : running.entrySet()) {
        ReWooStep step = e.getKey();
        ToolOutcome outcome = e.getValue().get();
        ReWooStepResult result = outcome.error()
            ? new ReWooStepResult(prefix + step.id(), step.tool(), null, outcome.output(), false)
            : new ReWooStepResult(prefix + step.id(), step.tool(), outcome.output(), null, false);
        byId.put(step.id(), result);
        if (result.succeeded()) {
          outputs.put(step.id(), outcome.output());
        }
      }
    }
    List<ReWooStepResult> inPlanOrder = new ArrayList<>();
    for (ReWooStep step : plan.steps()) {
      inPlanOrder.add(byId.get(step.id()));
    }
    return inPlanOrder;
  }

  /** Why {@code step} cannot run because a step it depends on failed or was skipped, or null. */
  private static String skipReason(ReWooStep step, Map<String, ReWooStepResult> byId) {
    for (String ref : Placeholders.references(step.args())) {
      ReWooStepResult r = byId.get(ref);
      if (r != null && !r.succeeded()) {
        return r.skipped() ? r.error() : "skipped: " + ref + " failed: " + r.error();
      }
    }
    return null;
  }

  /** The failed steps of a plan run, as one line for the planner, or null when none failed. */
  private static String failures(List<ReWooStepResult> results) {
    List<String> failed = new ArrayList<>();
    for (ReWooStepResult r : results) {
      if (!r.succeeded() && !r.skipped()) {
        failed.add(r.stepId() + " (" + r.tool() + ") failed: " + r.error());
      }
    }
    return failed.isEmpty() ? null : String.join("; ", failed);
  }

  // ---------------------------------------------------------------- planner

  /**
   * One planner call, and one more with the errors when its plan is invalid.
   *
   * @throws ApplicationFailure non-retryable, of type {@link StrategyFailureTypes#INVALID_PLAN}, when
   *     the corrected plan is invalid too
   */
  private MadePlan makePlan(List<ChatTurn> messages, List<String> tools) {
    AgentStepInput in = runtime.input();
    LlmResponse first = plannerCall(messages, tools);
    ReWooPlanValidator.Result checked = checkPlan(first, tools);
    if (checked.valid()) {
      return new MadePlan(first.text(), checked.steps());
    }
    List<ChatTurn> retry = new ArrayList<>(messages);
    retry.add(ChatTurn.assistant(
        first.text() == null || first.text().isBlank() ? "(no plan)" : first.text(), List.of()));
    retry.add(ChatTurn.user(ReWooPrompts.correction(checked.errors())));
    LlmResponse second = plannerCall(retry, tools);
    ReWooPlanValidator.Result rechecked = checkPlan(second, tools);
    if (rechecked.valid()) {
      return new MadePlan(second.text(), rechecked.steps());
    }
    throw ApplicationFailure.newNonRetryableFailure(
        REJECTED + " (the second time after it was shown the errors)."
            + CORRECTED_PLAN_ERRORS + String.join("\n- ", rechecked.errors())
            + FIRST_PLAN_ERRORS + String.join("\n- ", checked.errors()),
        StrategyFailureTypes.INVALID_PLAN);
  }

  /** How the failure of a plan rejected twice begins. */
  static final String REJECTED = "the ReWOO planner made an invalid plan twice";
  /** Where that failure lists the errors of the corrected plan, one per line after "- ". */
  static final String CORRECTED_PLAN_ERRORS = "\nErrors of the corrected plan:\n- ";
  /** Where it lists the errors of the first plan. */
  static final String FIRST_PLAN_ERRORS = "\nErrors of the first plan:\n- ";

  /**
   * A failure's message (or {@code type: message}) on one line: its first line, and for a plan rejected
   * twice why the corrected plan was rejected: {@code ReWooInvalidPlan: the ReWOO planner made an invalid
   * plan twice: the plan has no steps}. The errors are on lines of their own in the failure, which a
   * one-line summary would leave out.
   */
  public static String rejectionSummary(String failure) {
    String text = failure.strip();
    int nl = text.indexOf('\n');
    String first = nl < 0 ? text : text.substring(0, nl).strip();
    String correctedHeader = header(CORRECTED_PLAN_ERRORS);
    int corrected = text.indexOf(correctedHeader);
    int rejected = first.indexOf(REJECTED);
    if (corrected < 0 || rejected < 0) {
      return first;
    }
    int from = corrected + correctedHeader.length();
    int to = text.indexOf(header(FIRST_PLAN_ERRORS), from);
    List<String> errors = new ArrayList<>();
    for (String line : text.substring(from, to < 0 ? text.length() : to).split("\n")) {
      String e = line.strip();
      if (e.startsWith("- ")) {
        errors.add(e.substring(2).strip());
      }
    }
    return first.substring(0, rejected + REJECTED.length()) + (errors.isEmpty() ? "" : ": " + String.join("; ", errors));
  }

  /** The heading of an errors list: {@code Errors of the corrected plan:}. */
  private static String header(String errorsList) {
    return errorsList.substring(1, errorsList.indexOf(':') + 1);
  }


  /** A planner's answer checked; a plan cut at an output limit is rejected as cut, whatever its text. */
  private ReWooPlanValidator.Result checkPlan(LlmResponse plan, List<String> tools) {
    AgentStepInput in = runtime.input();
    if (plan.wasCut()) {
      return ReWooPlanValidator.rejected("the plan was cut at the output limit before it ended:"
          + " write a shorter plan (fewer steps, shorter arguments)");
    }
    return ReWooPlanValidator.validate(plan.text(), plan.toolCalls(), in.tools(), tools,
        in.options().maxPlanSteps());
  }

  private LlmResponse plannerCall(List<ChatTurn> messages, List<String> tools) {
    return runtime.chat(messages, tools, ToolChoice.NONE, ReWooPrompts.PLAN_PURPOSE,
        LlmRequest.ResponseFormat.JSON);
  }

  // ---------------------------------------------------------------- simulation step

  /**
   * One agent step in a simulation: the next step of the held plan with no LLM call while the plan
   * lives, else a new plan (1 LLM call, 2 when it needed a correction) whose first step runs now.
   */
  public AgentStepResult step() {
    AgentStepInput in = runtime.input();
    Observation observation = in.observation();
    int now = observation.step();
    List<String> tools = SelectedTools.resolve(in.tools(), in.options().selectedTools());

    Plan held = in.plan();
    if (held != null && !held.steps().isEmpty() && held.remainingStepsAt(now) > 0) {
      held = withSeenWorldOutcome(held, observation);
      int index = held.nextStep();
      ReWooStep next = held.steps().get(index);
      Prepared prepared = prepare(held, next);
      String problem = prepared.problem();
      if (problem == null && runtime.isWorldAction(next.tool())) {
        problem = prompts.plannedActionProblem(observation, next.tool(), prepared.arguments());
      }
      String callId = callId(held, next);
      if (problem == null) {
        String reasoning = "Step " + (index + 1) + " of " + held.steps().size() + " of the plan made at step "
            + held.step() + ": " + next.id() + " " + next.tool() + "(" + prepared.arguments() + ")";
        return run(held, next, prepared.arguments(), reasoning, false, true, 0);
      }
      if (in.options().replanOnFailure() > 0) {
        String why = next.id() + " (" + next.tool() + ") can no longer run: " + problem;
        Plan replanned = newPlan(tools, ReWooPrompts.replanRequest(why, held.results()));
        return runFirst(replanned, 1);
      }
      // Re-plans are off: the doomed step is not taken, and the agent says why.
      String reason = problem.startsWith("skipped: ") ? problem : "skipped: " + problem;
      ReWooStepResult skipped = new ReWooStepResult(callId, next.tool(), null, reason, true);
      return result("Skipped " + next.id() + " of the plan made at step " + held.step() + ": " + problem,
          List.of(), List.of(new ToolOutcome(callId, next.tool(), reason, true)), held.advanced(skipped),
          false, true, 0);
    }
    return runFirst(newPlan(tools, null), 0);
  }

  /** A new plan, made at this step from the current observation; {@code replan} says why it is redone. */
  private Plan newPlan(List<String> tools, String replan) {
    AgentStepInput in = runtime.input();
    AgentOptions options = in.options();
    int planLength = Math.min(options.ttl(), options.maxPlanSteps());
    List<ChatTurn> messages = new ArrayList<>();
    messages.add(ChatTurn.system(ReWooPrompts.simulationPlannerSystem(
        CotPrompts.roleHeader(prompts, in), in.observation(), tools, planLength, in.memory())));
    messages.add(ChatTurn.user(prompts.stepPrompt(in.role())));
    if (replan != null) {
      messages.add(ChatTurn.user(replan));
    }
    MadePlan made = makePlan(messages, tools);
    return new Plan(in.observation().step(), made.text(), options.ttl(), made.steps(), 0);
  }

  /** Runs the first step of a plan made at this step (nothing when the plan is empty). */
  private AgentStepResult runFirst(Plan plan, int replans) {
    if (plan.steps().isEmpty()) {
      return result(plan.llmPlan(), List.of(), List.of(), plan, true, false, replans);
    }
    // A first step can reference no earlier step, so its arguments need no substitution.
    ReWooStep first = plan.steps().get(0);
    return run(plan, first, first.args(), plan.llmPlan(), true, false, replans);
  }

  /** Takes step {@code next} of {@code plan}: a world action to return, or an external tool to run. */
  private AgentStepResult run(Plan plan, ReWooStep next, JsonNode args,
      String reasoning, boolean planMade, boolean reused, int replans) {
    AgentStepInput in = runtime.input();
    String callId = callId(plan, next);
    if (runtime.isWorldAction(next.tool())) {
      // The outcome is not known yet: the simulation applies the action and reports it next step.
      ReWooStepResult pending = new ReWooStepResult(callId, next.tool(), null, null, false);
      return result(reasoning, List.of(new WorldAction(in.agentId(), callId, next.tool(), args)),
          List.of(), plan.advanced(pending), planMade, reused, replans);
    }
    String summary = runtime.toolSummary(next.tool()) + " (plan of step " + plan.step() + ", "
        + next.id() + ")";
    ToolOutcome outcome = runtime.runTool(ToolCall.of(callId, next.tool(), args), summary).get();
    ReWooStepResult done = outcome.error()
        ? new ReWooStepResult(callId, next.tool(), null, outcome.output(), false)
        : new ReWooStepResult(callId, next.tool(), outcome.output(), null, false);
    return result(reasoning, List.of(), List.of(outcome), plan.advanced(done), planMade, reused, replans);
  }

  private AgentStepResult result(String reasoning, List<WorldAction> actions, List<ToolOutcome> outcomes,
      Plan plan, boolean planMade, boolean reused, int replans) {
    AgentStepInput in = runtime.input();
    return new AgentStepResult(in.agentId(), in.observation().step(), reasoning, actions, outcomes, plan,
        runtime.usage(), runtime.llmCalls(), runtime.toolCalls(), null, planMade, reused, replans);
  }

  /** A call id unique across re-plans: the simulation step the plan was made at, and the step id. */
  private static String callId(Plan plan, ReWooStep step) {
    return plan.step() + "-" + step.id();
  }

  /**
   * The next step's arguments with its placeholders filled from the plan's results, or why it cannot
   * run.
   */
  private record Prepared(JsonNode arguments, String problem) {}

  private static Prepared prepare(Plan plan, ReWooStep next) {
    Map<String, String> outputs = new HashMap<>();
    for (String ref : Placeholders.references(next.args())) {
      int index = indexOf(plan, ref);
      ReWooStepResult r = index >= 0 && index < plan.results().size() ? plan.results().get(index) : null;
      if (r == null) {
        return new Prepared(null, "skipped: " + ref + " has not run");
      }
      if (r.skipped()) {
        return new Prepared(null, r.error());
      }
      if (r.error() != null) {
        return new Prepared(null, "skipped: " + ref + " failed: " + r.error());
      }
      if (r.output() == null) {
        return new Prepared(null, "skipped: the outcome of " + ref + " (" + r.tool()
            + ") was not seen in an observation");
      }
      outputs.put(ref, r.output());
    }
    Placeholders.Resolved resolved = Placeholders.resolve(next.args(), outputs);
    return new Prepared(resolved.arguments(), resolved.error());
  }

  private static int indexOf(Plan plan, String id) {
    for (int i = 0; i < plan.steps().size(); i++) {
      if (plan.steps().get(i).id().equals(id)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The plan with the outcome of the world action its previous step chose, read from this step's
   * observation ({@code last_action_results}: {@code "move_one_step: ..."}), when it is there.
   */
  private static Plan withSeenWorldOutcome(Plan plan, Observation observation) {
    int previous = plan.nextStep() - 1;
    if (previous < 0 || previous >= plan.results().size()) {
      return plan;
    }
    ReWooStepResult r = plan.results().get(previous);
    if (!r.succeeded() || r.output() != null) {
      return plan;
    }
    Object seen = observation.selfState().get(AgentStepInput.LAST_ACTION_RESULTS);
    if (seen instanceof List) {
      for (Object line : (List<?>) seen) {
        if (line instanceof String && ((String) line).startsWith(r.tool() + ":")) {
          return plan.withResult(previous,
              new ReWooStepResult(r.stepId(), r.tool(), (String) line, null, false));
        }
      }
    }
    return plan;
  }
}
