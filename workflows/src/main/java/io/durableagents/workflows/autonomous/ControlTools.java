package io.durableagents.workflows.autonomous;

import java.util.List;

/**
 * The names and arguments of the autonomous agent's workflow-side tools. Their schemas are declared
 * as {@code @Tool} methods in the activities module ({@code ThinkTool}, {@code TodoTools}, {@code
 * SpawnTools}) and registered as control tools: the LLM activity checks calls against them, and the
 * workflow handles the calls itself, never as activities.
 */
public final class ControlTools {
  public static final String THINK = "think";
  public static final String ADD_TODO = "add_todo";
  public static final String BATCH_ADD_TODOS = "batch_add_todos";
  public static final String UPDATE_TODO = "update_todo";
  public static final String REMOVE_TODO = "remove_todo";
  public static final String LIST_TODOS = "list_todos";
  public static final String GET_NEXT_TODO = "get_next_todo";
  public static final String FINISH_TASK = "finish_task";
  public static final String FINALIZE_PLAN = "finalize_plan";
  public static final String SPAWN_AGENT = "spawn_agent";
  public static final String POLL_TASKS = "poll_tasks";
  public static final String AWAIT_TASKS = "await_tasks";
  public static final String AWAIT_ANY = "await_any";
  public static final String CANCEL_TASK = "cancel_task";

  /** The todo tool's functions. */
  public static final List<String> TODO = List.of(ADD_TODO, BATCH_ADD_TODOS, UPDATE_TODO, REMOVE_TODO,
      LIST_TODOS, GET_NEXT_TODO, FINISH_TASK);

  /** The spawn tool's functions. */
  public static final List<String> SPAWN = List.of(SPAWN_AGENT, POLL_TASKS, AWAIT_TASKS, AWAIT_ANY,
      CANCEL_TASK);

  private ControlTools() {}
}
