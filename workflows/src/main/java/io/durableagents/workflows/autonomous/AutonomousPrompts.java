package io.durableagents.workflows.autonomous;

import io.durableagents.workflows.agent.ActionFormat;
import io.durableagents.workflows.agent.react.ReactPrompts;
import java.util.List;

/**
 * The prompts of the autonomous strategies, after InitRunner's. The offline {@code rules} model reads
 * the phase markers ({@link #PLAN_FIRST}, {@link #PHASE_1}, {@link #PHASE_2}, {@link #CONTINUE_TODOS},
 * {@link #REFLECTION_PREFIX}, {@link #JUDGE_MARKER}), so they are constants.
 */
public final class AutonomousPrompts {
  /** The purpose label of the judge's call. */
  public static final String JUDGE_PURPOSE = "reflexion-judge";

  public static final String PLAN_FIRST = "Before starting, create a structured todo list with "
      + "batch_add_todos (priorities and dependencies), then work through it item by item.";
  public static final String PHASE_1 = "PHASE 1 - PLANNING: Analyze this task and create a "
      + "comprehensive todo list. Focus only on planning. Do not execute yet. Call finalize_plan when "
      + "the plan is complete.";
  public static final String CONTINUE_PLANNING = "You are still in PHASE 1 - PLANNING. Complete your "
      + "todo list, then call finalize_plan.";
  public static final String PHASE_2 = "PHASE 2 - EXECUTION: Work through your plan. Call "
      + "get_next_todo, do the item, then update_todo with its status and notes.";
  public static final String CONTINUE_TODOS = "Check your todo list. Call get_next_todo, work on the "
      + "item, then mark it with update_todo. Call finish_task when you are done or blocked.";
  public static final String REFLECTION_PREFIX = "REFLECTION (";
  public static final String JUDGE_MARKER = "You are a strict judge.";

  private AutonomousPrompts() {}

  /** The system prompt: the role, the ReAct loop, the tools and the sub-agents. */
  public static String system(AgentSpec spec, List<String> tools) {
    StringBuilder sb = new StringBuilder(ReactPrompts.taskSystem(
        spec.role() == null || spec.role().isBlank() ? "You are a helpful autonomous agent." : spec.role().strip(),
        tools, ActionFormat.FUNCTION_CALLING));
    if (spec.think() != null) {
      sb.append("Use think to reason step by step; it shows your whole chain of thoughts.\n");
    }
    if (spec.todo() != null) {
      sb.append("Track your work with the todo tools (add_todo, batch_add_todos, update_todo, ")
          .append("remove_todo, list_todos, get_next_todo); finish_task ends the run.\n");
    }
    if (spec.spawn() != null && !spec.spawn().agents().isEmpty()) {
      sb.append("Sub-agents you can spawn_agent (they run in parallel; poll_tasks, await_tasks, ")
          .append("await_any, cancel_task):\n");
      for (AgentSpec.SubAgent a : spec.spawn().agents()) {
        sb.append("- ").append(a.name()).append(a.description() == null ? "" : ": " + a.description())
            .append('\n');
      }
    }
    return sb.toString();
  }

  /** A reflection round's prompt, with the judge's feedback on the previous answer when it failed. */
  public static String reflection(int round, int rounds, AgentSpec.Dimension dimension, boolean verified,
      JudgeVerdict failed) {
    StringBuilder sb = new StringBuilder(REFLECTION_PREFIX).append(round).append('/').append(rounds)
        .append(") -- ").append(dimension.name().toUpperCase(java.util.Locale.ROOT))
        .append(verified ? " [VERIFIED]" : "").append(": ").append(dimension.prompt())
        .append("\nRevise your answer if needed, then give the full revised answer.");
    if (failed != null) {
      sb.append("\n\nJudge feedback on the previous round:");
      for (JudgeVerdict.CriterionResult r : failed.criteriaResults()) {
        if (!r.passed()) {
          sb.append("\n- ").append(r.criterion()).append(": ").append(r.reason());
        }
      }
      sb.append("\nAddress these issues in your revision.");
    }
    return sb.toString();
  }

  /** The judge's prompt: the task, the answer and the criteria; it answers JSON only. */
  public static String judge(String task, String answer, List<String> criteria) {
    return JUDGE_MARKER + " Check the answer below against each success criterion and answer only "
        + "JSON: {\"results\": [{\"criterion\": \"...\", \"passed\": true, \"reason\": \"...\"}]}, one "
        + "result per criterion, in order.\nCriteria: " + String.join(", ", criteria)
        + "\nTask: " + task + "\nAnswer:\n" + answer;
  }
}
