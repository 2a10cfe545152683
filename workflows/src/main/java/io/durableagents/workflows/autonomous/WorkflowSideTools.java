package io.durableagents.workflows.autonomous;

import com.fasterxml.jackson.databind.JsonNode;
import io.durableagents.api.Json;
import io.durableagents.workflows.agent.ToolOutcome;
import io.durableagents.workflows.agent.react.ReactReasoning;
import io.durableagents.workflows.llm.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The autonomous agent's workflow-side tools, handled as workflow state for its ReAct loop instead of
 * run as activities: {@code think} on the {@link ThoughtChain}, the todo tools on the {@link TodoList},
 * {@code finish_task} and {@code finalize_plan}, which end the turn, and the spawn tools on the {@link
 * SubAgents}. A call with bad arguments comes back to the agent as an error observation. It keeps what
 * the calls decided for the pattern between turns: the finish status, whether the agent is planning and
 * whether the plan was just finalized. Workflow code.
 */
final class WorkflowSideTools implements ReactReasoning.ControlToolHandler {
  /** The answer of the turn that finalized the plan: not an answer to the task. */
  static final String FINALIZED = "(plan finalized)";

  private final ThoughtChain thoughts;
  private final TodoList todos;
  private final SubAgents subAgents;
  private final Supplier<Long> budgetLeft;
  private boolean planning;
  private boolean justFinalized;
  private String turnEnd;
  private String finishStatus;

  /**
   * The tools over {@code thoughts} and {@code todos} (null when the spec has no think or todo tool) and
   * {@code subAgents}, spawned with what {@code budgetLeft} says is left of the token budget.
   */
  WorkflowSideTools(ThoughtChain thoughts, TodoList todos, SubAgents subAgents, Supplier<Long> budgetLeft) {
    this.thoughts = thoughts;
    this.todos = todos;
    this.subAgents = subAgents;
    this.budgetLeft = budgetLeft;
  }

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

  /** A new turn starts: nothing has ended it yet. */
  void startTurn() {
    turnEnd = null;
  }

  /** Plan-and-execute starts in its planning phase, which {@code finalize_plan} ends. */
  void startPlanning() {
    planning = true;
  }

  /** Whether the agent is still making its plan. */
  boolean planning() {
    return planning;
  }

  /** Whether {@code finalize_plan} was called since the last time this was asked (and clears it). */
  boolean takeJustFinalized() {
    boolean was = justFinalized;
    justFinalized = false;
    return was;
  }

  /** The status {@code finish_task} gave ({@code completed}, {@code blocked}, {@code failed}), or null. */
  String finishStatus() {
    return finishStatus;
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
        return subAgents.spawn(text(args, "agent_name"), text(args, "prompt"), budgetLeft);
      case ControlTools.POLL_TASKS:
        return subAgents.poll(strings(args, "task_ids"));
      case ControlTools.AWAIT_TASKS:
        return subAgents.await(strings(args, "task_ids"));
      case ControlTools.AWAIT_ANY:
        return subAgents.awaitAny(strings(args, "task_ids"));
      case ControlTools.CANCEL_TASK:
        return subAgents.cancel(text(args, "task_id"));
      default:
        throw new IllegalArgumentException("not a workflow-side tool: " + tool);
    }
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
}
