package io.durableagents.starter.view.history;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The workflow ids a simulation gives its agent steps: {@code <simulation>/agent-<id>/step-<n>}, or
 * {@code <simulation>/step-<n>/group-<g>} for a group step (see {@code AgentStepDispatcher}).
 */
final class AgentStepIds {
  private static final Pattern AGENT_STEP = Pattern.compile("/agent-(.+)/step-(\\d+)");
  private static final Pattern GROUP_STEP = Pattern.compile("/step-(\\d+)/group-\\d+");

  private AgentStepIds() {}

  static String agentStep(String simulationId, String agentId, int step) {
    return simulationId + "/agent-" + agentId + "/step-" + step;
  }

  /** The step of an agent step's or group step's workflow id of {@code simulationId}, else null. */
  static Integer stepOf(String simulationId, String workflowId) {
    if (!workflowId.startsWith(simulationId)) {
      return null;
    }
    String rest = workflowId.substring(simulationId.length());
    Matcher agent = AGENT_STEP.matcher(rest);
    if (agent.matches()) {
      return Integer.valueOf(agent.group(2));
    }
    Matcher group = GROUP_STEP.matcher(rest);
    return group.matches() ? Integer.valueOf(group.group(1)) : null;
  }

  /** Whether {@code workflowId} is a group step of {@code simulationId} at {@code step}. */
  static boolean isGroupStep(String simulationId, String workflowId, int step) {
    return workflowId.startsWith(simulationId + "/step-" + step + "/group-")
        && GROUP_STEP.matcher(workflowId.substring(simulationId.length())).matches();
  }
}
