package io.durableagents.workflows.agent.rewoo;

import io.durableagents.api.Json;
import io.durableagents.api.Observation;
import io.durableagents.workflows.agent.cot.CotPrompts;
import io.durableagents.workflows.memory.AgentMemory;
import io.durableagents.workflows.memory.MemoryPrompts;
import java.util.List;

/**
 * The prompts and purpose labels of the ReWOO strategy, after jeevesagent's default planner and
 * solver prompts.
 *
 * <p>The planner is asked for {@code {"plan": [...]}} because OpenAI's JSON mode only allows an
 * object; a bare array is accepted too (the offline rules model answers with one). A simulation
 * planner prompt carries the observation with CoT's line prefixes and a {@link #PLAN_LENGTH_PREFIX}
 * line, which the rules model reads, and never a line starting with {@code Action: }.
 */
public final class ReWooPrompts {
  /** The purpose labels of ReWOO's LLM calls (the strategy name first, for metrics). */
  public static final String PLAN_PURPOSE = "rewoo-plan";

  public static final String SOLVE_PURPOSE = "rewoo-solve";

  /**
   * The line of a planner prompt that bounds the plan, followed by the number and " steps". The
   * offline rules model reads it to know how many steps to plan.
   */
  public static final String PLAN_LENGTH_PREFIX = "Plan length: at most ";

  /**
   * The line of the solver's user message after which every step's result follows, one per line:
   * {@code - <call id> <tool>: <output>}, {@code - <call id> <tool>: failed: <error>} or {@code - <call
   * id> <tool>: skipped: <reason>}. The offline rules model can answer from these lines.
   */
  public static final String STEP_RESULTS_HEADER = "Step results:";

  private ReWooPrompts() {}

  private static final String FORMAT =
      "Answer with JSON only, no prose and no Markdown fences, in this form:\n"
          + "{\"plan\": [\n"
          + "  {\"id\": \"E1\", \"tool\": \"<tool name>\", \"args\": {<arguments that fit the tool's schema>}},\n"
          + "  {\"id\": \"E2\", \"tool\": \"<tool name>\", \"args\": {\"<name>\": \"{{E1}}\"}}\n"
          + "]}\n"
          + "Each step calls one tool. Ids are short and unique (E1, E2, ...). A step may use the output "
          + "of an EARLIER step: \"{{E1}}\" as a whole argument value passes E1's output (a number stays a "
          + "number), inside a longer string it is replaced by the output's text, and \"{{E1.field}}\" "
          + "reaches into an output that is a JSON object. Steps that do not depend on each other run in "
          + "parallel. Do not call the tools now: only write the plan.\n";

  /** The planner's system prompt for a single task. */
  public static String taskPlannerSystem(String roleDescription, List<String> tools, int maxSteps) {
    return roleDescription + "\n\n"
        + "You make a plan of tool calls that solves the user's task; a solver writes the answer from "
        + "their outputs afterwards. Use only these tools: " + names(tools) + ". "
        + "A plan has at least one step.\n"
        + PLAN_LENGTH_PREFIX + maxSteps + " steps\n\n"
        + FORMAT;
  }

  /**
   * The planner's system prompt in a simulation: the observation with CoT's line prefixes, and the
   * plan length ({@code min(ttl, maxPlanSteps)}): one planned step runs per simulation step.
   */
  public static String simulationPlannerSystem(
      String roleDescription, Observation observation, List<String> tools, int planLength) {
    return simulationPlannerSystem(roleDescription, observation, tools, planLength, null);
  }

  /** The planner's system prompt in a simulation, with the agent's memory after the observation. */
  public static String simulationPlannerSystem(String roleDescription, Observation observation,
      List<String> tools, int planLength, AgentMemory memory) {
    StringBuilder sb = new StringBuilder();
    sb.append(roleDescription).append("\n\n");
    sb.append("You plan your next actions. One planned step is carried out per simulation step, ")
        .append("in order, without you being asked again. Use only these tools: ")
        .append(names(tools)).append(".\n");
    sb.append(PLAN_LENGTH_PREFIX).append(planLength).append(" steps\n\n");
    sb.append(FORMAT).append('\n');
    sb.append(CotPrompts.STEP_PREFIX).append(observation.step()).append("):\n");
    sb.append(CotPrompts.SELF_STATE_PREFIX).append(Json.write(observation.selfState())).append('\n');
    sb.append(CotPrompts.LOCAL_STATE_PREFIX).append(Json.write(observation.localState())).append('\n');
    sb.append(MemoryPrompts.section(memory));
    return sb.toString();
  }

  /** Sends an invalid plan back to the planner, once. */
  public static String correction(List<String> errors) {
    return "The plan cannot run:\n- " + String.join("\n- ", errors)
        + "\nWrite the whole plan again, corrected, in the same JSON form.";
  }

  /**
   * Asks for a new plan after steps failed (or a planned action was invalidated), with what happened
   * so far. The new plan's steps get new ids in the history, so nothing is reused by mistake.
   */
  public static String replanRequest(String why, List<ReWooStepResult> results) {
    StringBuilder sb = new StringBuilder();
    sb.append("Your plan could not be carried out: ").append(why).append("\nResults so far:\n");
    if (results.isEmpty()) {
      sb.append("- none\n");
    }
    for (ReWooStepResult r : results) {
      sb.append("- ").append(describe(r)).append('\n');
    }
    sb.append("Make a new plan for what is left. Do not repeat steps that succeeded: write their "
        + "outputs as plain values where you need them. Placeholders may only name steps of the new plan.");
    return sb.toString();
  }

  /** The solver's system prompt. */
  public static String solverSystem() {
    return "You write the final answer from the results of a plan of tool calls. Use the task and the "
        + "step outputs; where a step failed or was skipped, say what could not be found out rather "
        + "than guessing. Be concise.";
  }

  /** The solver's user message: the task and every step's output, error or skip reason, in order. */
  public static String solverUser(String task, List<ReWooStepResult> results) {
    StringBuilder sb = new StringBuilder();
    sb.append("Task: ").append(task).append("\n\n").append(STEP_RESULTS_HEADER).append('\n');
    if (results.isEmpty()) {
      sb.append("- none (no tool was needed)\n");
    }
    for (ReWooStepResult r : results) {
      sb.append("- ").append(describe(r)).append('\n');
    }
    return sb.toString();
  }

  /** One step's result as a prompt line: {@code p1-E1 calculator: 391} or its error. */
  static String describe(ReWooStepResult r) {
    String head = r.stepId() + " " + r.tool();
    if (r.skipped()) {
      return head + ": " + r.error();
    }
    if (r.error() != null) {
      return head + ": failed: " + r.error();
    }
    return head + ": " + (r.output() == null ? "(no output seen)" : r.output());
  }

  private static String names(List<String> tools) {
    return tools.isEmpty() ? "none" : String.join(", ", tools);
  }
}
