package io.durableagents.activities.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import io.durableagents.workflows.autonomous.ControlTools;
import java.util.List;

/**
 * The autonomous agent's {@code spawn} tool, declared for its schemas only: {@link ToolKind#CONTROL}
 * tools whose calls the {@code AutonomousAgent} workflow handles by starting, awaiting and cancelling
 * child workflows. The methods never run.
 *
 * <pre>{@code
 * ToolRegistry tools = ToolRegistry.newBuilder().addControlTools(new SpawnTools()).build();
 * }</pre>
 */
public class SpawnTools {
  @Tool(name = ControlTools.SPAWN_AGENT, value = "Start a sub-agent in the background. Returns its task id "
      + "at once.")
  public String spawnAgent(@P(name = "agent_name", value = "one of your sub-agents") String agentName,
      @P(name = "prompt", value = "what it should do") String prompt) {
    return agentName;
  }

  @Tool(name = ControlTools.POLL_TASKS, value = "The status of the given tasks, or of every task.")
  public String pollTasks(@P(name = "task_ids", value = "task ids; empty for all", required = false)
      List<String> taskIds) {
    return "";
  }

  @Tool(name = ControlTools.AWAIT_TASKS, value = "Wait until every given task has ended; returns their results.")
  public String awaitTasks(@P(name = "task_ids", value = "task ids") List<String> taskIds) {
    return "";
  }

  @Tool(name = ControlTools.AWAIT_ANY, value = "Wait until one of the given tasks (of all, when empty) has "
      + "ended; returns its result.")
  public String awaitAny(@P(name = "task_ids", value = "task ids; empty for all", required = false)
      List<String> taskIds) {
    return "";
  }

  @Tool(name = ControlTools.CANCEL_TASK, value = "Cancel a running task.")
  public String cancelTask(@P(name = "task_id", value = "the task id") String taskId) {
    return taskId;
  }
}
