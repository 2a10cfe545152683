package io.durableagents.activities.tools;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.model.output.structured.Description;
import io.durableagents.workflows.autonomous.ControlTools;
import java.util.List;

/**
 * The autonomous agent's {@code todo} tool (and {@code finalize_plan}), declared for their schemas
 * only: they are {@link ToolKind#CONTROL} tools whose calls the {@code AutonomousAgent} workflow
 * handles on its todo list (workflow state, visible through the {@code todos} query). The methods
 * never run.
 *
 * <pre>{@code
 * ToolRegistry tools = ToolRegistry.newBuilder().addControlTools(new TodoTools()).build();
 * }</pre>
 */
public class TodoTools {
  /** One item of {@code batch_add_todos}. */
  public static class NewItem {
    // LangChain4j makes a field required unless its @JsonProperty says otherwise.
    @Description("what to do")
    @JsonProperty(required = true)
    public String description;

    @Description("critical, high, medium (default) or low")
    @JsonProperty
    public String priority;

    @Description("ids of existing items, or 0-based indexes of items of this batch (\"0\", \"1\")")
    @SuppressWarnings("checkstyle:MemberName")
    @JsonProperty
    public List<String> depends_on;
  }

  @Tool(name = ControlTools.ADD_TODO, value = "Add an item to your todo list. Returns its id and the list.")
  public String addTodo(@P(name = "description", value = "what to do") String description,
      @P(name = "priority", value = "critical, high, medium (default) or low", required = false) String priority,
      @P(name = "depends_on", value = "ids of the items it waits for", required = false) List<String> dependsOn) {
    return description;
  }

  @Tool(name = ControlTools.BATCH_ADD_TODOS, value = "Add several items at once. A dependency may be the "
      + "0-based index of an item of the same batch (\"0\"). Rejected as a whole on a cycle.")
  public String batchAddTodos(@P(name = "items", value = "the new items, in order") List<NewItem> items) {
    return "";
  }

  @Tool(name = ControlTools.UPDATE_TODO, value = "Update an item's status, notes or priority. Returns the list.")
  public String updateTodo(@P(name = "id", value = "the item's id") String id,
      @P(name = "status", value = "pending, in_progress, completed, failed or skipped", required = false) String status,
      @P(name = "notes", value = "what you found or did", required = false) String notes,
      @P(name = "priority", value = "critical, high, medium or low", required = false) String priority) {
    return id;
  }

  @Tool(name = ControlTools.REMOVE_TODO, value = "Remove an item; other items' dependencies on it go too.")
  public String removeTodo(@P(name = "id", value = "the item's id") String id) {
    return id;
  }

  @Tool(name = ControlTools.LIST_TODOS, value = "Show the todo list, or only the items with one status.")
  public String listTodos(@P(name = "status_filter",
      value = "pending, in_progress, completed, failed or skipped", required = false) String statusFilter) {
    return "";
  }

  @Tool(name = ControlTools.GET_NEXT_TODO, value = "The highest-priority pending item whose dependencies "
      + "are all done.")
  public String getNextTodo() {
    return "";
  }

  @Tool(name = ControlTools.FINISH_TASK, value = "Signal that the whole task is over, with a summary. "
      + "Ends the run.")
  public String finishTask(@P(name = "summary", value = "the final answer or what stopped you") String summary,
      @P(name = "status", value = "completed (default), blocked or failed", required = false) String status) {
    return summary;
  }

  @Tool(name = ControlTools.FINALIZE_PLAN, value = "End PHASE 1 - PLANNING: your todo list is the plan. "
      + "Rejected while the list is empty.")
  public String finalizePlan() {
    return "";
  }
}
