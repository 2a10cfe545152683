package io.durableagents.workflows.agent;

import io.durableagents.workflows.tools.ToolFailureTypes;
import io.temporal.failure.ApplicationFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * Mesa-LLM's {@code selected_tools} contract: null means all of the agent's tools, an empty list
 * means none, names mean only those. Unlike Mesa-LLM, a name the agent does not have is a clear
 * error, not a silently smaller tool set.
 */
public final class SelectedTools {
  private SelectedTools() {}

  /**
   * The tools the model sees, in the agent's order.
   *
   * @throws ApplicationFailure non-retryable, of type {@link ToolFailureTypes#UNKNOWN_SELECTED_TOOL},
   *     when {@code selected} names a tool not in {@code agentTools}
   */
  public static List<String> resolve(List<String> agentTools, List<String> selected) {
    if (selected == null) {
      return List.copyOf(agentTools);
    }
    List<String> unknown = new ArrayList<>();
    for (String name : selected) {
      if (!agentTools.contains(name)) {
        unknown.add(name);
      }
    }
    if (!unknown.isEmpty()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "selected_tools names " + unknown + ", which the agent does not have; its tools are "
              + agentTools,
          ToolFailureTypes.UNKNOWN_SELECTED_TOOL);
    }
    List<String> result = new ArrayList<>();
    for (String name : agentTools) {
      if (selected.contains(name)) {
        result.add(name);
      }
    }
    return List.copyOf(result);
  }
}
